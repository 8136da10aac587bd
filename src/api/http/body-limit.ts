/**
 * The request body limit, enforced with Hono's own middleware before any route reads a
 * body or calls Temporal. Without it a body of a few megabytes reached Temporal (which refuses
 * payloads over its blob limit with an error the API could only answer as a 500) or was buffered
 * whole before anything said no.
 */
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { DeputyError } from '../../errors.js';

/**
 * Largest request body accepted, in bytes: 1 MiB. Generous for every body the API takes (a start
 * with a task at its own limit, MAX_TASK_BYTES, fits even with every character JSON-escaped) and
 * far under Temporal's 2 MB payload limit.
 */
export const MAX_BODY_BYTES = 1024 * 1024;

export function requestBodyLimit(maxBytes = MAX_BODY_BYTES): MiddlewareHandler {
  // A declared Content-Length over the limit is refused before reading a byte; a chunked body is
  // counted as it arrives and refused as soon as it passes the limit.
  return bodyLimit({
    maxSize: maxBytes,
    // Thrown, so the one error mapper (errors.ts) answers it like every other refusal.
    onError: () => {
      throw new DeputyError(
        'too-large',
        `the request body is larger than the limit of ${maxBytes} bytes`,
      );
    },
  });
}

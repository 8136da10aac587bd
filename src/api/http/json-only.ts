/**
 * Request bodies must be JSON. A browser sends `text/plain`, form and multipart bodies
 * cross-site without asking; `application/json` needs a CORS preflight, which this API never
 * grants. So refusing every other type closes the simple-request door even where `Origin` is not
 * checked. A request without any body (a stop) needs no type.
 *
 * Runs after the body limit, so reading the body to see whether there is one is bounded.
 */
import type { MiddlewareHandler } from 'hono';
import { DeputyError } from '../../errors.js';
import { clip } from '../../shared/clip.js';

const BODYLESS_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** `application/json`, any case, with or without parameters such as `charset=utf-8`. */
export function isJsonMediaType(contentType: string): boolean {
  return contentType.split(';', 1)[0]?.trim().toLowerCase() === 'application/json';
}

export function jsonBodiesOnly(): MiddlewareHandler {
  return async (c, next) => {
    if (BODYLESS_METHODS.has(c.req.method)) return next();
    const contentType = c.req.header('content-type');
    if (contentType !== undefined && isJsonMediaType(contentType)) return next();
    // No header says whether an untyped request has a body (`curl -X POST` sends neither length
    // nor encoding), so look: Hono keeps what it read for the route.
    if (contentType === undefined && (await c.req.text()) === '') return next();
    const got = contentType === undefined ? 'no Content-Type' : `'${clip(contentType, 100)}'`;
    throw new DeputyError(
      'unsupported-media-type',
      `request bodies must be JSON: send Content-Type: application/json (got ${got})`,
    );
  };
}

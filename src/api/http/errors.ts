/**
 * The one place errors become HTTP answers. A DeputyError maps by kind; anything else is a bug:
 * it is logged here with its stack and answered as a bare 500 that leaks nothing (no message,
 * no stack, no Temporal detail).
 */
import type { Context } from 'hono';
import type { ZodError } from 'zod';
import { DeputyError, HTTP_STATUS, type DeputyErrorKind, type Issue } from '../../errors.js';
import { toIssues } from '../../definitions/schema.js';
import { clip } from '../../shared/clip.js';

export interface Logger {
  error(message: string, error?: unknown): void;
  warn(message: string): void;
  info(message: string): void;
}

export const consoleLogger: Logger = {
  error: (message, error) => console.error(message, error ?? ''),
  warn: (message) => console.warn(message),
  info: (message) => console.log(message),
};

const CODE: Record<Exclude<DeputyErrorKind, 'invalid'>, string> = {
  'not-found': 'not_found',
  conflict: 'conflict',
  malformed: 'invalid_json',
  forbidden: 'forbidden',
  // The one kind only definitions raise; named as qwen-code's daemon names it.
  'read-only': 'agent_readonly',
  unauthorized: 'unauthorized',
  misdirected: 'misdirected_request',
  'unsupported-media-type': 'unsupported_media_type',
  'too-large': 'payload_too_large',
  unavailable: 'unavailable',
};

export function errorResponse(error: unknown, c: Context, logger: Logger): Response {
  if (error instanceof DeputyError) {
    const status = HTTP_STATUS[error.kind];
    if (error.kind === 'invalid') {
      const issues = listedIssues(
        error.issues.length > 0 ? error.issues : [{ path: '', message: error.message }],
      );
      const code = error.code ?? 'invalid_request';
      return c.json({ error: code, code, message: error.message, issues }, status);
    }
    if (error.kind === 'unauthorized') c.header('WWW-Authenticate', 'Bearer');
    const code = error.code ?? CODE[error.kind];
    // `error` is deputy's field; `code` is the same value under the name qwen-code's SDK reads.
    return c.json({ error: code, code, message: error.message }, status);
  }
  logger.error(`internal error on ${c.req.method} ${c.req.path}`, error);
  return c.json({ error: 'internal' }, 500);
}

/** More issues than this are not listed: a body of 10,000 bad fields needs no 10,000 lines. */
const MAX_ISSUES = 20;

/**
 * Issues as answered, whoever raised them (request schemas, the definition schema, the registry):
 * at most 20, paths and messages clipped. Messages quote what the caller sent (zod names unknown
 * keys, the registry names a model handle), and a key or a value can be as long as the body.
 */
function listedIssues(issues: readonly Issue[]): Issue[] {
  return issues
    .slice(0, MAX_ISSUES)
    .map((issue) => ({ path: clip(issue.path, 100), message: clip(issue.message, 300) }));
}

/** A zod failure as a 422 DeputyError with `{path, message}` issues (clipped when answered). */
export function invalidRequest(
  error: ZodError,
  where: 'body' | 'query' = 'body',
  code: 'invalid_request' | 'invalid_config' = 'invalid_request',
): DeputyError {
  // The definition schema's reading of union failures points at the field, not the branch.
  const issues: Issue[] = toIssues(error).slice(0, MAX_ISSUES);
  return new DeputyError('invalid', `the request ${where} is not valid`, { issues, code });
}

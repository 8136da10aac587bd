/**
 * The one error class the API and the CLI map to answers: an HTTP status (src/api/http/errors.ts)
 * or an exit code (src/cli/exit-codes.ts). Anything that is not a DeputyError is a bug, and
 * is reported as an internal error that leaks nothing.
 */
export type DeputyErrorKind =
  | 'not-found'
  | 'conflict'
  | 'invalid'
  /** The request cannot be read at all (a body that is not JSON): 400. */
  | 'malformed'
  /** Not allowed for this caller or setup (a missing role, an unauthenticated public bind). */
  | 'forbidden'
  /**
   * The target cannot be changed by anyone through deputy: a built-in or ecosystem definition
   * or a level that is not writable. Answered 403 like `forbidden`, with its own code.
   */
  | 'read-only'
  | 'unauthorized'
  /** The HTTP request itself is refused before any route runs: wrong host, media type, size. */
  | 'misdirected'
  | 'unsupported-media-type'
  | 'too-large'
  /** Temporal is up but nothing can answer right now (no worker polls the delegation's queue). */
  | 'unavailable';

/** One problem with a request or a configuration, by field path. */
export interface Issue {
  path: string;
  message: string;
}

export interface DeputyErrorOptions {
  cause?: unknown;
  /** Field-level problems, for `invalid` (answered as 422 with an `issues` list). */
  issues?: Issue[];
  /**
   * The stable `code` the API answers with, when it is more precise than the kind's own
   * (src/api/http/errors.ts): `invalid_config` for a definition or configuration,
   * `agent_not_found`, `agent_already_exists`, `agent_name_reserved`, `mcp_server_not_found`.
   */
  code?: ErrorCode;
}

/** Codes more precise than a kind's default; API clients (qwen-code's SDK among them) key on them. */
export type ErrorCode =
  | 'invalid_request'
  | 'invalid_config'
  | 'agent_not_found'
  | 'agent_already_exists'
  | 'agent_name_reserved'
  | 'mcp_server_not_found'
  /** An approval named a hash `.mcp.json` no longer gives the server (409). */
  | 'mcp_server_changed'
  /** An approval asked for a server written in config.yaml or a definition (422). */
  | 'mcp_server_needs_no_approval';

export class DeputyError extends Error {
  override readonly name = 'DeputyError';
  readonly issues: Issue[];
  /** Set when the kind's default code is not precise enough (`invalid` defaults to `invalid_request`). */
  readonly code: ErrorCode | undefined;

  constructor(
    readonly kind: DeputyErrorKind,
    message: string,
    options: DeputyErrorOptions = {},
  ) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.issues = options.issues ?? [];
    this.code = options.code ?? (kind === 'invalid' ? 'invalid_request' : undefined);
  }
}

/**
 * The HTTP status each kind answers with (src/api/http/errors.ts); the CLI reads an API refusal
 * back into its kind with the same table (src/cli/local-api.ts).
 */
export const HTTP_STATUS = {
  'not-found': 404,
  conflict: 409,
  invalid: 422,
  malformed: 400,
  forbidden: 403,
  'read-only': 403,
  unauthorized: 401,
  misdirected: 421,
  'unsupported-media-type': 415,
  'too-large': 413,
  unavailable: 503,
} as const satisfies Record<DeputyErrorKind, number>;

export function isDeputyError(error: unknown, kind?: DeputyErrorKind): error is DeputyError {
  return error instanceof DeputyError && (kind === undefined || error.kind === kind);
}

/** No agent by that name (404 `agent_not_found`). */
export function agentNotFound(message: string): DeputyError {
  return new DeputyError('not-found', message, { code: 'agent_not_found' });
}

/** A definition (or a change to one) that fails validation: 422 `invalid_config`. */
export function invalidDefinition(
  issues: Issue[],
  message = 'the definition is invalid',
): DeputyError {
  return new DeputyError('invalid', message, { issues, code: 'invalid_config' });
}

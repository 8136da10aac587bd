/**
 * The one error a deputy client throws for an answer that is not a success: the HTTP status and
 * the API's stable `code` (`agent_not_found`, `invalid_request`, `conflict`, ...), so programs
 * branch on the code, never on message text.
 */
export interface ClientIssue {
  path: string;
  message: string;
}

export class DeputyClientError extends Error {
  override name = 'DeputyClientError';

  constructor(
    message: string,
    /** The API's stable code; `unreachable` when no answer came at all. */
    readonly code: string,
    /** HTTP status; 0 when no answer came. */
    readonly status: number,
    /** With `invalid_request` / `invalid_config`: what is wrong, by field. */
    readonly issues: ClientIssue[] = [],
    options?: { cause?: unknown },
  ) {
    super(message, options);
  }
}

/**
 * "Temporal cannot be reached": one error for the API (503 `unavailable`) and the CLI (exit 5),
 * and the test that tells a dead or silent server apart from every other failure of a call.
 */
import { DeputyError } from '../errors.js';

/**
 * A DeputyError of kind `unavailable`, so the API answers 503 without knowing about Temporal.
 * The CLI checks for this class first to print the "start one with `deputy dev`" hint.
 */
export class TemporalUnreachableError extends DeputyError {
  constructor(message: string, options: { cause?: unknown } = {}) {
    super('unavailable', message, options);
  }
}

/** gRPC status codes that mean the server did not answer (see @grpc/grpc-js `status`). */
const CANCELLED = 1;
const DEADLINE_EXCEEDED = 4;
const UNAVAILABLE = 14;

/**
 * The call never got an answer from the server: refused, reset, or past its deadline. The SDK
 * wraps the gRPC error (a `ServiceError` whose `cause` has the code), so the chain is walked.
 * Only for calls the server answers by itself: a query or an update past its deadline means no
 * worker answered, which is a different story (their callers handle it).
 */
export function isConnectionFailure(error: unknown): boolean {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    // CANCELLED: the client gave up on the call (its deadline passed while the SDK retried).
    if (code === UNAVAILABLE || code === DEADLINE_EXCEEDED || code === CANCELLED) return true;
    current = (current as { cause?: unknown }).cause;
  }
  return false;
}

/** The gRPC status of a connection failure, in words, for messages. */
export function connectionFailureReason(error: unknown): string {
  let current: unknown = error;
  for (let depth = 0; depth < 5 && current instanceof Error; depth++) {
    const code = (current as { code?: unknown }).code;
    if (code === UNAVAILABLE) return 'connection refused or lost';
    if (code === DEADLINE_EXCEEDED || code === CANCELLED) return 'no answer in time';
    current = (current as { cause?: unknown }).cause;
  }
  return 'no answer';
}

/**
 * The server may have taken the call: it timed out rather than being refused. A start that ends
 * so is not known to have failed.
 */
export function isUnanswered(error: unknown): error is TemporalUnreachableError {
  return (
    error instanceof TemporalUnreachableError &&
    connectionFailureReason(error.cause ?? error) !== 'connection refused or lost'
  );
}

/**
 * A start that got no answer in time is not known to have failed: a loaded server may still take
 * it (seen on a busy cluster). The 503 then names what was started and where to look it up, so
 * the caller does not start the same work twice; a refused connection keeps the plain message.
 */
export function unconfirmedStart(
  error: unknown,
  started: { what: string; lookUp: string },
): unknown {
  if (!isUnanswered(error)) return error;
  return new TemporalUnreachableError(
    `${error.message}. The start of ${started.what} was not confirmed and may still happen: look it up (${started.lookUp}) before starting it again`,
    { cause: error },
  );
}

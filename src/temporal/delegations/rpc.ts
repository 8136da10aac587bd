/**
 * A bound on every call the facade makes to Temporal that the server answers by itself
 * (describe, list, start, signal, cancel...). Without one, a call to a server that is down is
 * retried by the SDK for about 20 s and then surfaces as an unexplained 500; with one, the
 * caller learns within RPC_TIMEOUT_MS that Temporal is unreachable (503, exit 5) and nothing
 * waits on a server that is not there.
 */
import type { Client, WorkflowClient } from '@temporalio/client';
import {
  connectionFailureReason,
  isConnectionFailure,
  isUnanswered,
  TemporalUnreachableError,
} from '../unreachable.js';

/**
 * Milliseconds one such call may take. A healthy server answers these in milliseconds; the API
 * promises a 503 within 2 s when Temporal is down (API-7), which leaves room for the answer.
 */
export const RPC_TIMEOUT_MS = 1_500;

/**
 * The gRPC deadline ends the call, but the SDK's retry interceptor sleeps between attempts and
 * only notices the deadline on the next one (up to ~1.5 s later). This timer is the hard bound.
 */
const GRACE_MS = 100;

/** Whatever can scope calls under a deadline: the Client, or a handle's WorkflowClient. */
type DeadlineScope = Pick<Client | WorkflowClient, 'withDeadline'>;

/**
 * Runs `fn` (any number of Temporal calls, e.g. every page of a listing) under one deadline.
 * A refused connection or a missed deadline becomes TemporalUnreachableError; every other error
 * (not found, already started...) passes through unchanged.
 */
export async function rpc<T>(
  scope: DeadlineScope,
  fn: () => Promise<T>,
  timeoutMs = RPC_TIMEOUT_MS,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(unreachable(`no answer within ${timeoutMs} ms`)),
      timeoutMs + GRACE_MS,
    );
  });
  try {
    // race() subscribes to both, so the call's own late failure is never an unhandled rejection.
    return await Promise.race([scope.withDeadline(Date.now() + timeoutMs, fn), expired]);
  } catch (error) {
    if (isConnectionFailure(error)) throw unreachable(connectionFailureReason(error), error);
    throw error;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * rpc for a call that may reach the server twice without harm: a read, or a write Temporal
 * itself treats as idempotent (a cancel). One with no answer in time is asked once more before
 * it counts as unreachable: a loaded server (a busy cluster, two shared cores) sometimes takes
 * longer than the bound for one call, where a frozen one costs two bounds and a dead one, which
 * refuses the connection, is not asked again. Writes that are not idempotent (a start, a signal)
 * check what landed before they repeat themselves (start.ts, signal-once.ts).
 */
export async function idempotentRpc<T>(scope: DeadlineScope, fn: () => Promise<T>): Promise<T> {
  try {
    return await rpc(scope, fn);
  } catch (error) {
    if (!isUnanswered(error)) throw error;
    return rpc(scope, fn);
  }
}

function unreachable(reason: string, cause?: unknown): TemporalUnreachableError {
  return new TemporalUnreachableError(
    `Temporal is not reachable (${reason}); try again once it is back`,
    cause === undefined ? {} : { cause },
  );
}

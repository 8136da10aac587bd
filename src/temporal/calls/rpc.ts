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
 * promises a 503 within 2 s when Temporal is down, which leaves room for the answer.
 */
export const RPC_TIMEOUT_MS = 1_500;

/**
 * The gRPC deadline ends the call, but the SDK's retry interceptor sleeps between attempts and
 * only notices the deadline on the next one (up to ~1.5 s later). This timer is the hard bound.
 */
const GRACE_MS = 100;

/** Whatever can scope calls under a deadline: the Client, or a handle's WorkflowClient. */
type DeadlineScope = Pick<Client | WorkflowClient, 'withDeadline' | 'connection'>;

/** grpc-js `connectivityState.READY`: the channel has a live connection to the server. */
const READY = 2;

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
 * Whether a call that ended in `error` is worth asking again: it got no answer in time while the
 * channel is connected, so the server is there but slow (a busy cluster, two shared cores) and
 * may even have done it. A server that is down leaves the channel connecting and its calls end
 * at the deadline too; asking it again would only double the wait for the same 503.
 */
export function worthAskingAgain(scope: DeadlineScope, error: unknown): boolean {
  return isUnanswered(error) && channelIsConnected(scope);
}

/**
 * The SDK keeps its grpc-js client protected; its channel state is read through it, and a
 * connection without one (a NativeConnection) counts as connected, the safe side for a repeat.
 */
function channelIsConnected(scope: DeadlineScope): boolean {
  const grpcClient = (scope.connection as unknown as { client?: GrpcClientLike }).client;
  if (typeof grpcClient?.getChannel !== 'function') return true;
  return grpcClient.getChannel().getConnectivityState(false) === READY;
}

interface GrpcClientLike {
  getChannel(): { getConnectivityState(tryToConnect: boolean): number };
}

/**
 * rpc for a call that may reach the server twice without harm: a read, or a write Temporal
 * itself treats as idempotent (a cancel). One the server is slow to answer is asked once more
 * before it counts as unreachable (worthAskingAgain), which a frozen server pays with two bounds.
 * Writes that are not idempotent (a start, a signal) check what landed before they repeat
 * themselves (start.ts, signal-once.ts).
 */
export async function idempotentRpc<T>(scope: DeadlineScope, fn: () => Promise<T>): Promise<T> {
  try {
    return await rpc(scope, fn);
  } catch (error) {
    if (!worthAskingAgain(scope, error)) throw error;
    return rpc(scope, fn);
  }
}

function unreachable(reason: string, cause?: unknown): TemporalUnreachableError {
  return new TemporalUnreachableError(
    `Temporal is not reachable (${reason}); try again once it is back`,
    cause === undefined ? {} : { cause },
  );
}

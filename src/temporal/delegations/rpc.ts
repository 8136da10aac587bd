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
 * How long a start may take while the connection to Temporal is up. A start is a write the server
 * must persist; a loaded server (a busy cluster, 2 shared cores in CI) took longer than
 * RPC_TIMEOUT_MS for 6-24% of starts, and answering those "not reachable" told the caller to
 * start again work that was under way. A server that is really away shows in the connection's
 * state, and that still answers within RPC_TIMEOUT_MS.
 */
export const START_PATIENCE_MS = 10_000;

/** gRPC's connectivity state READY: a live connection (keepalive pings answered). */
const READY = 2;

/**
 * `rpc` for a start: after RPC_TIMEOUT_MS it looks at the client's connection, and only when
 * that is not up answers "not reachable" at once; while it is up it waits up to
 * START_PATIENCE_MS for the server's answer.
 */
export async function rpcStart<T>(client: Client, fn: () => Promise<T>): Promise<T> {
  const call = rpc(client, fn, START_PATIENCE_MS);
  // race() subscribes to both, so the call's own late failure is never an unhandled rejection.
  call.catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const impatient = new Promise<never>((_, reject) => {
    const look = (): void => {
      if (connectionIsUp(client)) timer = setTimeout(look, 250);
      else reject(unreachable(`no answer within ${RPC_TIMEOUT_MS} ms, and no connection`));
    };
    timer = setTimeout(look, RPC_TIMEOUT_MS);
  });
  try {
    return await Promise.race([call, impatient]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Whether the client's gRPC channel is READY. The SDK keeps the grpc-js client on its Connection
 * without exposing it in its types; without it (another SDK version) nothing waits longer.
 */
function connectionIsUp(client: Client): boolean {
  const grpcClient = (client.connection as unknown as { client?: unknown }).client as
    { getChannel?: () => { getConnectivityState(tryToConnect: boolean): number } } | undefined;
  try {
    return grpcClient?.getChannel?.().getConnectivityState(false) === READY;
  } catch {
    return false;
  }
}

function unreachable(reason: string, cause?: unknown): TemporalUnreachableError {
  return new TemporalUnreachableError(
    `Temporal is not reachable (${reason}); try again once it is back`,
    cause === undefined ? {} : { cause },
  );
}

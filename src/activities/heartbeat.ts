import { Context } from '@temporalio/activity';

/** Interval between heartbeats of a long activity; well under every heartbeat timeout. */
export const HEARTBEAT_INTERVAL_MS = 5_000;

/**
 * Runs `work` while heartbeating, so the server notices a dead worker within the heartbeat
 * timeout and a stop request (cancellation) reaches this activity.
 */
export async function whileHeartbeating<T>(work: () => Promise<T>): Promise<T> {
  const heartbeat = heartbeatOf(Context.current());
  heartbeat();
  const timer = setInterval(() => heartbeat(), HEARTBEAT_INTERVAL_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

/**
 * The activity's heartbeat. A local activity (a read) has none: the worker running it is the one
 * holding the workflow task that waits for it, and Temporal would refuse each with a warning.
 */
export function heartbeatOf(context: Context): (details?: unknown) => void {
  return context.info.isLocal ? () => {} : (details) => context.heartbeat(details);
}

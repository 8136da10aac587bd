import { Context } from '@temporalio/activity';

/** Interval between heartbeats of a long activity; well under every heartbeat timeout. */
export const HEARTBEAT_INTERVAL_MS = 5_000;

/**
 * Runs `work` while heartbeating, so the server notices a dead worker within the heartbeat
 * timeout and a stop request (cancellation) reaches this activity.
 *
 * The first heartbeat goes out after one interval, not at the start: the heartbeat timeout
 * counts from the start anyway, a cancellation is only learnt from a heartbeat's answer (one
 * sent at the start answers before any stop could come), and that one more call to the server
 * made every short activity (a scripted model turn) about 2 ms slower (bench/step-latency.ts).
 */
export async function whileHeartbeating<T>(work: () => Promise<T>): Promise<T> {
  const heartbeat = heartbeatOf(Context.current());
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

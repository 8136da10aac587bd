import { Context } from '@temporalio/activity';

/** Interval between heartbeats of a long activity; well under every heartbeat timeout. */
export const HEARTBEAT_INTERVAL_MS = 5_000;

/**
 * Runs `work` while heartbeating, so the server notices a dead worker within the heartbeat
 * timeout and a stop request (cancellation) reaches this activity.
 */
export async function whileHeartbeating<T>(work: () => Promise<T>): Promise<T> {
  const context = Context.current();
  context.heartbeat();
  const timer = setInterval(() => context.heartbeat(), HEARTBEAT_INTERVAL_MS);
  try {
    return await work();
  } finally {
    clearInterval(timer);
  }
}

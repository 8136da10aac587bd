/**
 * What a tool or model call carries of the capability snapshot. Sandbox code.
 *
 * A run whose `resolveAgent` stored the snapshot passes its reference (src/activities/
 * snapshot-store.ts), so a round's history holds the call and not another copy of every tool
 * schema and the prompt. A run resolved before references existed has none and passes the
 * snapshot whole, as it did then. Which one is decided by what `resolveAgent` recorded, so
 * replay takes the same path without a patch.
 */
import { ApplicationFailure } from '@temporalio/workflow';
import type { ResolvedAgent, SnapshotCarrier } from '../../shared/workflow-contract/activities.js';
import { FAILURE_TYPES } from '../../shared/workflow-contract/failures.js';
import { activityCause } from '../failure-notice.js';

/**
 * Runs `call` with the snapshot's reference; when the store lost it (a wiped data directory, a
 * worker that does not share it), once more with the snapshot itself, which this history holds,
 * and so do the run's later calls: one failed attempt a run, not one a call.
 */
export async function withSnapshot<T>(
  resolved: ResolvedAgent,
  call: (carrier: SnapshotCarrier) => Promise<T>,
): Promise<T> {
  const { snapshot, snapshotRef } = resolved;
  if (snapshotRef === undefined) return call({ snapshot });
  try {
    return await call({ snapshotRef });
  } catch (error) {
    if (!isSnapshotMissing(error)) throw error;
    // Decided by a failure recorded in history: replay drops the reference at the same point.
    resolved.snapshotRef = undefined;
    return call({ snapshot });
  }
}

/** A model call's prompt and tools, from the carrier. */
export function modelPromptOf(carrier: SnapshotCarrier) {
  return carrier.snapshotRef !== undefined
    ? { snapshotRef: carrier.snapshotRef }
    : { system: carrier.snapshot.systemPrompt, tools: carrier.snapshot.tools };
}

/** In either form a local read's failure takes (see activityCause). */
function isSnapshotMissing(error: unknown): boolean {
  const cause = activityCause(error);
  return cause instanceof ApplicationFailure && cause.type === FAILURE_TYPES.snapshotMissing;
}

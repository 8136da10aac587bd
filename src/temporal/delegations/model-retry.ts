/**
 * A model call that failed and waits for (or is in) its next attempt, read from the workflow's
 * pending activities, so `deputy status` and `GET /delegations/:id` show a provider outage while
 * the activity's retry policy rides it out, not only once the last attempt failed. The message is
 * the activity's own (src/activities/model-call-failure.ts): masked, and naming the provider, the
 * status and the attempt.
 */
import type { WorkflowExecutionDescription } from '@temporalio/client';
import type { ModelRetry } from './types.js';

/** The activity type of a model call (DeputyActivities.callModel). */
const MODEL_CALL_ACTIVITY = 'callModel';

export function modelRetryOf(description: WorkflowExecutionDescription): ModelRetry | null {
  for (const pending of description.raw.pendingActivities ?? []) {
    if (pending.activityType?.name !== MODEL_CALL_ACTIVITY) continue;
    const lastFailure = pending.lastFailure?.message;
    if (lastFailure === undefined || lastFailure === null || lastFailure === '') continue;
    const next = pending.nextAttemptScheduleTime;
    return {
      attempt: pending.attempt ?? 1,
      maximumAttempts: pending.maximumAttempts ?? 0,
      lastFailure,
      nextAttemptAt:
        next?.seconds === undefined || next.seconds === null
          ? null
          : new Date(
              Number(next.seconds.toString()) * 1000 + Math.floor((next.nanos ?? 0) / 1e6),
            ).toISOString(),
    };
  }
  return null;
}

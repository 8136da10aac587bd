/**
 * Pure mappings from what Temporal reports to what deputy reports: a delegation's status, a
 * failure's message. Kept apart so they can be unit-tested.
 */
import { DELEGATION_STATUSES, type DelegationStatus } from '../../shared/delegation.js';

/**
 * The workflow keeps `DeputyStatus` current while it runs, but a workflow that was terminated
 * or failed outright never wrote its last word: the execution status decides then.
 */
export function effectiveStatus(
  executionStatus: string,
  attribute: string | undefined,
): DelegationStatus {
  const declared = DELEGATION_STATUSES.find((status) => status === attribute);
  switch (executionStatus) {
    case 'RUNNING':
      return declared === 'parked' || declared === 'idle' ? declared : 'running';
    case 'COMPLETED':
      // A completed workflow may itself report `failed` or `stopped` (its result status).
      return declared === 'failed' || declared === 'stopped' ? declared : 'completed';
    case 'CANCELLED':
    case 'TERMINATED':
      return 'stopped';
    default:
      return 'failed';
  }
}

/** The innermost failure message of a failed workflow, which says what went wrong. */
export function failureMessage(error: Error): string {
  let current: unknown = error;
  let message = error.message;
  for (let depth = 0; depth < 8 && current instanceof Error; depth++) {
    if (current.message) message = current.message;
    current = (current as { cause?: unknown }).cause;
  }
  return message;
}

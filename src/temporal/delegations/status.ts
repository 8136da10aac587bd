/**
 * Pure mappings from what Temporal reports to what deputy reports: a delegation's status, a
 * failure's message, an update rejection's error kind. Kept apart so they can be unit-tested.
 */
import { FAILURE_TYPES } from '../../shared/failures.js';
import type { DelegationStatus } from '../../shared/delegation.js';
import type { DeputyErrorKind } from '../../errors.js';

const DELEGATION_STATUSES: readonly DelegationStatus[] = [
  'running',
  'parked',
  'completed',
  'failed',
  'stopped',
];

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
      return declared === 'parked' ? 'parked' : 'running';
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

/**
 * The decideCard update's validator rejects an unknown card and an already-decided one. Its
 * failure type (when it sets one) or else its message tells which.
 */
export function mapCardRejection(
  cardId: string,
  cause: unknown,
): { kind: DeputyErrorKind; message: string } {
  const type =
    typeof (cause as { type?: unknown })?.type === 'string' ? (cause as { type: string }).type : '';
  const text = cause instanceof Error ? cause.message : '';
  if (type === FAILURE_TYPES.cardAlreadyDecided) return { kind: 'conflict', message: text };
  if (type === FAILURE_TYPES.cardUnknown) return { kind: 'not-found', message: text };
  if (type === FAILURE_TYPES.cardDecisionInvalid) return { kind: 'invalid', message: text };
  // Workflows recorded before the types existed answered with a message only.
  const probe = `${type} ${text}`;
  if (/already|decided|conflict/i.test(probe)) {
    return { kind: 'conflict', message: text || `card ${cardId} was already decided` };
  }
  if (/unknown|not.?found|no such/i.test(probe)) {
    return { kind: 'not-found', message: text || `no approval card with id '${cardId}'` };
  }
  if (/invalid/i.test(probe)) {
    return { kind: 'invalid', message: text || `decision on card ${cardId} is not valid` };
  }
  return { kind: 'conflict', message: text || `card ${cardId} cannot be decided` };
}

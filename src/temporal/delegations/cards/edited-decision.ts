/**
 * Approve with edited arguments goes to the delegation as the validated
 * `decideCardUpdate`, not the stored signal: only the delegation holds the card's real
 * arguments, its tool's schema and its command's analysis, so only its validator can tell an edit
 * that fits and stays inside the card from one that widens it, and tell the caller why. An
 * update needs a worker: with none, the edit is `unavailable` at once (a plain approve or deny
 * still records without one). The first decision still wins exactly once: the validator refuses
 * a card that any earlier signal or update settled.
 */
import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type WorkflowExecutionDescription,
  type WorkflowHandle,
} from '@temporalio/client';
import { DeputyError } from '../../../errors.js';
import { CARD_EDIT_REFUSED } from '../../../shared/cards/card-decision-shape.js';
import type { ApprovalCard, CardDecision } from '../../../shared/delegation.js';
import { FAILURE_TYPES } from '../../../shared/workflow-contract/failures.js';
import { decideCardUpdate } from '../../../shared/workflow-contract/messages.js';
import { TemporalUnreachableError } from '../../unreachable.js';
import { rpc } from '../../calls/rpc.js';
import { executeUpdateUntilSeen } from '../../calls/update-until-seen.js';
import type { LiveWorkerCheck } from '../../calls/worker-liveness.js';

export async function decideByUpdate(
  deps: { hasLiveWorker: LiveWorkerCheck; decisionWaitMs: number },
  handle: WorkflowHandle,
  description: WorkflowExecutionDescription,
  decision: CardDecision,
): Promise<ApprovalCard> {
  const { cardId } = decision;
  if (!(await deps.hasLiveWorker(description.taskQueue))) {
    throw new DeputyError(
      'unavailable',
      `no worker is running for card ${cardId}'s delegation (task queue ${description.taskQueue}); edited arguments and allow: 'session' are checked by the delegation itself, so approve with them once a worker runs (a plain approve or deny is recorded without one)`,
    );
  }
  try {
    return await rpc(
      handle.client,
      () =>
        executeUpdateUntilSeen(handle, decideCardUpdate, {
          args: [decision],
          ...(decision.decisionId === undefined ? {} : { updateId: decision.decisionId }),
        }),
      // The validator answers in the next workflow task; a loaded machine gets some slack.
      Math.max(deps.decisionWaitMs * 3, 5_000),
    );
  } catch (error) {
    throw refusal(error, cardId);
  }
}

function refusal(error: unknown, cardId: string): unknown {
  if (error instanceof WorkflowNotFoundError) {
    return new DeputyError('conflict', `card ${cardId}'s delegation has ended and settled it`);
  }
  if (error instanceof WorkflowUpdateFailedError) {
    const cause = error.cause as { type?: string; message?: string } | undefined;
    const message = cause?.message ?? `card ${cardId} cannot be decided`;
    if (cause?.type === CARD_EDIT_REFUSED || cause?.type === FAILURE_TYPES.cardDecisionInvalid)
      return new DeputyError('invalid', `${message}; the card is still pending`);
    if (cause?.type === FAILURE_TYPES.cardUnknown) return new DeputyError('not-found', message);
    return new DeputyError('conflict', message);
  }
  if (error instanceof TemporalUnreachableError) {
    return new DeputyError(
      'unavailable',
      `card ${cardId}'s delegation did not answer the edit in time (its worker may be busy or restarting); look at the card before deciding again`,
      { cause: error },
    );
  }
  return error;
}

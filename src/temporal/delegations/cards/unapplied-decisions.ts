/**
 * Card decisions Temporal has stored that the workflow has not seen yet: `decideCard` signals
 * recorded after the run's last completed workflow task. Signals that arrive while a task runs
 * are written after its completion, so everything before that event was delivered to the
 * workflow code (and shows in the memo), everything after it was not. While no worker runs,
 * this is how a second decision on the same card is refused instead of silently ignored later.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { CardDecision } from '../../../shared/delegation.js';
import { decideCardSignal } from '../../../shared/workflow-contract/messages.js';
import { signalArgsInHistory } from '../../calls/signal-history.js';

/** Unapplied decisions of run `runId`, oldest first (the order the workflow will apply them). */
export async function unappliedDecisions(
  handle: WorkflowHandle,
  runId: string,
): Promise<CardDecision[]> {
  return asDecisions(
    await signalArgsInHistory(handle, runId, decideCardSignal.name, { unappliedOnly: true }),
  );
}

/**
 * Every decision run `runId` was sent, oldest first. The first one for a card that was pending
 * is the one the workflow applied (or will apply): later ones find it decided.
 */
export async function allDecisions(handle: WorkflowHandle, runId: string): Promise<CardDecision[]> {
  return asDecisions(
    await signalArgsInHistory(handle, runId, decideCardSignal.name, { unappliedOnly: false }),
  );
}

function asDecisions(args: unknown[]): CardDecision[] {
  return args.filter(
    (arg): arg is CardDecision => typeof (arg as CardDecision | null)?.cardId === 'string',
  );
}

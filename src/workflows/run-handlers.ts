/**
 * The handlers every deputy workflow answers: state and events queries, and card
 * decisions as a signal or a validated update. Registered before the first await, so no
 * message is ever missed. Sandbox code.
 */
import { ApplicationFailure, log, setHandler } from '@temporalio/workflow';
import type { ApprovalCard, CardDecision, DelegationState } from '../shared/delegation.js';
import {
  decideCardSignal,
  decideCardUpdate,
  eventsQuery,
  stateQuery,
} from '../shared/workflow-contract/messages.js';
import type { DelegationRun } from './delegation-run.js';
import type { SettleCard } from './cards/card-deadlines.js';
import { registerGrantHandlers } from './cards/grant-handlers.js';
import { publishDecision } from './visibility.js';

/**
 * @param state what the `state` query answers (a session adds its tasks to the run's state)
 * @param onDecided told after a card decision applied (a child forwards it to its session)
 * @returns the settling function, for a stop's denials and for deadlines (card-deadlines.ts)
 */
export function registerRunHandlers(
  run: DelegationRun,
  state: () => DelegationState,
  onDecided?: (card: ApprovalCard) => void,
): SettleCard {
  const decide: SettleCard = (decision, how) => {
    const card = run.decideCard(decision, how.expired === true);
    if (card) {
      publishDecision(run, how.resumes === true);
      onDecided?.(card);
    }
    return card;
  };
  const decideCard = (decision: CardDecision) => decide(decision, { resumes: true });
  setHandler(stateQuery, state);
  registerGrantHandlers(run);
  setHandler(eventsQuery, (afterSeq: number) => run.eventsAfter(afterSeq));
  setHandler(decideCardSignal, (decision) => {
    // Signals cannot answer; a bad decision is logged and changes nothing.
    if (!decideCard(decision))
      log.warn('ignored card decision', { ...decision, reason: undefined });
  });
  setHandler(
    decideCardUpdate,
    (decision) => {
      const card = decideCard(decision);
      if (!card) throw ApplicationFailure.nonRetryable(`card ${decision.cardId} cannot be decided`);
      return card;
    },
    {
      validator: (decision) => {
        const rejection = run.cardRejection(decision);
        if (rejection) throw ApplicationFailure.create({ ...rejection, nonRetryable: true });
      },
    },
  );
  return decide;
}

/**
 * On a stop: every card still pending is denied with reason `stopped`, decided by
 * `TaskStop`, through the same settling function a person's decision takes, so each denial is
 * recorded and published like any other. Call it inside a non-cancellable scope.
 */
export function denyPendingOnStop(run: DelegationRun, settle: SettleCard): void {
  for (const card of run.pendingCards()) {
    settle({ cardId: card.id, decision: 'deny', reason: 'stopped', decidedBy: 'TaskStop' }, {});
  }
}

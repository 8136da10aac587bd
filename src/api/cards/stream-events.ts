/**
 * The events of `GET /cards/events` (stream.ts tells what each means), and how a decided card's
 * outcome reads in them. Apart from the step that shapes them (inbox-step.ts): settlements.ts
 * reads outcomes too, and the API contract exports the event types.
 */
import type { ApprovalCard, CardDecisionKind } from '../../shared/delegation.js';

/** How a card that left the pending set was settled (CardOutcomeSchema in cards/schemas.ts). */
export interface CardOutcome {
  decision: CardDecisionKind;
  decidedBy: string | null;
  reason: string | null;
  decidedAt: string;
  /** Settled by its deadline, not by a person. */
  expired?: true;
}

export type CardStreamEvent =
  | { event: 'snapshot'; data: { cards: ApprovalCard[] } }
  | { event: 'card-opened'; data: { card: ApprovalCard } }
  | {
      event: 'card-closed';
      data: { cardId: string; delegationId: string; outcome?: CardOutcome };
    }
  | {
      event: 'card-outcome';
      data: { cardId: string; delegationId: string; outcome: CardOutcome };
    }
  | { event: 'error'; data: { error: 'unavailable' | 'internal'; message: string } };

/** The outcome of a decided card; undefined while it is pending. */
export function outcomeOf(card: ApprovalCard): CardOutcome | undefined {
  const { state } = card;
  if (state.status === 'pending') return undefined;
  return {
    decision: DECISION_OF[state.status],
    decidedBy: state.decidedBy,
    reason: state.reason,
    decidedAt: state.decidedAt,
    ...(state.expired === true ? { expired: true as const } : {}),
  };
}

const DECISION_OF = { approved: 'approve', denied: 'deny', answered: 'answer' } as const;

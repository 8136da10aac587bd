/**
 * The approval cards of one delegation. Sandbox code: deterministic, no I/O.
 */
import type { ApprovalCard, CardDecision } from '../../shared/delegation.js';
import { decisionShapeProblem } from '../../shared/cards/card-decision-shape.js';
import { FAILURE_TYPES } from '../../shared/workflow-contract/failures.js';

export interface CardRejection {
  type: string;
  message: string;
}

/** What an approval recorded besides itself. */
export interface ApprovalExtras {
  editedArguments?: Record<string, unknown>;
  grant?: number;
}

export class CardBook {
  private readonly cards = new Map<string, ApprovalCard>();

  /** Cards carried over from an earlier run (continue-as-new). */
  restore(cards: ApprovalCard[]): void {
    for (const card of cards) this.cards.set(card.id, card);
  }

  open(card: ApprovalCard): void {
    this.cards.set(card.id, card);
  }

  get(cardId: string): ApprovalCard | undefined {
    return this.cards.get(cardId);
  }

  pending(): ApprovalCard[] {
    return [...this.cards.values()].filter((card) => card.state.status === 'pending');
  }

  decided(): ApprovalCard[] {
    return [...this.cards.values()].filter((card) => card.state.status !== 'pending');
  }

  /** Why a decision cannot apply, or null when it can (used by the update validator). */
  rejectionOf(decision: CardDecision): CardRejection | null {
    const card = this.cards.get(decision.cardId);
    if (!card) {
      return { type: FAILURE_TYPES.cardUnknown, message: `unknown card ${decision.cardId}` };
    }
    if (card.state.status !== 'pending') {
      return {
        type: FAILURE_TYPES.cardAlreadyDecided,
        message: `card ${decision.cardId} was already ${card.state.status}`,
      };
    }
    // A decision without the richer fields (answer, allow, arguments) is checked exactly as before.
    const problem = decisionShapeProblem(decision);
    if (problem !== null) return { type: FAILURE_TYPES.cardDecisionInvalid, message: problem };
    return null;
  }

  /**
   * Applies a decision to a pending card; returns the card, or null when it does not apply.
   * `approval`: what an approval recorded besides itself (edited arguments, a grant).
   */
  apply(
    decision: CardDecision,
    decidedAt: string,
    expired = false,
    approval: ApprovalExtras = {},
  ): ApprovalCard | null {
    if (this.rejectionOf(decision) !== null) return null;
    const card = this.cards.get(decision.cardId)!;
    const decidedBy = decision.decidedBy ?? null;
    const id = decision.decisionId === undefined ? {} : { decisionId: decision.decisionId };
    const which = { ...id, ...(expired ? { expired: true as const } : {}) };
    if (decision.decision === 'answer') {
      card.state = {
        status: 'answered',
        answer: decision.answer!,
        reason: null,
        decidedAt,
        decidedBy,
        ...id,
      };
    } else if (decision.decision === 'approve') {
      card.state = {
        status: 'approved',
        reason: decision.reason ?? null,
        decidedAt,
        decidedBy,
        ...which,
        ...approval,
      };
    } else {
      card.state = {
        status: 'denied',
        reason: decision.reason ?? 'denied by a human',
        decidedAt,
        decidedBy,
        ...which,
      };
    }
    return card;
  }
}

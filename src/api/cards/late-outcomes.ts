/**
 * The outcomes of cards the inbox stream closed without one, their delegation slow to answer (a
 * busy worker, a closed run replayed first): the close is not held back for them, and the
 * outcome is not lost either; it follows as `card-outcome` once the delegation tells it. One not
 * known yet is asked for again every LATE_OUTCOME_ASK_MS, and given up after
 * LATE_OUTCOME_GIVE_UP_MS.
 */
import type { ApprovalCard, DelegationState } from '../../shared/delegation.js';
import { LATE_OUTCOME_GIVE_UP_MS, type LearnedOutcome } from './inbox-step.js';

/** How often a delegation whose answer did not include the card decided is asked again. */
const LATE_OUTCOME_ASK_MS = 1_000;

export interface LateOutcomes {
  /** Awaits `card`'s outcome, from `answer`: its delegation's state, asked already. */
  follow(card: ApprovalCard, answer: Promise<DelegationState | null>): void;
  /**
   * The cards decided as their delegations told since the last call (the stream's step turns
   * them into `card-outcome`); asks again for those still unknown.
   */
  due(): LearnedOutcome[];
}

/** A card closed without its outcome, whose delegation's answer is still awaited. */
interface LateOutcome {
  /** As the stream closed it. */
  card: ApprovalCard;
  since: number;
  /** When the delegation was last asked; an answer without the card decided asks again. */
  askedAt: number;
  /** Set when the delegation tells how the card was decided. */
  decided?: ApprovalCard;
}

/** `ask`: a delegation's state (Delegations.get). */
export function createLateOutcomes(
  ask: (delegationId: string) => Promise<DelegationState | null>,
): LateOutcomes {
  const late = new Map<string, LateOutcome>();
  return {
    follow(card, answer) {
      const now = Date.now();
      const entry = { card, since: now, askedAt: now };
      late.set(card.id, entry);
      learnOutcome(entry, answer);
    },
    due() {
      const learned: LearnedOutcome[] = [];
      const now = Date.now();
      for (const [cardId, entry] of late) {
        if (entry.decided === undefined) {
          if (now - entry.since > LATE_OUTCOME_GIVE_UP_MS) {
            late.delete(cardId);
          } else if (now - entry.askedAt >= LATE_OUTCOME_ASK_MS) {
            entry.askedAt = now;
            learnOutcome(entry, ask(entry.card.delegationId));
          }
          continue;
        }
        late.delete(cardId);
        learned.push({ card: entry.card, decided: entry.decided });
      }
      return learned;
    },
  };
}

/**
 * Records the decided card once `answer` includes it. An answer without it (the state read
 * from visibility, which has no decided cards, or read before the worker applied a recorded
 * decision) leaves the entry to be asked again by due().
 */
function learnOutcome(entry: LateOutcome, answer: Promise<DelegationState | null>): void {
  answer.then(
    (state) => (entry.decided = state?.decidedCards.find(({ id }) => id === entry.card.id)),
    () => undefined,
  );
}

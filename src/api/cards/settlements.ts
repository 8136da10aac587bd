/**
 * How the cards that left the inbox's listing were settled, asked of their delegations (one state
 * query each), for the inbox stream's step (inbox-step.ts). A card its live delegation still
 * reports pending stays (the listing missed it: a state query that failed in cards()); a delegation
 * Temporal cannot reach fails the look, to be retried. One that does not answer within
 * OUTCOME_WAIT_MS (a closed run its worker must replay first) is `unanswered`: its card closes
 * without an outcome, so the close is not late, and late-outcomes.ts follows its answer.
 */
import type { ApprovalCard, DelegationState } from '../../shared/delegation.js';
import { isDeputyError } from '../../errors.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import type { Settlement } from './inbox-step.js';
import { outcomeOf } from './stream-events.js';

/**
 * How long a close waits for its outcome, milliseconds (the state query's own bound is 5 s).
 * Short: an outcome that takes longer follows as `card-outcome`, so waiting only delays the
 * close, which a loaded machine pushed past the inbox's second.
 */
const OUTCOME_WAIT_MS = 300;

export interface Settled {
  /** By card id. */
  settlements: Map<string, Settlement>;
  /**
   * Each asked delegation's answer by delegation id, null when it is gone or its state is
   * unreadable; it rejects only when Temporal is unreachable. Still running for `unanswered`.
   */
  answers: Map<string, Promise<DelegationState | null>>;
}

export async function settle(
  delegations: Pick<Delegations, 'get'>,
  gone: ApprovalCard[],
): Promise<Settled> {
  const settlements = new Map<string, Settlement>();
  const answers = new Map<string, Promise<DelegationState | null>>();
  const byDelegation = new Map<string, ApprovalCard[]>();
  for (const card of gone) {
    byDelegation.set(card.delegationId, [...(byDelegation.get(card.delegationId) ?? []), card]);
  }
  await Promise.all(
    [...byDelegation].map(async ([delegationId, cards]) => {
      const answer = delegations.get(delegationId).catch((error: unknown) => {
        if (isDeputyError(error, 'unavailable')) throw error;
        return null; // gone, or its state unreadable: closed, outcome unknown
      });
      answers.set(delegationId, answer);
      const state = await within(OUTCOME_WAIT_MS, answer);
      for (const card of cards) settlements.set(card.id, settlementOf(card, state));
    }),
  );
  return { settlements, answers };
}

function settlementOf(
  card: ApprovalCard,
  state: DelegationState | null | typeof TIMED_OUT,
): Settlement {
  if (state === TIMED_OUT) return { status: 'unanswered' };
  if (state?.result === null && state.pendingCards.some(({ id }) => id === card.id)) {
    return { status: 'pending' };
  }
  const decided = state?.decidedCards.find(({ id }) => id === card.id);
  const outcome = decided === undefined ? undefined : outcomeOf(decided);
  return outcome === undefined ? { status: 'closed' } : { status: 'closed', outcome };
}

const TIMED_OUT = Symbol('timed out');

/** `pending`'s value, or TIMED_OUT when it takes longer than `ms` (it goes on). */
async function within<T>(ms: number, pending: Promise<T>): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  // A rejection after the wait is nobody's to handle; without this it would be unhandled.
  pending.catch(() => undefined);
  try {
    return await Promise.race([pending, late]);
  } finally {
    clearTimeout(timer);
  }
}

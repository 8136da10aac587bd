/**
 * Deciding a card as someone, the one way every door does it: the caller's rights first (who may
 * decide what: src/rights), then the facade's one decision path, recorded as decided by the
 * caller. Each door only turns the outcome, or the DeputyError refusal, into its own answer.
 */
import { assertMayDecide } from '../rights/rights.js';
import type { Caller } from '../shared/caller.js';
import { richDecisionFields } from '../shared/cards/card-decision-shape.js';
import type { PermissionMode } from '../shared/policy-contract.js';
import type { DecideOutcome, Delegations } from '../temporal/delegations/types.js';
import type { DecideCardBody } from './decision-body.js';

export interface DecideAsOptions {
  /** The permission mode the deciding door serves under: nothing is decided beyond it. */
  ceiling?: PermissionMode;
}

export async function decideAs(
  delegations: Delegations,
  caller: Caller,
  cardId: string,
  body: DecideCardBody,
  options: DecideAsOptions = {},
): Promise<DecideOutcome> {
  await assertMayDecide(delegations, caller, cardId);
  return delegations.decide(cardId, {
    decision: body.decision,
    ...(body.reason === undefined ? {} : { reason: body.reason }),
    decidedBy: caller.id,
    ...richDecisionFields(body),
    ...(options.ceiling === undefined ? {} : { ceiling: options.ceiling }),
  });
}

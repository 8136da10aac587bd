/**
 * Approval cards across delegations: listing the pending ones, and deciding one (the decision
 * itself is card-decision.ts). A card lives in its workflow's state, so both go through Temporal
 * (visibility, queries, a signal).
 */
import type { DelegationState } from '../../../shared/delegation.js';
import {
  DELEGATION_ID_ATTRIBUTE,
  PENDING_CARDS_ATTRIBUTE,
} from '../../../shared/workflow-contract/search-attributes.js';
import { createCardDecision, type CardDecisionDeps } from './decision.js';
import { sessionClauses, type DelegationLookup } from '../lookup.js';
import type { Delegations } from '../types.js';

export interface CardDeps {
  lookup: DelegationLookup;
  /** Reads a delegation's state, for the listing. */
  get(delegationId: string): Promise<DelegationState>;
  /** What deciding needs (among it, a state reader with a shorter query bound). */
  decision: CardDecisionDeps;
}

export function createCards(deps: CardDeps): Pick<Delegations, 'cards' | 'decide'> {
  const { lookup, get } = deps;
  return {
    async cards(filter = {}) {
      const clauses = [
        `${PENDING_CARDS_ATTRIBUTE.name} > 0`,
        `ExecutionStatus = 'Running'`,
        ...sessionClauses(filter.session),
      ];
      const delegationIds: string[] = [];
      for (const info of await lookup.visible(clauses.join(' AND '))) {
        const id = info.typedSearchAttributes.get(DELEGATION_ID_ATTRIBUTE);
        if (id !== undefined) {
          lookup.remember(id, info.workflowId);
          delegationIds.push(id);
        }
      }
      const states = await Promise.all(delegationIds.map((id) => get(id).catch(() => null)));
      return states
        .flatMap((state) => state?.pendingCards ?? [])
        .filter((card) => filter.session === undefined || card.session === filter.session)
        .sort((a, b) => a.openedAt.localeCompare(b.openedAt));
    },

    decide: createCardDecision(deps.decision),
  };
}

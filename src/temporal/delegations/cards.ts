/**
 * Approval cards across delegations: listing the pending ones and deciding one. A card lives in
 * its workflow's state, so both go through Temporal (visibility, queries, an update).
 */
import {
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type WorkflowHandle,
} from '@temporalio/client';
import { delegationIdOfCard, type DelegationState } from '../../shared/delegation.js';
import { decideCardUpdate } from '../../shared/messages.js';
import {
  DELEGATION_ID_ATTRIBUTE,
  PENDING_CARDS_ATTRIBUTE,
} from '../../shared/search-attributes.js';
import { DeputyError } from '../../errors.js';
import { describe, sessionClauses, type DelegationLookup } from './lookup.js';
import { mapCardRejection } from './status.js';
import type { Delegations } from './types.js';
import type { LiveWorkerCheck } from './worker-liveness.js';

export interface CardDeps {
  lookup: DelegationLookup;
  hasLiveWorker: LiveWorkerCheck;
  get(delegationId: string): Promise<DelegationState>;
}

export function createCards({
  lookup,
  hasLiveWorker,
  get,
}: CardDeps): Pick<Delegations, 'cards' | 'decide'> {
  return {
    async cards(filter = {}) {
      const clauses = [
        `${PENDING_CARDS_ATTRIBUTE.name} > 0`,
        `ExecutionStatus = 'Running'`,
        ...sessionClauses(filter.session),
      ];
      const delegationIds: string[] = [];
      for await (const info of lookup.visible(clauses.join(' AND '))) {
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

    async decide(cardId, request) {
      const delegationId = delegationIdOfCard(cardId);
      if (delegationId === null) throw unknownCard(cardId);
      let handle: WorkflowHandle;
      try {
        handle = await lookup.handleOf(delegationId);
      } catch (error) {
        if (error instanceof DeputyError && error.kind === 'not-found') throw unknownCard(cardId);
        throw error;
      }
      // An update needs a worker to validate it; without one it would hang until its deadline.
      const description = await describe(delegationId, handle).catch(() => null);
      if (description?.status.name === 'RUNNING' && !(await hasLiveWorker(description.taskQueue))) {
        throw new DeputyError(
          'unavailable',
          `no worker is running for delegation ${delegationId} (task queue ${description.taskQueue}); its cards can be decided once one is`,
        );
      }
      try {
        return await handle.executeUpdate(decideCardUpdate, {
          args: [
            {
              cardId,
              decision: request.decision,
              ...(request.reason === undefined ? {} : { reason: request.reason }),
              ...(request.decidedBy == null ? {} : { decidedBy: request.decidedBy }),
            },
          ],
        });
      } catch (error) {
        if (error instanceof WorkflowUpdateFailedError) {
          const mapped = mapCardRejection(cardId, error.cause);
          throw new DeputyError(mapped.kind, mapped.message);
        }
        if (error instanceof WorkflowNotFoundError) {
          // The delegation has closed; its cards were settled. Say which, from its final state.
          const state = await get(delegationId).catch(() => null);
          const decided = state?.decidedCards.find((card) => card.id === cardId);
          if (decided !== undefined) {
            throw new DeputyError(
              'conflict',
              `card ${cardId} was already ${decided.state.status} (delegation ${state?.status})`,
            );
          }
          throw unknownCard(cardId);
        }
        throw error;
      }
    },
  };
}

function unknownCard(cardId: string): DeputyError {
  return new DeputyError('not-found', `no approval card with id '${cardId.slice(0, 80)}'`);
}

/**
 * Revoking a grant: the `revokeGrant` update, answered by the delegation itself (its
 * validator refuses an unknown or already revoked grant). An update needs a worker, so with
 * none polling it is refused at once as `unavailable` rather than left waiting.
 */
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { DeputyError } from '../../errors.js';
import { revokeGrantUpdate } from '../../shared/cards/grant-messages.js';
import { TemporalUnreachableError } from '../unreachable.js';
import { describe, type DelegationLookup } from './lookup.js';
import { rpc } from '../calls/rpc.js';
import { executeUpdateUntilSeen } from '../calls/update-until-seen.js';
import type { Delegations } from './types.js';
import type { LiveWorkerCheck } from '../calls/worker-liveness.js';

export interface RevokeGrantDeps {
  client: Client;
  lookup: DelegationLookup;
  hasLiveWorker: LiveWorkerCheck;
  waitMs: number;
}

export function createRevokeGrant(deps: RevokeGrantDeps): Delegations['revokeGrant'] {
  return async function revokeGrant(delegationId, n, revokedBy) {
    const handle = await deps.lookup.handleOf(delegationId);
    const description = await describe(delegationId, handle);
    if (description.status.name !== 'RUNNING') {
      throw new DeputyError(
        'conflict',
        `delegation ${delegationId} has finished: its grants ended with it`,
      );
    }
    if (!(await deps.hasLiveWorker(description.taskQueue))) {
      throw new DeputyError(
        'unavailable',
        `no worker is running for delegation ${delegationId} (task queue ${description.taskQueue}); revoke grant ${n} once a worker runs`,
      );
    }
    try {
      return await rpc(
        deps.client,
        () => executeUpdateUntilSeen(handle, revokeGrantUpdate, { args: [{ n, revokedBy }] }),
        deps.waitMs,
      );
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) {
        throw new DeputyError('conflict', `delegation ${delegationId} has finished`);
      }
      if (error instanceof WorkflowUpdateFailedError) {
        const cause = error.cause as { message?: string } | undefined;
        throw new DeputyError('not-found', cause?.message ?? `no grant ${n} to revoke`);
      }
      if (error instanceof TemporalUnreachableError) {
        throw new DeputyError(
          'unavailable',
          `delegation ${delegationId} did not answer within ${deps.waitMs / 1000} s; try again`,
          { cause: error },
        );
      }
      throw error;
    }
  };
}

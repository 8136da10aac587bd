/**
 * Stopping a delegation or a session: a cancel request, so the workflow ends its own
 * way (its pending cards denied, its children stopped). Stopping one that already finished,
 * even between the look and the cancel, is a clear no-op answer, not an error.
 */
import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import { describe, type DelegationLookup } from './lookup.js';
import { idempotentRpc } from '../calls/rpc.js';
import type { Delegations } from './types.js';
import { statusOf } from './visibility.js';

export function createStop(client: Client, lookup: DelegationLookup): Delegations['stop'] {
  return async function stop(delegationId) {
    const handle = await lookup.handleOf(delegationId);
    const before = await describe(delegationId, handle);
    if (before.status.name !== 'RUNNING') {
      return { alreadyFinished: true, status: statusOf(before) };
    }
    try {
      await idempotentRpc(client, () => handle.cancel());
      return { stopped: true };
    } catch (error) {
      // It closed between describe() and cancel().
      if (!(error instanceof WorkflowNotFoundError)) throw error;
      return { alreadyFinished: true, status: statusOf(await describe(delegationId, handle)) };
    }
  };
}

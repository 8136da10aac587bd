/**
 * Finding a session's workflow. Sessions and delegations share one id space and one lookup
 * (lookup.ts), so an id that names a delegation must not pass for a session: only a workflow
 * id of the session's own form does.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { DeputyError } from '../../errors.js';
import { sessionWorkflowId } from '../../shared/session.js';
import type { DelegationLookup } from '../delegations/lookup.js';

/** The session's handle; `not-found` for an unknown id or one that names a delegation. */
export type SessionHandleOf = (sessionId: string) => Promise<WorkflowHandle>;

export function createSessionHandleOf(client: Client, lookup: DelegationLookup): SessionHandleOf {
  return async function handleOf(sessionId) {
    const notFound = new DeputyError('not-found', `no session with id '${sessionId.slice(0, 80)}'`);
    let workflowId: string;
    try {
      workflowId = await lookup.find(sessionId);
    } catch (error) {
      if (error instanceof DeputyError && error.kind === 'not-found') throw notFound;
      throw error;
    }
    if (workflowId !== sessionWorkflowId(sessionId)) throw notFound;
    return client.workflow.getHandle(workflowId);
  };
}

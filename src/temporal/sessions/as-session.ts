/**
 * A session is read through the Delegations facade (same state query, same visibility row,
 * under its session id); these turn those answers into the session's own shapes.
 */
import type { SessionState } from '../../shared/session.js';
import type { DelegationDetail, DelegationSummary } from '../delegations/types.js';
import type { SessionSummary, Sessions } from './types.js';

type SessionDetail = Awaited<ReturnType<Sessions['get']>>;

/**
 * The detail as a session's. Without a worker the state is rebuilt from visibility, which knows
 * no tasks and no queued messages: none, then.
 */
export function sessionDetailOf(state: DelegationDetail): SessionDetail {
  const session = state as Partial<SessionState>;
  return {
    ...state,
    kind: 'session',
    tasks: session.tasks ?? [],
    queuedMessages: session.queuedMessages ?? 0,
  };
}

/** A listing row as a session's: its delegation id is the session id, its task the first line. */
export function sessionSummaryOf(row: DelegationSummary): SessionSummary {
  return {
    sessionId: row.delegationId,
    workflowId: row.workflowId,
    agent: row.agent,
    status: row.status,
    pendingCards: row.pendingCards,
    firstMessage: row.task,
    startedAt: row.startedAt,
    closedAt: row.closedAt,
  };
}

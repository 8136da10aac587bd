/**
 * Sessions over the Temporal client. A session workflow answers the same state, events
 * and card messages as a delegation, under its session id, so reading, stopping and deciding go
 * through the Delegations facade; this module adds starting (start.ts), messaging (send.ts) and
 * listing sessions, each call first making sure the id names a session (handle.ts). Like that
 * facade, it keeps nothing in this process's memory but a cache of ids.
 */
import type { Client } from '@temporalio/client';
import { TASK_QUEUE } from '../../shared/delegation.js';
import type { Delegations } from '../delegations/facade.js';
import { listSummaries } from '../delegations/listing.js';
import { sessionDetailOf, sessionSummaryOf } from './as-session.js';
import { createSessionHandleOf } from './handle.js';
import { createSend } from './send.js';
import { createStartSession } from './start.js';
import { SESSION_WORKFLOW_TYPE, type Sessions } from './types.js';

export * from './types.js';

export interface SessionsOptions {
  /** Task queue sessions (and so their children) run on. Default TASK_QUEUE. */
  taskQueue?: string;
  /**
   * The workspace's tool queue: the session's and its children's model calls, tools
   * and hooks run on it. Recorded in the input and memo. Default null: all on `taskQueue`.
   */
  toolQueue?: string | null;
}

export function createSessions(
  client: Client,
  delegations: Delegations,
  options: SessionsOptions = {},
): Sessions {
  const { lookup } = delegations;
  const handleOf = createSessionHandleOf(client, lookup);
  const queues = {
    taskQueue: options.taskQueue ?? TASK_QUEUE,
    toolQueue: options.toolQueue ?? null,
  };

  return {
    start: createStartSession({ client, lookup, queues }),
    send: createSend(handleOf),

    async get(sessionId) {
      await handleOf(sessionId);
      return sessionDetailOf(await delegations.get(sessionId));
    },

    async list(filter = {}) {
      const rows = await listSummaries(lookup, SESSION_WORKFLOW_TYPE, [], filter);
      return rows.map(sessionSummaryOf);
    },

    // Read, stopped and followed as the delegation it also is, once it is known to be a session.
    async stop(sessionId) {
      await handleOf(sessionId);
      return delegations.stop(sessionId);
    },

    async owner(sessionId) {
      await handleOf(sessionId);
      return delegations.owner(sessionId);
    },

    async events(sessionId, afterSeq) {
      await handleOf(sessionId);
      return delegations.events(sessionId, afterSeq);
    },

    async cards(sessionId) {
      await handleOf(sessionId);
      return delegations.cards({ session: sessionId });
    },
  };
}

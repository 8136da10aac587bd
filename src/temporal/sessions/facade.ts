/**
 * Sessions over the Temporal client (RUN-7). A session workflow answers the same state, events
 * and card messages as a delegation, under its session id, so reading, stopping and deciding go
 * through the Delegations facade; this module adds starting, messaging and listing sessions.
 * Like that facade, it keeps nothing in this process's memory but a cache of ids.
 */
import { randomUUID } from 'node:crypto';
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  type Client,
} from '@temporalio/client';
import { DeputyError } from '../../errors.js';
import { sessionMessageSignal } from '../../shared/messages.js';
import { AGENT_ATTRIBUTE, initialSearchAttributes } from '../../shared/search-attributes.js';
import {
  MAIN_AGENT,
  sessionWorkflowId,
  type SessionInput,
  type SessionMessage,
  type SessionState,
} from '../../shared/session.js';
import { TASK_QUEUE, firstLine } from '../../shared/delegation.js';
import { TOOL_QUEUE_MEMO, type ToolQueueInput } from '../../shared/tool-queue.js';
import type { Delegations } from '../delegations/facade.js';
import {
  AGENT_NAME_PATTERN,
  DEFAULT_SESSION,
  assertValidId,
  newSessionId,
  quote,
} from '../delegations/ids.js';
import { describe } from '../delegations/lookup.js';
import { signalOnce } from '../delegations/signal-once.js';
import { startWorkflowOnce } from '../delegations/start.js';
import { summaryOf } from '../delegations/visibility.js';
import { SESSION_WORKFLOW_TYPE, type SessionSummary, type Sessions } from './types.js';

export * from './types.js';

export interface SessionsOptions {
  /** Task queue sessions (and so their children) run on. Default TASK_QUEUE. */
  taskQueue?: string;
  /**
   * The workspace's tool queue (issue 16): the session's and its children's model calls, tools
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
  const taskQueue = options.taskQueue ?? TASK_QUEUE;
  const toolQueue = options.toolQueue ?? null;

  /** The session's handle; `not-found` for an unknown id or one that names a delegation. */
  async function handleOf(sessionId: string) {
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
  }

  return {
    async start(request) {
      const sessionId = request.sessionId ?? newSessionId();
      const agent = request.agent ?? MAIN_AGENT;
      assertValidId('session', sessionId);
      if (sessionId === DEFAULT_SESSION) {
        // Delegations started without a session share it: a session there would adopt them all.
        throw new DeputyError(
          'invalid',
          `session id '${DEFAULT_SESSION}' is reserved for delegations started without a session`,
        );
      }
      if (!AGENT_NAME_PATTERN.test(agent)) {
        throw new DeputyError('invalid', `agent name '${agent.slice(0, 80)}' is not valid`);
      }
      if (request.message !== undefined && request.message.trim() === '') {
        throw new DeputyError('invalid', 'message is empty');
      }
      if (request.sessionId !== undefined && (await lookup.taken(sessionId))) {
        throw new DeputyError(
          'conflict',
          `id ${sessionId} is already taken by a delegation or session`,
        );
      }
      const workflowId = sessionWorkflowId(sessionId);
      const input: SessionInput & ToolQueueInput = {
        sessionId,
        agent,
        caller: request.caller,
        options: request.options,
        ...(request.message === undefined ? {} : { message: request.message }),
        ...(toolQueue === null ? {} : { toolQueue }),
      };
      try {
        await startWorkflowOnce(
          client,
          SESSION_WORKFLOW_TYPE,
          {
            taskQueue,
            workflowId,
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
            args: [input],
            // The session is its own delegation id: its cards, state and events are found so.
            typedSearchAttributes: initialSearchAttributes({
              agent,
              session: sessionId,
              delegationId: sessionId,
            }),
            memo: {
              kind: 'session',
              task: request.message === undefined ? '(session)' : firstLine(request.message),
              ...(request.caller.id === null ? {} : { startedBy: request.caller.id }),
              ...(toolQueue === null ? {} : { [TOOL_QUEUE_MEMO]: toolQueue }),
            },
            staticSummary: `session of ${agent}`,
          },
          {
            what: `session ${sessionId}`,
            lookUp: `GET /sessions/${sessionId}, deputy session show ${sessionId}`,
          },
        );
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) {
          throw new DeputyError('conflict', `session ${sessionId} already exists`);
        }
        throw error;
      }
      lookup.remember(sessionId, workflowId);
      return { sessionId, workflowId, agent };
    },

    async send(sessionId, message) {
      if (message.text.trim() === '') throw new DeputyError('invalid', 'message is empty');
      const handle = await handleOf(sessionId);
      const description = await describe(sessionId, handle);
      if (description.status.name !== 'RUNNING') {
        throw new DeputyError(
          'conflict',
          `session ${sessionId} has ended (${description.status.name.toLowerCase()}); start a new one`,
        );
      }
      // A signal is stored durably: the message is taken up when a worker runs the session.
      const sent: SessionMessage = { ...message, messageId: randomUUID() };
      try {
        await signalOnce(handle, description.runId, sessionMessageSignal, sent, (stored) =>
          isSameMessage(stored, sent),
        );
      } catch (error) {
        // It closed between describe() and the signal.
        if (error instanceof WorkflowNotFoundError) {
          throw new DeputyError('conflict', `session ${sessionId} has ended; start a new one`);
        }
        throw error;
      }
    },

    async get(sessionId) {
      await handleOf(sessionId);
      const state = await delegations.get(sessionId);
      // Without a worker the state is rebuilt from visibility, which knows no tasks.
      const session = state as Partial<SessionState>;
      return {
        ...state,
        kind: 'session',
        tasks: session.tasks ?? [],
        queuedMessages: session.queuedMessages ?? 0,
      };
    },

    async list(filter = {}) {
      const clauses = [`WorkflowType = ${quote(SESSION_WORKFLOW_TYPE)}`];
      if (filter.agent !== undefined)
        clauses.push(`${AGENT_ATTRIBUTE.name} = ${quote(filter.agent)}`);
      const rows: SessionSummary[] = [];
      for (const info of await lookup.visible(clauses.join(' AND '))) {
        const row = summaryOf(info);
        if (filter.status !== undefined && row.status !== filter.status) continue;
        rows.push({
          sessionId: row.delegationId,
          workflowId: row.workflowId,
          agent: row.agent,
          status: row.status,
          pendingCards: row.pendingCards,
          firstMessage: row.task,
          startedAt: row.startedAt,
          closedAt: row.closedAt,
        });
      }
      return rows.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
    },

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

function isSameMessage(stored: unknown, sent: SessionMessage): boolean {
  return (stored as SessionMessage | null)?.messageId === sent.messageId;
}

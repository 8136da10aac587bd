/**
 * The one way the API and the CLI talk to delegations: a small facade over the Temporal client.
 * Everything it answers is read from Temporal (queries, signals, visibility), never from this
 * process's memory, so any number of API servers and CLIs can share one cluster (DESIGN §5).
 * This module starts, lists, stops and follows delegations; reading state, deciding cards and
 * waiting for a delegation live in state.ts, cards.ts (card-decision.ts) and settle.ts.
 *
 * Nothing here waits on Temporal unbounded: calls the server answers itself are bounded by
 * rpc.ts (Temporal down: `unavailable` within RPC_TIMEOUT_MS), queries by `queryTimeoutMs`, and a
 * card decision by `decisionWaitMs` (then it is `recorded`, stored durably as a signal).
 */
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowNotFoundError,
  type Client,
} from '@temporalio/client';
import { TASK_QUEUE, delegationWorkflowId } from '../../shared/delegation.js';
import { eventsQuery } from '../../shared/messages.js';
import { AGENT_ATTRIBUTE, initialSearchAttributes } from '../../shared/search-attributes.js';
import { DeputyError } from '../../errors.js';
import { createCards } from './cards.js';
import { AGENT_NAME_PATTERN, assertValidId, newDelegationId, quote } from './ids.js';
import { transcriptBeforeRound } from './fork-transcript.js';
import { createDelegationLookup, describe, orNotFound, sessionClauses } from './lookup.js';
import { idempotentRpc, rpc } from './rpc.js';
import { startWorkflowOnce } from './start.js';
import { createSettle } from './settle.js';
import { createStateReader, createWorkflowStateReader } from './state.js';
import { firstLine, memoStartedBy, statusOf, summaryOf } from './visibility.js';
import { DELEGATION_WORKFLOW_TYPE, type DelegationSummary, type Delegations } from './types.js';
import { createLiveWorkerCheck } from './worker-liveness.js';
import { parseDuration } from '../../shared/duration.js';
import { TOOL_QUEUE_MEMO } from '../../shared/tool-queue.js';

export * from './types.js';

export interface DelegationsOptions {
  /** Namespace the client is bound to (used for task-queue lookups). */
  namespace: string;
  /** Task queue delegations are started on. Default TASK_QUEUE (tests use their own). */
  taskQueue?: string;
  /**
   * The workspace's tool queue (issue 16, `toolQueueOf(config.temporal)`): delegations started
   * here run their model calls, tools and hooks on it, on a worker that has the workspace.
   * Recorded in their input and memo. Default null: everything on `taskQueue`, as before.
   */
  toolQueue?: string | null;
  /**
   * How long a query may take before `get` falls back to describe() (a query needs a worker;
   * with none polling, or one that just died, it would hang). Milliseconds, default 5 000.
   */
  queryTimeoutMs?: number;
  /**
   * How long `decide` waits for a polling worker to apply a decision before it answers
   * `recorded` (the decision is stored and applies later). Milliseconds, default 3 000.
   */
  decisionWaitMs?: number;
  /** Milliseconds between looks while `decide` or `settle` wait. Default 150 and 300. */
  pollMs?: { decide?: number; settle?: number };
}

export function createDelegations(client: Client, options: DelegationsOptions): Delegations {
  const queryTimeoutMs = options.queryTimeoutMs ?? 5_000;
  const decisionWaitMs = options.decisionWaitMs ?? 3_000;
  const taskQueue = options.taskQueue ?? TASK_QUEUE;
  const toolQueue = options.toolQueue ?? null;
  const lookup = createDelegationLookup(client);
  const hasLiveWorker = createLiveWorkerCheck(client, options.namespace);
  const get = createStateReader({ client, lookup, hasLiveWorker, queryTimeoutMs });
  // A decision answers within seconds, so the state it reads must not wait longer than that;
  // and it must know the workflow's own answer from visibility's, which has no decided cards.
  const getForDecision = createWorkflowStateReader({
    client,
    lookup,
    hasLiveWorker,
    queryTimeoutMs: Math.min(queryTimeoutMs, decisionWaitMs),
  });

  const delegations: Delegations = {
    async start(request) {
      const delegationId = request.delegationId ?? newDelegationId();
      assertValidId('delegation id', delegationId);
      assertValidId('session', request.session);
      if (!AGENT_NAME_PATTERN.test(request.agent)) {
        throw new DeputyError('invalid', `agent name '${request.agent.slice(0, 80)}' is not valid`);
      }
      if (request.task.trim() === '') throw new DeputyError('invalid', 'task is empty');
      if (request.options.cardTimeout !== undefined) {
        const parsed = parseDuration(request.options.cardTimeout);
        if (!parsed.ok) throw new DeputyError('invalid', `cardTimeout: ${parsed.problem}`);
      }
      const budget = request.options.maxTokens;
      if (budget !== undefined && !(Number.isSafeInteger(budget) && budget > 0)) {
        throw new DeputyError('invalid', `maxTokens must be a positive integer, not ${budget}`);
      }
      if (request.delegationId !== undefined && (await lookup.taken(delegationId))) {
        throw new DeputyError(
          'conflict',
          `id ${delegationId} is already taken by a delegation or session`,
        );
      }
      const workflowId = delegationWorkflowId(request.session, delegationId);
      try {
        await startWorkflowOnce(
          client,
          DELEGATION_WORKFLOW_TYPE,
          {
            taskQueue,
            workflowId,
            // An id names one delegation forever: never reuse it after the first one closed.
            workflowIdReusePolicy: 'REJECT_DUPLICATE',
            args: [
              {
                delegationId,
                agent: request.agent,
                task: request.task,
                session: request.session,
                caller: request.caller,
                options: request.options,
                ...(request.model === undefined ? {} : { model: request.model }),
                ...(request.fork === undefined ? {} : { fork: request.fork }),
                ...(toolQueue === null ? {} : { toolQueue }),
              },
            ],
            typedSearchAttributes: initialSearchAttributes({
              agent: request.agent,
              session: request.session,
              delegationId,
              ...(request.fork === undefined ? {} : { forkedFrom: request.fork.delegationId }),
            }),
            // startedBy: who may stop it and decide its cards besides an admin (src/api/http/rights.ts).
            memo: {
              task: firstLine(request.task),
              ...(request.caller.id === null ? {} : { startedBy: request.caller.id }),
              // Read back without a worker: the detail's `toolQueue`, and settle's liveness.
              ...(toolQueue === null ? {} : { [TOOL_QUEUE_MEMO]: toolQueue }),
              ...(request.fork === undefined
                ? {}
                : {
                    forkedFrom: {
                      delegationId: request.fork.delegationId,
                      workflowId: request.fork.workflowId,
                      fromRound: request.fork.fromRound,
                    },
                  }),
            },
          },
          {
            what: `delegation ${delegationId}`,
            lookUp: `GET /delegations/${delegationId}, deputy status ${delegationId}`,
          },
        );
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) {
          throw new DeputyError('conflict', `delegation ${delegationId} already exists`);
        }
        throw error;
      }
      lookup.remember(delegationId, workflowId);
      return { delegationId, workflowId, session: request.session, agent: request.agent };
    },

    async fork(delegationId, request) {
      const { fromRound } = request;
      if (!Number.isSafeInteger(fromRound) || fromRound < 1) {
        throw new DeputyError(
          'invalid',
          `fromRound must be a whole number of 1 or more, not ${fromRound}`,
        );
      }
      const original = await get(delegationId);
      if (!original.workflowId.startsWith(delegationWorkflowId(original.session, ''))) {
        throw new DeputyError(
          'invalid',
          `${delegationId} is not a delegation: only delegations can be forked`,
        );
      }
      const transcript = await idempotentRpc(client, () =>
        transcriptBeforeRound(client, original.workflowId, fromRound + 1),
      );
      if (transcript === null) {
        throw new DeputyError(
          'invalid',
          `delegation ${delegationId} has no round after round ${fromRound} to redo (it has run ${original.roundsUsed}): fork from an earlier round`,
        );
      }
      const task = transcript.find((entry) => entry.role === 'user')?.content ?? '';
      return delegations.start({
        agent: request.agent ?? original.agent,
        task,
        session: request.session ?? original.session,
        caller: request.caller,
        options: request.options ?? {},
        ...(request.delegationId === undefined ? {} : { delegationId: request.delegationId }),
        ...(request.model === undefined ? {} : { model: request.model }),
        fork: { delegationId, workflowId: original.workflowId, fromRound, transcript },
      });
    },

    lookup,
    find: lookup.find,
    get,

    async owner(delegationId) {
      const handle = await lookup.handleOf(delegationId);
      return memoStartedBy((await describe(delegationId, handle)).memo);
    },

    async list(filter = {}) {
      const clauses = [
        `WorkflowType = ${quote(DELEGATION_WORKFLOW_TYPE)}`,
        ...sessionClauses(filter.session),
      ];
      if (filter.agent !== undefined) {
        clauses.push(`${AGENT_ATTRIBUTE.name} = ${quote(filter.agent)}`);
      }
      const rows: DelegationSummary[] = [];
      for (const info of await lookup.visible(clauses.join(' AND '))) {
        const row = summaryOf(info);
        // Status is filtered here, not in the query: a terminated workflow never updated its
        // DeputyStatus, so only the combination with the execution status is the truth.
        if (filter.status === undefined || row.status === filter.status) rows.push(row);
      }
      return rows.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
    },

    async stop(delegationId) {
      const handle = await lookup.handleOf(delegationId);
      const before = await describe(delegationId, handle);
      if (before.status.name !== 'RUNNING') {
        return { alreadyFinished: true, status: statusOf(before) };
      }
      try {
        await idempotentRpc(client, () => handle.cancel());
        return { stopped: true };
      } catch (error) {
        // It closed between describe() and cancel(): still a clear no-op answer (RUN-5).
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        return { alreadyFinished: true, status: statusOf(await describe(delegationId, handle)) };
      }
    },

    ...createCards({
      lookup,
      get,
      decision: {
        lookup,
        hasLiveWorker,
        get: getForDecision,
        decisionWaitMs,
        pollMs: options.pollMs?.decide ?? 150,
      },
    }),

    async events(delegationId, afterSeq) {
      const handle = await lookup.handleOf(delegationId);
      const description = await describe(delegationId, handle);
      if (!(await hasLiveWorker(description.taskQueue))) {
        throw new Error(`no worker is polling task queue ${description.taskQueue}`);
      }
      return orNotFound(
        delegationId,
        client.withDeadline(Date.now() + queryTimeoutMs, () => handle.query(eventsQuery, afterSeq)),
      );
    },

    settle: createSettle({ lookup, hasLiveWorker, get, pollMs: options.pollMs?.settle ?? 300 }),

    async ping() {
      await rpc(client, () => client.workflowService.getSystemInfo({}));
    },
  };
  return delegations;
}

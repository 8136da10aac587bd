/**
 * The one way the API and the CLI talk to delegations: a small facade over the Temporal client.
 * Everything it answers is read from Temporal (queries, signals, visibility), never from this
 * process's memory, so any number of API servers and CLIs can share one cluster.
 * This module wires the helpers beside it, one idea each: starting (start-delegation.ts, forking
 * in fork.ts), finding (lookup.ts), reading state (state.ts), listing (listing.ts), stopping
 * (stop.ts), cards (cards.ts, card-decision.ts), events (events.ts) and waiting (settle.ts).
 *
 * Nothing here waits on Temporal unbounded: calls the server answers itself are bounded by
 * rpc.ts (Temporal down: `unavailable` within RPC_TIMEOUT_MS), queries by `queryTimeoutMs`, and a
 * card decision by `decisionWaitMs` (then it is `recorded`, stored durably as a signal).
 */
import type { Client } from '@temporalio/client';
import type { SecretMasker } from '../../secrets/masker.js';
import { TASK_QUEUE } from '../../shared/delegation.js';
import { createCards } from './cards/cards.js';
import { createEvents } from './events.js';
import { createFork } from './fork.js';
import { createResume } from './resume.js';
import { createSendMessage } from './send-message.js';
import { listSummaries } from './listing.js';
import { scheduleClauses } from '../schedules/names.js';
import { createDelegationLookup, describe, sessionClauses } from './lookup.js';
import { rpc } from '../calls/rpc.js';
import { createSettle } from './cards/settle.js';
import { createStartDelegation } from './start-delegation.js';
import { createStateReader, createWorkflowStateReader } from './state.js';
import { createStop } from './stop.js';
import { createRevokeGrant } from './revoke-grant.js';
import { DELEGATION_WORKFLOW_TYPE, type Delegations } from './types.js';
import { memoStartedBy } from './visibility.js';
import { createLiveWorkerCheck } from '../calls/worker-liveness.js';

export * from './types.js';

/** Default of DelegationsOptions.messageWaitMs. */
const MESSAGE_WAIT_MS = 10_000;

export interface DelegationsOptions {
  /** Namespace the client is bound to (used for task-queue lookups). */
  namespace: string;
  /** Task queue delegations are started on. Default TASK_QUEUE (tests use their own). */
  taskQueue?: string;
  /**
   * The workspace's tool queue (`toolQueueOf(config.temporal)`): delegations started
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
  /**
   * How long `send` waits for a polling worker to take a message before it answers
   * `unavailable`. Milliseconds, default 10 000.
   */
  messageWaitMs?: number;
  /** Milliseconds between looks while `decide` or `settle` wait. Default 150 and 300. */
  pollMs?: { decide?: number; settle?: number };
  /**
   * Masks what a person writes into a decision (a deny reason, an answer, edited arguments)
   * before it reaches the run's history and its model. facadesFor always gives one; absent
   * (tests that build the facade themselves): sent as written.
   */
  secrets?: SecretMasker;
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

  const start = createStartDelegation({ client, lookup, queues: { taskQueue, toolQueue } });
  return {
    start,
    fork: createFork({ client, get, start }),
    resume: createResume({ client, get, start }),
    send: createSendMessage({
      client,
      lookup,
      hasLiveWorker,
      waitMs: options.messageWaitMs ?? MESSAGE_WAIT_MS,
    }),
    lookup,
    find: lookup.find,
    get,

    async owner(delegationId) {
      const handle = await lookup.handleOf(delegationId);
      return memoStartedBy((await describe(delegationId, handle)).memo);
    },

    async list(filter = {}) {
      return listSummaries(
        lookup,
        DELEGATION_WORKFLOW_TYPE,
        [...sessionClauses(filter.session), ...scheduleClauses(filter.schedule)],
        filter,
      );
    },

    stop: createStop(client, lookup),
    revokeGrant: createRevokeGrant({ client, lookup, hasLiveWorker, waitMs: decisionWaitMs }),

    ...createCards({
      lookup,
      get,
      decision: {
        lookup,
        hasLiveWorker,
        get: getForDecision,
        decisionWaitMs,
        pollMs: options.pollMs?.decide ?? 150,
        ...(options.secrets === undefined ? {} : { secrets: options.secrets }),
      },
    }),

    events: createEvents({ client, lookup, hasLiveWorker, queryTimeoutMs }),
    settle: createSettle({ lookup, hasLiveWorker, get, pollMs: options.pollMs?.settle ?? 300 }),

    async ping() {
      await rpc(client, () => client.workflowService.getSystemInfo({}));
    },
  };
}

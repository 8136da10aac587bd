/**
 * The one way the API and the CLI talk to delegations: a small facade over the Temporal client.
 * Everything it answers is read from Temporal (queries, updates, visibility), never from this
 * process's memory, so any number of API servers and CLIs can share one cluster (DESIGN §5).
 */
import {
  WorkflowExecutionAlreadyStartedError,
  WorkflowFailedError,
  WorkflowNotFoundError,
  WorkflowUpdateFailedError,
  type Client,
  type WorkflowExecutionDescription,
  type WorkflowExecutionInfo,
  type WorkflowHandle,
} from '@temporalio/client';
import {
  TASK_QUEUE,
  delegationIdOfCard,
  delegationWorkflowId,
  type DelegationResult,
  type DelegationState,
  type DelegationStatus,
} from '../shared/delegation.js';
import { decideCardUpdate, eventsQuery, stateQuery } from '../shared/messages.js';
import {
  AGENT_ATTRIBUTE,
  DELEGATION_ID_ATTRIBUTE,
  PENDING_CARDS_ATTRIBUTE,
  SESSION_ATTRIBUTE,
  STATUS_ATTRIBUTE,
} from '../shared/search-attributes.js';
import { DeputyError } from '../errors.js';
import {
  AGENT_NAME_PATTERN,
  assertValidId,
  isValidId,
  newDelegationId,
  quote,
} from './delegation-ids.js';
import { effectiveStatus, failureMessage, mapCardRejection } from './delegation-status.js';
import { firstLine, memoCards, statusOf, summaryOf } from './delegation-visibility.js';
import {
  DELEGATION_WORKFLOW_TYPE,
  type DelegationSummary,
  type Delegations,
} from './delegation-types.js';

export * from './delegation-types.js';

export interface DelegationsOptions {
  /** Namespace the client is bound to (used for task-queue lookups). */
  namespace: string;
  /** Task queue delegations are started on. Default TASK_QUEUE (tests use their own). */
  taskQueue?: string;
  /**
   * How long a query may take before `get` falls back to describe() (a query needs a worker;
   * with none polling it would hang). Milliseconds, default 10 000.
   */
  queryTimeoutMs?: number;
}

/** Visibility is eventually consistent: a just-started workflow may take a moment to be listed. */
const FIND_RETRY_DELAYS_MS = [100, 200, 400];
/** Bound on the in-process id -> workflow id cache; visibility answers the rest. */
const KNOWN_CACHE_LIMIT = 1000;
const LIST_LIMIT = 500;
/**
 * A poller is live if it polled this recently. Long polls last up to a minute, so a healthy
 * worker can look a minute old; the server remembers dead pollers for minutes.
 */
const LIVE_POLLER_MS = 90_000;
/** How long one answer about a task queue's pollers is reused (event streams poll often). */
const POLLER_CACHE_MS = 2_000;

export function createDelegations(client: Client, options: DelegationsOptions): Delegations {
  const queryTimeoutMs = options.queryTimeoutMs ?? 10_000;
  const taskQueue = options.taskQueue ?? TASK_QUEUE;
  // Delegations started by this process, so a GET right after POST does not race visibility.
  const known = new Map<string, string>();

  function remember(delegationId: string, workflowId: string): void {
    if (known.size >= KNOWN_CACHE_LIMIT) {
      const oldest = known.keys().next().value;
      if (oldest !== undefined) known.delete(oldest);
    }
    known.set(delegationId, workflowId);
  }

  async function* visible(query: string): AsyncGenerator<WorkflowExecutionInfo> {
    let count = 0;
    for await (const info of client.workflow.list({ query })) {
      // A continued-as-new run shares its workflow id with the live run; list the live one.
      if (info.status.name === 'CONTINUED_AS_NEW') continue;
      yield info;
      if (++count >= LIST_LIMIT) return;
    }
  }

  async function find(delegationId: string): Promise<string> {
    const cached = known.get(delegationId);
    if (cached !== undefined) return cached;
    if (!isValidId(delegationId)) throw notFound(delegationId);
    const query = `${DELEGATION_ID_ATTRIBUTE.name} = ${quote(delegationId)}`;
    for (let attempt = 0; ; attempt++) {
      for await (const info of client.workflow.list({ query })) {
        remember(delegationId, info.workflowId);
        return info.workflowId;
      }
      const delay = FIND_RETRY_DELAYS_MS[attempt];
      if (delay === undefined) throw notFound(delegationId);
      await sleep(delay);
    }
  }

  const pollerCache = new Map<string, { at: number; live: boolean }>();

  /**
   * A query needs a worker: with none polling, it hangs until its deadline. Asking the task
   * queue first turns "no worker" into an immediate fallback instead of a 10 s wait.
   */
  async function hasLiveWorker(queue: string): Promise<boolean> {
    const cached = pollerCache.get(queue);
    if (cached && Date.now() - cached.at < POLLER_CACHE_MS) return cached.live;
    let live = true;
    try {
      const response = await client.workflowService.describeTaskQueue({
        namespace: options.namespace,
        taskQueue: { name: queue },
      });
      const now = Date.now();
      live = (response.pollers ?? []).some((poller) => {
        const seconds = Number(poller.lastAccessTime?.seconds?.toString() ?? 0);
        return now - seconds * 1000 < LIVE_POLLER_MS;
      });
    } catch {
      // Cannot tell: let the query try (it is bounded by its deadline anyway).
    }
    pollerCache.set(queue, { at: Date.now(), live });
    return live;
  }

  async function handleOf(delegationId: string): Promise<WorkflowHandle> {
    return client.workflow.getHandle(await find(delegationId));
  }

  async function describe(delegationId: string, handle: WorkflowHandle) {
    try {
      return await handle.describe();
    } catch (error) {
      if (error instanceof WorkflowNotFoundError) throw notFound(delegationId);
      throw error;
    }
  }

  async function get(delegationId: string): Promise<DelegationState> {
    const handle = await handleOf(delegationId);
    const description = await describe(delegationId, handle);
    if (await hasLiveWorker(description.taskQueue)) {
      try {
        return await client.withDeadline(Date.now() + queryTimeoutMs, () =>
          handle.query(stateQuery),
        );
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) throw notFound(delegationId);
        // The workflow failed or was terminated before it could answer: fall through.
      }
    }
    // Build what visibility knows instead of failing the caller.
    return stateFromDescription(delegationId, await describe(delegationId, handle), handle);
  }

  async function stateFromDescription(
    delegationId: string,
    description: WorkflowExecutionDescription,
    handle: WorkflowHandle,
  ): Promise<DelegationState> {
    const attributes = description.typedSearchAttributes;
    const status = effectiveStatus(description.status.name, attributes.get(STATUS_ATTRIBUTE));
    let result: DelegationResult | null = null;
    if (description.status.name !== 'RUNNING') {
      result = await settledResult(handle, status);
    }
    return {
      delegationId,
      workflowId: description.workflowId,
      agent: attributes.get(AGENT_ATTRIBUTE) ?? '',
      session: attributes.get(SESSION_ATTRIBUTE) ?? '',
      status,
      roundsUsed: result?.roundsUsed ?? 0,
      maxTurns: 0,
      model: null,
      definitionHash: null,
      // Forward-compatible: a workflow that mirrors its pending cards into the memo keeps them
      // listable while no worker runs (POL-2); without it, visibility only knows the count.
      pendingCards: description.status.name === 'RUNNING' ? memoCards(description.memo) : [],
      decidedCards: [],
      transcriptSummary: [],
      result,
    };
  }

  async function settledResult(
    handle: WorkflowHandle,
    status: DelegationStatus,
  ): Promise<DelegationResult> {
    try {
      return (await handle.result()) as DelegationResult;
    } catch (error) {
      return {
        status: status === 'stopped' ? 'stopped' : 'failed',
        text: '',
        notice: error instanceof WorkflowFailedError ? failureMessage(error) : String(error),
        roundsUsed: 0,
      };
    }
  }

  return {
    async start(request) {
      const delegationId = request.delegationId ?? newDelegationId();
      assertValidId('delegation id', delegationId);
      assertValidId('session', request.session);
      if (!AGENT_NAME_PATTERN.test(request.agent)) {
        throw new DeputyError('invalid', `agent name '${request.agent.slice(0, 80)}' is not valid`);
      }
      if (request.task.trim() === '') throw new DeputyError('invalid', 'task is empty');
      const workflowId = delegationWorkflowId(request.session, delegationId);
      try {
        await client.workflow.start(DELEGATION_WORKFLOW_TYPE, {
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
            },
          ],
          typedSearchAttributes: [
            { key: AGENT_ATTRIBUTE, value: request.agent },
            { key: SESSION_ATTRIBUTE, value: request.session },
            { key: STATUS_ATTRIBUTE, value: 'running' },
            { key: DELEGATION_ID_ATTRIBUTE, value: delegationId },
            { key: PENDING_CARDS_ATTRIBUTE, value: 0 },
          ],
          memo: { task: firstLine(request.task) },
        });
      } catch (error) {
        if (error instanceof WorkflowExecutionAlreadyStartedError) {
          throw new DeputyError('conflict', `delegation ${delegationId} already exists`);
        }
        throw error;
      }
      remember(delegationId, workflowId);
      return { delegationId, workflowId, session: request.session, agent: request.agent };
    },

    find,
    get,

    async list(filter = {}) {
      const clauses = [`WorkflowType = ${quote(DELEGATION_WORKFLOW_TYPE)}`];
      if (filter.session !== undefined) {
        assertValidId('session', filter.session);
        clauses.push(`${SESSION_ATTRIBUTE.name} = ${quote(filter.session)}`);
      }
      if (filter.agent !== undefined) {
        clauses.push(`${AGENT_ATTRIBUTE.name} = ${quote(filter.agent)}`);
      }
      const rows: DelegationSummary[] = [];
      for await (const info of visible(clauses.join(' AND '))) {
        const row = summaryOf(info);
        // Status is filtered here, not in the query: a terminated workflow never updated its
        // DeputyStatus, so only the combination with the execution status is the truth.
        if (filter.status === undefined || row.status === filter.status) rows.push(row);
      }
      return rows.sort((a, b) => b.startedAt.localeCompare(a.startedAt));
    },

    async stop(delegationId) {
      const handle = await handleOf(delegationId);
      const before = await describe(delegationId, handle);
      if (before.status.name !== 'RUNNING') {
        return { alreadyFinished: true, status: statusOf(before) };
      }
      try {
        await handle.cancel();
        return { stopped: true };
      } catch (error) {
        // It closed between describe() and cancel(): still a clear no-op answer (RUN-5).
        if (!(error instanceof WorkflowNotFoundError)) throw error;
        return { alreadyFinished: true, status: statusOf(await describe(delegationId, handle)) };
      }
    },

    async cards(filter = {}) {
      const clauses = [`${PENDING_CARDS_ATTRIBUTE.name} > 0`, `ExecutionStatus = 'Running'`];
      if (filter.session !== undefined) {
        assertValidId('session', filter.session);
        clauses.push(`${SESSION_ATTRIBUTE.name} = ${quote(filter.session)}`);
      }
      const delegationIds: string[] = [];
      for await (const info of visible(clauses.join(' AND '))) {
        const id = info.typedSearchAttributes.get(DELEGATION_ID_ATTRIBUTE);
        if (id !== undefined) {
          remember(id, info.workflowId);
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
        handle = await handleOf(delegationId);
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

    async events(delegationId, afterSeq) {
      const handle = await handleOf(delegationId);
      const description = await describe(delegationId, handle);
      if (!(await hasLiveWorker(description.taskQueue))) {
        throw new Error(`no worker is polling task queue ${description.taskQueue}`);
      }
      try {
        return await client.withDeadline(Date.now() + queryTimeoutMs, () =>
          handle.query(eventsQuery, afterSeq),
        );
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) throw notFound(delegationId);
        throw error;
      }
    },

    async result(delegationId) {
      const handle = await handleOf(delegationId);
      try {
        return (await handle.result()) as DelegationResult;
      } catch (error) {
        if (error instanceof WorkflowNotFoundError) throw notFound(delegationId);
        if (error instanceof WorkflowFailedError) {
          // The workflow records its own result (partial text, rounds) before it fails.
          const state = await get(delegationId).catch(() => null);
          if (state?.result) return state.result;
          const status = statusOf(await describe(delegationId, handle));
          return {
            status: status === 'stopped' ? 'stopped' : 'failed',
            text: '',
            notice: failureMessage(error),
            roundsUsed: 0,
          };
        }
        throw error;
      }
    },
  };
}

function notFound(delegationId: string): DeputyError {
  return new DeputyError('not-found', `no delegation with id '${delegationId.slice(0, 80)}'`);
}

function unknownCard(cardId: string): DeputyError {
  return new DeputyError('not-found', `no approval card with id '${cardId.slice(0, 80)}'`);
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

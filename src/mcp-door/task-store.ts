/**
 * MCP Tasks backed by Temporal: a task is a delegation, its id the delegation id, and
 * every answer is read from Temporal, never from this process's memory. A host that reconnects,
 * or another `deputy mcp serve` process, finds the same task; a worker or server restart loses
 * nothing. `tasks/cancel` stops the delegation (its pending cards settle as denials).
 *
 * Tasks are bound to the caller, not to the MCP session (the SDK's default): with auth on, a
 * task is visible to the user who started it and to admins (src/rights), so a new session of
 * the same caller keeps its tasks; anyone else is told it does not exist.
 */
import type { RequestId, Result, Task, Request } from '@modelcontextprotocol/sdk/types.js';
import type {
  CreateTaskOptions,
  TaskStore,
} from '@modelcontextprotocol/sdk/experimental/tasks/interfaces.js';
import { DeputyError, isDeputyError } from '../errors.js';
import { isOwnerOrAdmin, unrestricted } from '../rights/rights.js';
import type { SecretMasker } from '../secrets/masker.js';
import type { Caller } from '../shared/caller.js';
import type { DelegationStatus } from '../shared/delegation.js';
import type { DelegationDetail, Delegations, ListFilter } from '../temporal/delegations/types.js';
import { finishedAnswer } from './tool-results.js';

/** How often a host should ask again (tasks/get), and how often tasks/result looks. */
export const TASK_POLL_MS = 500;
/** Rows per tasks/list page. */
const PAGE_SIZE = 50;

const TASK_STATUS: Record<DelegationStatus, Task['status']> = {
  running: 'working',
  idle: 'working',
  parked: 'input_required',
  completed: 'completed',
  failed: 'failed',
  stopped: 'cancelled',
};

export interface DelegationTaskStoreDeps {
  delegations: Delegations;
  caller: Caller;
  secrets: SecretMasker;
  /**
   * Told of each look at a task, so its pending cards are put to the host and the questions of
   * cards decided elsewhere are closed (card-questions.ts).
   */
  onLook?: (state: DelegationDetail) => void;
}

export function taskOf(
  delegationId: string,
  status: DelegationStatus,
  times: { createdAt: string; lastUpdatedAt: string },
  statusMessage?: string,
): Task {
  return {
    taskId: delegationId,
    status: TASK_STATUS[status],
    // Temporal keeps the delegation for the namespace's retention; deputy deletes nothing.
    ttl: null,
    pollInterval: TASK_POLL_MS,
    ...times,
    ...(statusMessage === undefined ? {} : { statusMessage }),
  };
}

export function statusMessageOf(state: DelegationDetail): string | undefined {
  if (state.pendingCards.length > 0) {
    const cards = state.pendingCards.map((card) => `${card.id} (${card.tool})`).join(', ');
    return `waiting for a decision on ${cards}: decide with deputy_decide, \`deputy approve|deny\` or the console's inbox`;
  }
  return state.result?.notice ?? undefined;
}

export function createDelegationTaskStore(deps: DelegationTaskStoreDeps): TaskStore {
  const { delegations, caller } = deps;
  // When each task was first seen here; Temporal's start time is one describe away.
  const createdAt = new Map<string, string>();

  /** The delegation's state when this caller may see it; null for unknown or someone else's. */
  async function visibleState(taskId: string): Promise<DelegationDetail | null> {
    try {
      if (!(await isOwnerOrAdmin(delegations, caller, taskId))) return null;
      return await delegations.get(taskId);
    } catch (error) {
      if (isDeputyError(error, 'not-found') || isDeputyError(error, 'invalid')) return null;
      throw error;
    }
  }

  async function getTask(taskId: string): Promise<Task | null> {
    const state = await visibleState(taskId);
    if (state === null) return null;
    deps.onLook?.(state);
    const now = new Date().toISOString();
    const first = createdAt.get(taskId) ?? now;
    createdAt.set(taskId, first);
    return taskOf(
      taskId,
      state.status,
      { createdAt: first, lastUpdatedAt: now },
      statusMessageOf(state),
    );
  }

  return {
    createTask(
      _params: CreateTaskOptions,
      _requestId: RequestId,
      _request: Request,
    ): Promise<Task> {
      // Tasks are made by calling an agent's tool as a task (door.ts), which starts the delegation.
      return Promise.reject(
        new DeputyError('invalid', 'a deputy task is created by calling an agent tool as a task'),
      );
    },
    getTask,
    async storeTaskResult(): Promise<void> {
      // The result is the workflow's own, in Temporal: nothing to store here.
    },
    async getTaskResult(taskId: string): Promise<Result> {
      const settled = await delegations.settle(taskId);
      if (settled.status !== 'finished') {
        throw new DeputyError('conflict', `delegation ${taskId} has not finished`);
      }
      const state = await visibleState(taskId);
      return finishedAnswer(
        deps.secrets,
        { delegationId: taskId, agent: state?.agent ?? '' },
        settled.result,
        statedCeiling(state),
      );
    },
    async updateTaskStatus(taskId: string, status: Task['status']): Promise<void> {
      // Only a cancel changes anything: every other status is the delegation's own.
      if (status !== 'cancelled') return;
      await delegations.stop(taskId);
    },
    async listTasks(cursor?: string) {
      const rows = await delegations.list(ownFilter(caller));
      const start = cursor === undefined ? 0 : Number.parseInt(cursor, 10);
      if (!Number.isInteger(start) || start < 0)
        throw new DeputyError('invalid', `bad cursor '${cursor}'`);
      const page = rows.slice(start, start + PAGE_SIZE);
      return {
        tasks: page.map((row) =>
          taskOf(row.delegationId, row.status, {
            createdAt: row.startedAt,
            lastUpdatedAt: row.closedAt ?? new Date().toISOString(),
          }),
        ),
        ...(start + PAGE_SIZE < rows.length ? { nextCursor: String(start + PAGE_SIZE) } : {}),
      };
    },
  };
}

/** The permission a delegation ran with, when its caller stated a mode (else nothing to state). */
export function statedCeiling(state: DelegationDetail | null) {
  const permission = state?.permission;
  return permission?.callerMode == null ? undefined : permission;
}

/** What a caller lists: everything without auth or as an admin, else what they started. */
export function ownFilter(caller: Caller): ListFilter {
  return unrestricted(caller) || caller.id === null ? {} : { owner: caller.id };
}

/**
 * The Schedules facade over the Temporal client's `client.schedule` API. Every call is bounded
 * like the delegations' (rpc.ts): with Temporal down they fail fast as `unavailable`. Temporal's
 * "not found" and "already exists" become deputy's `not-found` and `conflict`, and its refusal
 * of a spec (a cron it cannot read) an `invalid` that quotes its reason.
 */
import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  type Client,
  type ScheduleDescription,
  type ScheduleOverlapPolicy,
} from '@temporalio/client';
import { DeputyError } from '../../errors.js';
import { DEFAULT_SESSION } from '../delegations/ids.js';
import { idempotentRpc, rpc } from '../calls/rpc.js';
import type { DelegationQueues } from '../delegations/start-delegation.js';
import type { DelegationSummary } from '../delegations/types.js';
import { scheduleAction } from './action.js';
import { memoOf, readMemo, type ScheduleMemo } from './memo.js';
import {
  assertValidScheduleName,
  isValidScheduleName,
  nameOfScheduleId,
  scheduleIdOf,
  unknownSchedule,
} from './names.js';
import { scheduleSpecOf } from './timing.js';
import {
  CATCHUP_WINDOW_MS,
  DEFAULT_OVERLAP,
  type OverlapPolicy,
  type ScheduleDetail,
  type ScheduleSummary,
  type Schedules,
} from './types.js';

/** How many next run times and latest runs `show` gives. */
const NEXT_RUNS = 5;
const RECENT_RUNS = 10;
const LIST_LIMIT = 500;

const TEMPORAL_OVERLAP: Record<OverlapPolicy, ScheduleOverlapPolicy> = {
  skip: 'SKIP',
  'buffer-one': 'BUFFER_ONE',
  'allow-all': 'ALLOW_ALL',
};

export interface SchedulesDeps {
  client: Client;
  queues: DelegationQueues;
  /** The delegations a schedule started, newest first (DeputySchedule = name). */
  runsOf: (name: string) => Promise<DelegationSummary[]>;
}

// eslint-disable-next-line max-lines-per-function -- one facade: one short method per operation.
export function createSchedules(deps: SchedulesDeps): Schedules {
  const { client } = deps;

  function handleOf(name: string) {
    if (!isValidScheduleName(name)) throw unknownSchedule(name);
    return client.schedule.getHandle(scheduleIdOf(name));
  }

  async function describe(name: string): Promise<ScheduleDescription> {
    const handle = handleOf(name);
    return orUnknown(
      name,
      idempotentRpc(client, () => handle.describe()),
    );
  }

  async function detail(name: string): Promise<ScheduleDetail> {
    const [description, runs] = await Promise.all([describe(name), deps.runsOf(name)]);
    return detailOf(name, description, runs);
  }

  return {
    async create(request) {
      assertValidScheduleName(request.name);
      const spec = scheduleSpecOf(request);
      const session = request.session ?? DEFAULT_SESSION;
      const action = scheduleAction(request, deps.queues);
      const overlap = request.overlap ?? DEFAULT_OVERLAP;
      try {
        await rpc(client, () =>
          client.schedule.create({
            scheduleId: scheduleIdOf(request.name),
            spec,
            action,
            policies: { overlap: TEMPORAL_OVERLAP[overlap], catchupWindow: CATCHUP_WINDOW_MS },
            memo: { ...memoOf(request, session) },
          }),
        );
      } catch (error) {
        if (error instanceof ScheduleAlreadyRunning) {
          throw new DeputyError('conflict', `schedule ${request.name} already exists`);
        }
        throw refusedSpec(error) ?? error;
      }
      return detail(request.name);
    },

    async list() {
      return idempotentRpc(client, async () => {
        const rows: ScheduleSummary[] = [];
        for await (const entry of client.schedule.list()) {
          const name = nameOfScheduleId(entry.scheduleId);
          if (name === null) continue;
          rows.push(
            summaryOf(name, readMemo(entry.memo), entry.state.paused, entry.info.nextActionTimes),
          );
          if (rows.length >= LIST_LIMIT) break;
        }
        return rows.sort((a, b) => a.name.localeCompare(b.name));
      });
    },

    get: detail,

    async pause(name, note) {
      const handle = handleOf(name);
      await orUnknown(
        name,
        idempotentRpc(client, () => handle.pause(note ?? 'paused with deputy')),
      );
      return detail(name);
    },

    async resume(name) {
      const handle = handleOf(name);
      await orUnknown(
        name,
        idempotentRpc(client, () => handle.unpause('resumed with deputy')),
      );
      return detail(name);
    },

    async trigger(name) {
      // Temporal's trigger allows overlap unless told otherwise: tell it the schedule's own.
      const overlap = readMemo((await describe(name)).memo).overlap;
      const handle = handleOf(name);
      await orUnknown(
        name,
        rpc(client, () => handle.trigger(TEMPORAL_OVERLAP[overlap])),
      );
      return { name, overlap };
    },

    async delete(name) {
      const handle = handleOf(name);
      await orUnknown(
        name,
        idempotentRpc(client, () => handle.delete()),
      );
      return { name, deleted: true };
    },

    async owner(name) {
      return readMemo((await describe(name)).memo).createdBy;
    },
  };
}

function summaryOf(
  name: string,
  memo: ScheduleMemo,
  paused: boolean,
  nextActionTimes: Date[],
): ScheduleSummary {
  const next = paused ? undefined : nextActionTimes[0];
  return {
    name,
    agent: memo.agent,
    task: memo.task,
    session: memo.session,
    cron: memo.cron,
    every: memo.every,
    timezone: memo.timezone,
    paused,
    createdBy: memo.createdBy,
    nextRunAt: next === undefined ? null : next.toISOString(),
  };
}

function detailOf(
  name: string,
  description: ScheduleDescription,
  runs: DelegationSummary[],
): ScheduleDetail {
  const memo = readMemo(description.memo);
  const { paused } = description.state;
  return {
    ...summaryOf(name, memo, paused, description.info.nextActionTimes),
    overlap: memo.overlap,
    catchupWindowMs: description.policies.catchupWindow,
    unattended: memo.unattended,
    cardTimeout: memo.cardTimeout,
    maxTokens: memo.maxTokens,
    nextRuns: paused
      ? []
      : description.info.nextActionTimes.slice(0, NEXT_RUNS).map((at) => at.toISOString()),
    recentRuns: runs.slice(0, RECENT_RUNS).map((run) => ({
      delegationId: run.delegationId,
      workflowId: run.workflowId,
      status: run.status,
      startedAt: run.startedAt,
    })),
    createdAt: description.info.createdAt.toISOString(),
  };
}

async function orUnknown<T>(name: string, pending: Promise<T>): Promise<T> {
  try {
    return await pending;
  } catch (error) {
    if (error instanceof ScheduleNotFoundError) throw unknownSchedule(name);
    throw error;
  }
}

/**
 * Temporal's refusal of the spec (a cron it cannot read) as `invalid`; null for anything else.
 * The SDK turns the server's INVALID_ARGUMENT into a TypeError carrying the server's reason.
 */
function refusedSpec(error: unknown): DeputyError | null {
  if (!(error instanceof TypeError)) return null;
  const message = `Temporal refused the schedule: ${error.message.slice(0, 300)}`;
  // Mostly a cron it cannot read; else, say, a search attribute the namespace lacks.
  const path = /cron/i.test(error.message) ? 'cron' : 'schedule';
  return new DeputyError('invalid', message, { issues: [{ path, message }] });
}

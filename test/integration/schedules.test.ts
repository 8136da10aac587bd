/**
 * Schedules on the real dev server, over HTTP (the API app in-process) with a real
 * worker: a run is an ordinary delegation (found by id, carrying DeputySchedule, listed by
 * `?schedule=`), overlap `skip` keeps a second run from starting while the first is parked on a
 * card, pause/resume/delete show in the answers, and bad input is refused before Temporal
 * starts anything. Runs are triggered, never waited for: the test takes seconds.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import { EXIT } from '../../src/cli/exit-codes.js';
import { runCli } from '../../src/cli/program.js';
import { createSchedules } from '../../src/temporal/schedules/facade.js';
import type { ScheduleDetail, ScheduleSummary } from '../../src/temporal/schedules/types.js';
import type { DelegationSummary } from '../../src/temporal/delegations/types.js';
import { SCHEDULE_ATTRIBUTE } from '../../src/shared/workflow-contract/search-attributes.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import { scribeAgent } from './support/scribe-agent.js';

let harness: Harness;
let call: (
  method: string,
  path: string,
  body?: unknown,
) => Promise<{ status: number; body: Answer }>;
const created: string[] = [];

/** Every answer's fields a test reads, loosely: the routes' own schemas are checked elsewhere. */
type Answer = Partial<ScheduleDetail> & {
  message?: string;
  schedules?: ScheduleSummary[];
  delegations?: DelegationSummary[];
  delegationId?: string;
  pendingCards?: { id: string }[];
};

beforeAll(async () => {
  harness = await createHarness(scribeAgent);
  const schedules = createSchedules({
    client: harness.client,
    queues: { taskQueue: harness.taskQueue, toolQueue: null },
    runsOf: (schedule) => harness.delegations.list({ schedule }),
  });
  const app = createApp({
    delegations: harness.delegations,
    schedules,
    definitions: harness.registry,
    config: harness.config,
    auth: createAuth({}),
  });
  call = async (method, path, body) => {
    const response = await app.request(path, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    return { status: response.status, body: (await response.json()) as Answer };
  };
});

afterAll(async () => {
  for (const name of created) await call?.('DELETE', `/schedules/${name}`);
  await harness?.close();
});

const newName = () => `t-${randomUUID().slice(0, 8)}`;
/** Far enough apart that no run falls due on its own during the test: runs come by trigger. */
const rarely = { agent: 'scribe', task: 'Write the note.', every: '30d' };

describe('schedules', () => {
  it('refuses a bad cron, a bad name, cron with every, and an unknown agent', async () => {
    const badCron = await call('POST', '/schedules', {
      ...rarely,
      every: undefined,
      name: newName(),
      cron: 'every tuesday at noon',
    });
    expect(badCron.status).toBe(422);
    expect(badCron.body.message).toMatch(/Temporal refused the schedule: .*cron/i);
    const both = await call('POST', '/schedules', {
      ...rarely,
      name: newName(),
      cron: '0 9 * * *',
    });
    expect(both.status).toBe(422);
    expect(both.body.message).toMatch(/exactly one of cron/);
    expect((await call('POST', '/schedules', { ...rarely, name: 'no spaces' })).status).toBe(422);
    const zone = await call('POST', '/schedules', {
      ...rarely,
      name: newName(),
      timezone: 'Mars/Olympus',
    });
    expect(zone.status).toBe(422);
    expect(zone.body.message).toMatch(/unknown time zone/);
    const agent = await call('POST', '/schedules', { ...rarely, name: newName(), agent: 'ghost' });
    expect(agent.status).toBe(404);
  });

  it('refuses every way of running more often than the default minimum of a minute', async () => {
    const tooOften: Record<string, string>[] = [
      { every: '1s' },
      { every: '59s' },
      { every: '500ms' },
      { cron: '* * * * * * *' },
      { cron: '*/30 * * * * * *' },
      { cron: '0-5 * * * * * *' },
      { cron: '@every 1s' },
      { cron: '@every 10s/5s' },
      { cron: 'CRON_TZ=Europe/Paris * * * * * * * # every second' },
    ];
    for (const timing of tooOften) {
      const answer = await call('POST', '/schedules', {
        agent: 'scribe',
        task: 'Write the note.',
        name: newName(),
        ...timing,
      });
      expect(answer.status, JSON.stringify(timing)).toBe(422);
      expect(answer.body.message).toContain(
        'more often than the minimum interval between runs, 1m (set by schedules.minInterval in .subagents/config.yaml)',
      );
    }
    const unreadable = await call('POST', '/schedules', {
      ...rarely,
      every: undefined,
      name: newName(),
      cron: 'L * * * *',
    });
    expect(unreadable.status).toBe(422);
    expect(unreadable.body.message).toMatch(/minute field 'L'.*cannot be checked/);
    // Refused before Temporal was asked: none of them exists.
    const names = ((await call('GET', '/schedules')).body.schedules ?? []).map((row) => row.name);
    expect(names.filter((name) => !created.includes(name))).toEqual([]);
  });

  it("a role's own minimum: admins lower, everyone else the configured one", async () => {
    const env = { ADMIN_TOKEN: 'admin-secret', USER_TOKEN: 'user-secret' };
    const auth = {
      tokens: {
        ADMIN_TOKEN: { user: 'ada', roles: ['admin'] },
        USER_TOKEN: { user: 'uma', roles: ['writer'] },
      },
    };
    const config = {
      ...harness.config,
      auth,
      schedules: { minInterval: '2h', minIntervalByRole: { admin: '1h' } },
    };
    const app = createApp({
      delegations: harness.delegations,
      schedules: createSchedules({
        client: harness.client,
        queues: { taskQueue: harness.taskQueue, toolQueue: null },
        runsOf: (schedule) => harness.delegations.list({ schedule }),
      }),
      definitions: harness.registry,
      config,
      auth: createAuth(config, env),
    });
    const create = async (token: string, cron: string) => {
      const name = newName();
      const response = await app.request('/schedules', {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ agent: 'scribe', task: 'Write the note.', name, cron }),
      });
      if (response.status === 201) created.push(name);
      return { status: response.status, body: (await response.json()) as Answer };
    };
    // Hourly on the first of January 2099 only: an hour apart, and never due during the test.
    const hourly = '0 * 1 1 * 2099';
    const user = await create(env.USER_TOKEN, hourly);
    expect(user.status).toBe(422);
    expect(user.body.message).toContain(
      'minimum interval between runs, 2h (set by schedules.minInterval',
    );
    expect((await create(env.ADMIN_TOKEN, hourly)).status).toBe(201);
    const halfHourly = await create(env.ADMIN_TOKEN, '0,30 * 1 1 * 2099');
    expect(halfHourly.status).toBe(422);
    expect(halfHourly.body.message).toContain(
      'runs 30m apart: more often than the minimum interval between runs, 1h (set by schedules.minIntervalByRole.admin',
    );
  });

  it('answers 404 for a schedule that does not exist', async () => {
    for (const [method, path] of [
      ['GET', '/schedules/nope-nope'],
      ['POST', '/schedules/nope-nope/pause'],
      ['POST', '/schedules/nope-nope/trigger'],
      ['DELETE', '/schedules/nope-nope'],
      ['GET', '/schedules/not..valid'],
    ] as const) {
      expect((await call(method, path)).status, `${method} ${path}`).toBe(404);
    }
  });

  it('runs ordinary delegations, skips a run while one is parked, pauses, resumes, deletes', async () => {
    const name = newName();
    const made = await call('POST', '/schedules', { ...rarely, name, unattended: false });
    expect(made.status).toBe(201);
    created.push(name);
    expect(made.body).toMatchObject({
      name,
      agent: 'scribe',
      every: '30d',
      cron: null,
      timezone: 'UTC',
      overlap: 'skip',
      paused: false,
      catchupWindowMs: 60_000,
      recentRuns: [],
    });
    expect(made.body.nextRuns?.length).toBeGreaterThan(0);
    expect((await call('POST', '/schedules', { ...rarely, name })).status).toBe(409);

    expect((await call('POST', `/schedules/${name}/trigger`)).status).toBe(202);
    const run = await eventually(async () => {
      const shown = await call('GET', `/schedules/${name}`);
      const first = shown.body.recentRuns?.[0];
      return first?.status === 'parked' ? first : undefined;
    }, 'the triggered run to park on its card');
    expect(run.delegationId).toMatch(new RegExp(`^${name}-\\d{8}T\\d{6}Z$`));

    // An ordinary delegation: found by its id, its schedule in DeputySchedule and the listing.
    const state = await call('GET', `/delegations/${run.delegationId}`);
    expect(state.status).toBe(200);
    expect(state.body).toMatchObject({ delegationId: run.delegationId, status: 'parked' });
    expect(state.body.pendingCards?.[0]?.id).toBe(`${run.delegationId}.1`);
    const description = await harness.client.workflow.getHandle(run.workflowId).describe();
    expect(description.typedSearchAttributes.get(SCHEDULE_ATTRIBUTE)).toBe(name);
    const listed = await call('GET', `/delegations?schedule=${name}`);
    expect(listed.body.delegations?.map((row) => row.delegationId)).toEqual([run.delegationId]);

    // Overlap skip: a trigger while the first run is parked starts nothing.
    expect((await call('POST', `/schedules/${name}/trigger`)).status).toBe(202);
    await eventually(async () => {
      const described = await harness.client.schedule.getHandle(`deputy/${name}`).describe();
      return described.info.numActionsSkippedOverlap >= 1 ? true : undefined;
    }, 'the second trigger to be skipped');
    expect((await call('GET', `/schedules/${name}`)).body.recentRuns).toHaveLength(1);

    const paused = await call('POST', `/schedules/${name}/pause`, { note: 'holiday' });
    expect(paused.body).toMatchObject({ paused: true, nextRuns: [], nextRunAt: null });
    await eventually(async () => {
      const { body } = await call('GET', '/schedules');
      const row = body.schedules?.find((entry) => entry.name === name);
      return row?.paused === true ? row : undefined;
    }, 'the listing to show the pause');
    const resumed = await call('POST', `/schedules/${name}/resume`);
    expect(resumed.body.paused).toBe(false);
    expect(resumed.body.nextRuns?.length).toBeGreaterThan(0);

    expect((await call('DELETE', `/schedules/${name}`)).status).toBe(200);
    created.splice(created.indexOf(name), 1);
    expect((await call('GET', `/schedules/${name}`)).status).toBe(404);
    // The run it started goes on, still an ordinary delegation.
    expect((await call('POST', `/delegations/${run.delegationId}/stop`)).status).toBe(200);
  });

  it('does the same from the CLI: create with a cron and a time zone, list, show, delete', async () => {
    // The CLI reads its Temporal target and task queue from the environment, as a user's does.
    process.env.TEMPORAL_ADDRESS = harness.address;
    process.env.DEPUTY_TASK_QUEUE = harness.taskQueue;
    const cli = async (...args: string[]) => {
      const io = { stdout: '', stderr: '' };
      const code = await runCli(['--workspace', harness.workspace, ...args], {
        out: (text) => void (io.stdout += `${text}\n`),
        err: (text) => void (io.stderr += `${text}\n`),
      });
      return { code, ...io };
    };
    const name = newName();
    const weekdays = ['--agent', 'scribe', '--task', 'Triage.', '--cron', '0 9 * * 1-5'];
    const made = await cli('schedule', 'create', name, ...weekdays, '--timezone', 'Europe/Paris');
    expect(made.code, made.stderr).toBe(EXIT.ok);
    created.push(name);
    expect(made.stdout).toContain('when:     cron "0 9 * * 1-5" Europe/Paris');
    expect(made.stdout).toContain('overlap:  skip');
    const bad = await cli('schedule', 'create', newName(), ...weekdays.slice(0, 4), '--cron', 'x');
    expect(bad.code).toBe(EXIT.usage);
    expect(bad.stderr).toMatch(/Temporal refused the schedule/);
    const everySecond = await cli(
      'schedule',
      'create',
      newName(),
      ...weekdays.slice(0, 4),
      '--every',
      '1s',
    );
    expect(everySecond.code).toBe(EXIT.usage);
    expect(everySecond.stderr).toContain(
      'every 1s: more often than the minimum interval between runs, 1m (set by schedules.minInterval in .subagents/config.yaml)',
    );
    expect((await cli('schedule', 'show', 'nope-nope')).code).toBe(EXIT.notFound);
    const listed = await eventually(async () => {
      const answer = await cli('schedule', 'list');
      return answer.stdout.includes(name) ? answer : undefined;
    }, 'the CLI listing to show the schedule');
    expect(listed.stdout).toMatch(new RegExp(`${name}\\s+scribe\\s+cron "0 9 \\* \\* 1-5"`));
    expect((await cli('list', '--schedule', name)).stdout).toContain('no delegations');
    expect((await cli('schedule', 'delete', name)).code).toBe(EXIT.ok);
    created.splice(created.indexOf(name), 1);
  });
});

/**
 * The `session` bench: a foreground `Task` round trip in a session against a bare Temporal workflow
 * of the same shape (bench/bare-session.ts: resolveAgent, callModel, the same child delegation,
 * callModel), and against the same child delegation started directly, with the same scripted child
 * (`reader`: one `read` round, then its answer).
 *
 * Session side: `sessions.start` with a message; the scripted main agent (`lead`) answers with a
 * `Task` call (main model round 1), the session starts `reader` as a child workflow and waits for
 * it, feeds its result back, and the main agent answers (main model round 2); done when the
 * session's `reply` event is seen (events polled every POLL_MS). It also includes resolving the
 * main agent. Direct side: `delegations.start` of `reader` and `settle` (polled every POLL_MS)
 * until its result. Bare side: the bare session started with the session's start options
 * (sessionStartOptions), its `reply` query polled every POLL_MS until it has one. One dev server,
 * one worker (deputy's, with a bundle that also holds the bare session); runs alternate.
 *
 * Besides the wall times seen by the client, both sides are timed from workflow history (no poll
 * granularity): session start until the workflow task that recorded the reply, and delegation
 * start until it completed; the bare session until it completed. "Task overhead" is the
 * session's history time minus its two main model rounds (callModel scheduled to completed).
 * Targets: the session at most 1.2x the bare session, the child run inside the session
 * at most 1.05x the same delegation started directly; reported, not asserted.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { setTimeout as sleep } from 'node:timers/promises';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { defineQuery } from '@temporalio/workflow';
import { loadConfig } from '../src/config/load.js';
import { ANONYMOUS_CALLER } from '../src/shared/caller.js';
import { createDelegations } from '../src/temporal/delegations/facade.js';
import { startDevServer } from '../src/servers/dev/dev-server.js';
import { newSessionId } from '../src/temporal/delegations/ids.js';
import { createSessions } from '../src/temporal/sessions/facade.js';
import { sessionStartOptions } from '../src/temporal/sessions/start.js';
import { bundleInProject, startWorkerRuntime } from '../src/worker/worker.js';
import {
  alternate,
  eventMs,
  median,
  percentile,
  type BenchReport,
  type BenchRow,
} from './stats.js';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 20);
const WARMUP = 3;
/** Milliseconds between looks: `settle` direct, `events` in the session, `reply` in the bare. */
const POLL_MS = 20;
/** The session against the bare session of the same shape. */
const TARGET = 1.2;
/** bench/bare-session.ts's query (sandbox code: named here, not imported). */
const bareReplyQuery = defineQuery<string | null>('reply');
/** The child run inside the session against the same delegation started directly. */
const CHILD_TARGET = 1.05;

const FILES: Record<string, string> = {
  'README.md': 'deputy bench workspace\n',
  '.subagents/agents/reader.md':
    '---\nname: reader\ndescription: Reads one file and says what it holds\nmodel: scripted:scripts/reader.yaml\ntools: [read]\nmaxTurns: 4\n---\nRead.\n',
  'scripts/reader.yaml':
    'turns:\n  - text: Reading.\n    toolCalls: [{ name: read, arguments: { path: README.md } }]\n  - text: "README holds: ${lastToolResult}"\n',
  '.subagents/agents/lead.md':
    '---\nname: lead\ndescription: Hands work to the reader\nmodel: scripted:scripts/lead.yaml\ntools: [Task]\nmaxTurns: 4\n---\nLead.\n',
  'scripts/lead.yaml':
    'turns:\n  - text: Asking the reader.\n    toolCalls: [{ name: Task, arguments: { description: read README, prompt: Read README.md, subagent_type: reader } }]\n  - text: "Done. ${lastToolResult}"\n',
};

/** Milliseconds from workflow history, for one run of either side. */
interface SessionTimes {
  /** Session started until the workflow task that recorded the reply completed. */
  total: number;
  /** The two main-agent callModel activities, scheduled to completed, summed. */
  mainRounds: number;
  /** Resolving the main agent (resolveAgent, scheduled to completed). */
  mainResolve: number;
  /** Session started until it asked for the child (resolve + main round 1). */
  beforeChild: number;
  /** Child start asked until the child's own run started. */
  childStart: number;
  /** The child's own run, started to completed (its history). */
  child: number;
  /** Reports (signals) the child sent its session, each one more workflow task in the child. */
  childReports: number;
  /** Child completed until the session saw it completed. */
  resultBack: number;
  /** Session saw the child completed until the reply was recorded (main round 2). */
  afterChild: number;
  /** Workflow tasks until the one that recorded the reply, that one included. */
  workflowTasks: number;
  /** Commands those workflow tasks recorded. */
  commands: number;
}

interface Run {
  wall: number;
  workflowId: string;
}

function expect(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`session-task: ${what}`);
}

export async function benchSessionTask(): Promise<BenchReport> {
  const root = await mkdtemp(join(tmpdir(), 'deputy-bench-task-'));
  const workspace = join(root, 'workspace');
  for (const [path, text] of Object.entries(FILES)) {
    await mkdir(join(workspace, path, '..'), { recursive: true });
    await writeFile(join(workspace, path), text);
  }

  const server = await startDevServer({ dataDir: join(root, 'data'), headless: true });
  const stops: Array<() => Promise<void>> = [
    () => rm(root, { recursive: true, force: true }),
    () => server.stop(),
  ];
  try {
    const config = loadConfig(
      { workspace, temporalAddress: server.address },
      { DEPUTY_USER_DIR: join(root, 'user') },
    );
    const taskQueue = `bench-task-${process.pid}`;
    // deputy's worker as `deputy worker` runs it, with the bare session in its bundle too.
    const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    const bundle = await bundleWorkflowCode({
      workflowsPath: fileURLToPath(new URL('./bench-workflows.ts', import.meta.url)),
      webpackConfigHook: bundleInProject,
      logger: silent,
    });
    const worker = await startWorkerRuntime(config, server.address, {
      taskQueue,
      workflowBundle: { code: bundle.code },
    });
    stops.unshift(() => worker.stop());
    const connection = await Connection.connect({ address: server.address });
    stops.unshift(() => connection.close());
    const client = new Client({ connection, namespace: config.temporal.namespace });
    const delegations = createDelegations(client, {
      namespace: config.temporal.namespace,
      taskQueue,
      pollMs: { settle: POLL_MS },
    });
    const sessions = createSessions(client, delegations, { taskQueue });

    const viaSession = async (): Promise<Run> => {
      const started = performance.now();
      const { sessionId, workflowId } = await sessions.start({
        agent: 'lead',
        message: 'Read the README.',
        caller: ANONYMOUS_CALLER,
        options: {},
      });
      for (;;) {
        const events = await sessions.events(sessionId, 0);
        const reply = events.find((event) => event.type === 'reply');
        if (reply !== undefined) {
          const finished = events.find((event) => event.type === 'task-finished');
          expect(
            finished?.type === 'task-finished' && finished.task.result?.status === 'completed',
            'the reader task did not complete',
          );
          expect(reply.text.includes('deputy bench workspace'), `reply was ${reply.text}`);
          break;
        }
        await sleep(POLL_MS);
      }
      const wall = performance.now() - started;
      await sessions.stop(sessionId);
      return { wall, workflowId };
    };

    const direct = async (): Promise<Run> => {
      const started = performance.now();
      const { delegationId, workflowId } = await delegations.start({
        agent: 'reader',
        task: 'Read README.md',
        session: 'bench',
        caller: ANONYMOUS_CALLER,
        options: {},
      });
      const settled = await delegations.settle(delegationId);
      expect(
        settled.status === 'finished' && settled.result.status === 'completed',
        'the direct delegation did not complete',
      );
      expect(settled.result.text.includes('deputy bench workspace'), 'direct answer was wrong');
      return { wall: performance.now() - started, workflowId };
    };

    const bare = async (): Promise<Run> => {
      const started = performance.now();
      const options = sessionStartOptions(
        { agent: 'lead', message: 'Read the README.', caller: ANONYMOUS_CALLER, options: {} },
        { sessionId: newSessionId(), agent: 'lead' },
        { taskQueue, toolQueue: null },
      );
      const handle = await client.workflow.start('bareSession', options);
      // Polled as the session side polls its events: a query every POLL_MS until the reply.
      let reply: string | null;
      while ((reply = await handle.query(bareReplyQuery)) === null) await sleep(POLL_MS);
      const wall = performance.now() - started;
      expect(reply.includes('deputy bench workspace'), `bare reply was ${reply}`);
      await handle.result();
      return { wall, workflowId: options.workflowId };
    };

    for (let index = 0; index < WARMUP; index++) {
      await viaSession();
      await bare();
      await direct();
    }
    const sessionRuns: Run[] = [];
    const bareRuns: Run[] = [];
    const directRuns: Run[] = [];
    await alternate(PAIRS, [
      async () => sessionRuns.push(await viaSession()),
      async () => bareRuns.push(await bare()),
      async () => directRuns.push(await direct()),
    ]);

    // History reads happen after all runs, so they never slow a measured one.
    const sessionTimes: SessionTimes[] = [];
    for (const run of sessionRuns) sessionTimes.push(await sessionTimeline(client, run.workflowId));
    const directTimes: number[] = [];
    for (const run of directRuns) directTimes.push((await runSpan(client, run.workflowId)).total);
    const bareTimes: BareTimes[] = [];
    for (const run of bareRuns) bareTimes.push(await bareTimeline(client, run.workflowId));

    const of = (key: keyof SessionTimes) => sessionTimes.map((times) => times[key]);
    const sessionWall = sessionRuns.map((run) => run.wall);
    const directWall = directRuns.map((run) => run.wall);
    const bareWall = bareRuns.map((run) => run.wall);
    const ofBare = (key: keyof BareTimes) => bareTimes.map((times) => times[key]);
    const overhead = sessionTimes.map((times) => times.total - times.mainRounds);
    // What delegating through Task adds to the delegation itself, without the main agent's turns.
    const taskPath = sessionTimes.map((times) => times.childStart + times.child + times.resultBack);
    const versus = (
      metric: string,
      value: number,
      baseline: number,
      target?: string,
    ): BenchRow => ({
      metric,
      value,
      unit: 'ms',
      baseline,
      ratio: value / baseline,
      ...(target === undefined ? {} : { target }),
    });
    const part = (metric: string, values: number[]): BenchRow => ({
      metric,
      value: median(values),
      unit: 'ms',
    });
    const directRun = median(directTimes);
    return {
      name: `foreground Task round trip in a session vs a bare workflow of its shape and vs the same delegation started directly (${PAIRS} alternating rounds after ${WARMUP} warm-up, polls every ${POLL_MS} ms)`,
      rows: [
        versus(
          'wall p50, session vs bare session',
          median(sessionWall),
          median(bareWall),
          `<= ${TARGET}`,
        ),
        versus(
          'wall p90, session vs bare session',
          percentile(sessionWall, 90),
          percentile(bareWall, 90),
        ),
        versus(
          'history p50, session vs bare session',
          median(of('total')),
          median(ofBare('total')),
          `<= ${TARGET}`,
        ),
        versus('  bare session: child run p50 vs direct run', median(ofBare('child')), directRun),
        part('  bare session: before child p50', ofBare('beforeChild')),
        part('  bare session: after child p50', ofBare('afterChild')),
        versus('wall p50, session vs direct', median(sessionWall), median(directWall)),
        versus(
          'wall p90, session vs direct',
          percentile(sessionWall, 90),
          percentile(directWall, 90),
        ),
        versus('history p50, session vs direct', median(of('total')), directRun),
        part('  session: before child p50', of('beforeChild')),
        part('  session: resolve main agent p50', of('mainResolve')),
        part('  session: child start p50', of('childStart')),
        versus(
          '  session: child run p50 vs direct run',
          median(of('child')),
          directRun,
          `<= ${CHILD_TARGET}`,
        ),
        part('  session: result back p50', of('resultBack')),
        part('  session: after child p50', of('afterChild')),
        {
          metric: 'workflow tasks to the reply p50, session vs bare session',
          value: median(of('workflowTasks')),
          unit: 'count',
          baseline: median(ofBare('workflowTasks')),
          ratio: median(of('workflowTasks')) / median(ofBare('workflowTasks')),
        },
        {
          metric: 'commands to the reply p50, session vs bare session',
          value: median(of('commands')),
          unit: 'count',
          baseline: median(ofBare('commands')),
          ratio: median(of('commands')) / median(ofBare('commands')),
        },
        {
          metric: '  child reports to its session p50',
          value: median(of('childReports')),
          unit: 'count',
        },
        versus(
          'Task itself (start command -> child result seen) p50 vs direct',
          median(taskPath),
          directRun,
        ),
        versus(
          'Task overhead (session minus its main model rounds) p50 vs direct',
          median(overhead),
          directRun,
        ),
        part('  the two main model rounds p50', of('mainRounds')),
      ],
      notes: [
        'session = start with a message, resolve main agent, main model round, Task starts the child, child runs, result back, main model round, reply seen',
        'bare session = bench/bare-session.ts started with the same options: resolveAgent, callModel, the same child delegation (same input and start options), callModel; its reply query polled as the session side polls events',
        'direct = delegations.start of the same child, settle until its result',
        'history figures are server timestamps: session start to the workflow task that recorded the reply; delegation start to completed',
        'a foreground child reports only its cards to its session',
      ],
    };
  } finally {
    for (const stop of stops) await stop();
  }
}

async function historyOf(client: Client, workflowId: string) {
  return (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
}

/** A closed run's span: its start until it completed. */
async function runSpan(client: Client, workflowId: string) {
  const events = await historyOf(client, workflowId);
  const completed = events.find((event) => event.workflowExecutionCompletedEventAttributes);
  expect(completed !== undefined, `${workflowId} did not complete`);
  const startedAt = eventMs(events[0]?.eventTime);
  const completedAt = eventMs(completed.eventTime);
  const signals = events.filter(
    (event) => event.signalExternalWorkflowExecutionInitiatedEventAttributes,
  ).length;
  return { startedAt, completedAt, total: completedAt - startedAt, signals };
}

/** Milliseconds from a bare session's history (bench/bare-session.ts). */
interface BareTimes {
  /** Started until completed (the workflow task that returned the reply). */
  total: number;
  /** Started until it asked for the child. */
  beforeChild: number;
  /** The child's own run, started to completed. */
  child: number;
  /** It saw the child completed until it completed itself (main round 2). */
  afterChild: number;
  /** Workflow tasks until it completed. */
  workflowTasks: number;
  /** Commands those workflow tasks recorded. */
  commands: number;
}

async function bareTimeline(client: Client, workflowId: string): Promise<BareTimes> {
  const events = await historyOf(client, workflowId);
  const startedAt = eventMs(events[0]?.eventTime);
  const at = (has: (event: (typeof events)[number]) => unknown) => {
    const found = events.find((event) => has(event));
    expect(found !== undefined, `${workflowId}: an event is missing from the bare history`);
    return { event: found, at: eventMs(found.eventTime) };
  };
  const asked = at((event) => event.startChildWorkflowExecutionInitiatedEventAttributes);
  const seen = at((event) => event.childWorkflowExecutionCompletedEventAttributes);
  const completed = at((event) => event.workflowExecutionCompletedEventAttributes);
  const childId = asked.event.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId ?? '';
  const child = await runSpan(client, childId);
  return {
    total: completed.at - startedAt,
    beforeChild: asked.at - startedAt,
    child: child.total,
    afterChild: completed.at - seen.at,
    ...shapeUntil(events, events.indexOf(completed.event)),
  };
}

/** Event attributes that a command records (what a workflow task asked Temporal to do). */
const COMMAND_EVENTS = [
  'activityTaskScheduledEventAttributes',
  'startChildWorkflowExecutionInitiatedEventAttributes',
  'markerRecordedEventAttributes',
  'upsertWorkflowSearchAttributesEventAttributes',
  'workflowPropertiesModifiedEventAttributes',
  'timerStartedEventAttributes',
  'signalExternalWorkflowExecutionInitiatedEventAttributes',
  'requestCancelExternalWorkflowExecutionInitiatedEventAttributes',
  'workflowExecutionCompletedEventAttributes',
] as const;

type HistoryEvent = Awaited<ReturnType<typeof historyOf>>[number];

/**
 * Workflow tasks completed up to the one at `lastTask` (an index into `events`), and the commands
 * they recorded (the command events right after each completed task, the last one's included).
 */
function shapeUntil(
  events: HistoryEvent[],
  lastTask: number,
): { workflowTasks: number; commands: number } {
  const isCommand = (event: HistoryEvent | undefined) =>
    event !== undefined && COMMAND_EVENTS.some((key) => event[key]);
  let end = lastTask + 1;
  while (isCommand(events[end])) end++;
  const upTo = events.slice(0, end);
  return {
    workflowTasks: upTo.filter((event) => event.workflowTaskCompletedEventAttributes).length,
    commands: upTo.filter(isCommand).length,
  };
}

async function sessionTimeline(client: Client, workflowId: string): Promise<SessionTimes> {
  const events = await historyOf(client, workflowId);
  const startedAt = eventMs(events[0]?.eventTime);
  const scheduled = new Map<string, { type: string; at: number }>();
  const models: number[] = [];
  let mainResolve = Number.NaN;
  let lastActivityIndex = -1;
  let childAskedAt = Number.NaN;
  let childSeenAt = Number.NaN;
  let childId = '';
  events.forEach((event, index) => {
    const at = eventMs(event.eventTime);
    const activity = event.activityTaskScheduledEventAttributes;
    if (activity)
      scheduled.set(String(event.eventId), { type: activity.activityType?.name ?? '', at });
    const done = event.activityTaskCompletedEventAttributes;
    if (done) {
      const from = scheduled.get(String(done.scheduledEventId));
      if (from?.type === 'callModel') models.push(at - from.at);
      if (from?.type === 'resolveAgent') mainResolve = at - from.at;
      lastActivityIndex = index;
    }
    const asked = event.startChildWorkflowExecutionInitiatedEventAttributes;
    if (asked) {
      childAskedAt = at;
      childId = asked.workflowId ?? '';
    }
    if (event.childWorkflowExecutionCompletedEventAttributes) childSeenAt = at;
  });
  expect(models.length === 2, `the session ran ${models.length} main model rounds, not 2`);
  // The reply is recorded in the workflow task that follows the last model round.
  const replied = events
    .slice(lastActivityIndex + 1)
    .find((event) => event.workflowTaskCompletedEventAttributes);
  expect(replied !== undefined && childId !== '', 'no reply or no child in the session history');
  const repliedAt = eventMs(replied.eventTime);
  const child = await runSpan(client, childId);
  return {
    total: repliedAt - startedAt,
    mainRounds: models[0]! + models[1]!,
    mainResolve,
    beforeChild: childAskedAt - startedAt,
    childStart: child.startedAt - childAskedAt,
    child: child.total,
    childReports: child.signals,
    resultBack: childSeenAt - child.completedAt,
    afterChild: repliedAt - childSeenAt,
    ...shapeUntil(events, events.indexOf(replied)),
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { installQuietRuntime } = await import('./quiet-runtime.js');
  installQuietRuntime();
  const { printReports } = await import('./report.js');
  printReports([await benchSessionTask()], 'session');
}

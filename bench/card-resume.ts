/**
 * Card decision to resume: a delegation parked on an approval card (`write` under `confirm`) is
 * approved with the `decideCard` signal, against a bare workflow (bench/bare-signal.ts) that
 * waits for the same signal and then runs the same next activity (`runTool` of the same write,
 * then the final `callModel`). One dev server, one worker; runs alternate after a warm-up.
 *
 * Both sides get the signal the same way (the raw signal, once the side is seen parked by a
 * query polled every POLL_MS), so the figure is the workflow's own handling of a decision; the
 * facade's `decide` adds its checks before sending this same signal (bench start-and-approve).
 * From history: WorkflowExecutionSignaled → the next ActivityTaskScheduled and ActivityTaskStarted
 * (the tool starting) and → WorkflowExecutionCompleted. Wall: signal sent → result in hand.
 * Target: median ratio of signal → next activity started at most 1.2.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Client, WorkflowHandle } from '@temporalio/client';
import { delegationWorkflowId, type DelegationResult } from '../src/shared/delegation.js';
import { decideCardSignal, stateQuery } from '../src/shared/workflow-contract/messages.js';
import { bareGoSignal, bareWaitingQuery } from './bare-signal.js';
import { historyEvents } from './history.js';
import {
  alternate,
  eventMs,
  median,
  percentile,
  type BenchReport,
  type BenchRow,
} from './stats.js';
import { delegationInput, startRig } from './temporal-rig.js';

const PAIRS = Number(process.env.BENCH_PAIRS ?? 30);
const WARMUP = 3;
const POLL_MS = 10;
const TARGET = 1.2;

const FILES: Record<string, string> = {
  'scripts/approve.yaml':
    'turns:\n  - text: writing\n    toolCalls: [{ name: write, arguments: { path: "out/${task}.txt", content: "approved\\n" } }]\n  - text: done\n',
  '.subagents/agents/approver.md':
    '---\nname: approver\ndescription: writes one file, after approval\nmodel: scripted:scripts/approve.yaml\ntools: [write]\napprovalMode: confirm\nmaxTurns: 4\n---\nWrite the file.\n',
};

/** Milliseconds after the signal, from one run's history, and wall time on the client. */
interface Resume {
  /** Signaled → the WorkflowTaskStarted that handles it (the task waiting for a worker). */
  taskWait: number;
  /** That workflow task, started → completed (the activation in the worker). */
  taskRun: number;
  /** Signaled → next ActivityTaskScheduled (the workflow task that handles the decision). */
  scheduled: number;
  /** Signaled → next ActivityTaskStarted (the tool starting in the worker). */
  started: number;
  /** Signaled → WorkflowExecutionCompleted (tool, final model round, completion). */
  completed: number;
  /** Client: signal sent → result in hand. */
  wall: number;
  /** Events that task's commands recorded (memo, search attributes, the activity, ...). */
  commands: number;
}

function expect(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`card-resume: ${what}`);
}

async function until<T>(look: () => Promise<T | undefined>): Promise<T> {
  for (;;) {
    const found = await look();
    if (found !== undefined) return found;
    await sleep(POLL_MS);
  }
}

async function resumeTimes(client: Client, workflowId: string, wall: number): Promise<Resume> {
  const events = await historyEvents(client, workflowId);
  const signaled = events.findIndex((event) => event.workflowExecutionSignaledEventAttributes);
  expect(signaled >= 0, `${workflowId} has no signal`);
  const after = events.slice(signaled);
  const timeOf = (found: (typeof events)[number] | undefined, what: string) => {
    expect(found !== undefined, `${workflowId}: no ${what} after the signal`);
    return eventMs(found.eventTime) - eventMs(events[signaled]!.eventTime);
  };
  const taskStarted = after.find((event) => event.workflowTaskStartedEventAttributes);
  const taskDone = after.find((event) => event.workflowTaskCompletedEventAttributes);
  const taskWait = timeOf(taskStarted, 'WorkflowTaskStarted');
  const doneIndex = after.findIndex((event) => event.workflowTaskCompletedEventAttributes);
  const scheduledIndex = after.findIndex((event) => event.activityTaskScheduledEventAttributes);
  return {
    commands: scheduledIndex - doneIndex,
    taskWait,
    taskRun: timeOf(taskDone, 'WorkflowTaskCompleted') - taskWait,
    scheduled: timeOf(
      after.find((event) => event.activityTaskScheduledEventAttributes),
      'ActivityTaskScheduled',
    ),
    started: timeOf(
      after.find((event) => event.activityTaskStartedEventAttributes),
      'ActivityTaskStarted',
    ),
    completed: timeOf(
      after.find((event) => event.workflowExecutionCompletedEventAttributes),
      'WorkflowExecutionCompleted',
    ),
    wall,
  };
}

export async function benchCardResume(): Promise<BenchReport> {
  const rig = await startRig({ name: 'card-resume', files: FILES });
  const { client, taskQueue } = rig;
  let runs = 0;

  /** Starts, waits until parked, signals; the signal-to-result wall time and the workflow id. */
  const resumeOnce = async (
    start: () => Promise<WorkflowHandle>,
    parked: (handle: WorkflowHandle) => Promise<string | undefined>,
    check: (result: unknown) => void,
    signal: (handle: WorkflowHandle, cardId: string) => Promise<void>,
  ) => {
    const handle = await start();
    const cardId = await until(() => parked(handle));
    const sent = performance.now();
    await signal(handle, cardId);
    check(await handle.result());
    return { workflowId: handle.workflowId, wall: performance.now() - sent };
  };

  const delegation = () => {
    const id = `cr-${++runs}-${randomUUID().slice(0, 8)}`;
    return resumeOnce(
      () =>
        client.workflow.start('delegation', {
          taskQueue,
          workflowId: delegationWorkflowId('bench', id),
          args: [delegationInput(id, 'approver', `d${runs}`)],
        }),
      async (handle) => (await handle.query(stateQuery)).pendingCards[0]?.id,
      (result) =>
        expect((result as DelegationResult).status === 'completed', 'delegation did not complete'),
      (handle, cardId) => handle.signal(decideCardSignal, { cardId, decision: 'approve' }),
    );
  };
  const bare = () =>
    resumeOnce(
      () =>
        client.workflow.start('bareSignal', {
          taskQueue,
          workflowId: `bare-signal-${++runs}-${randomUUID().slice(0, 8)}`,
          args: ['approver', `b${runs}`],
        }),
      async (handle) => ((await handle.query(bareWaitingQuery)) ? 'bare-card' : undefined),
      (result) => expect(result === 2, 'bare workflow did not run two rounds'),
      (handle, cardId) => handle.signal(bareGoSignal, { cardId, decision: 'approve' }),
    );

  const delegationRuns: Array<{ workflowId: string; wall: number }> = [];
  const bareRuns: Array<{ workflowId: string; wall: number }> = [];
  const rows: BenchRow[] = [];
  await rig.run(async () => {
    for (let index = 0; index < WARMUP; index++) {
      await delegation();
      await bare();
    }
    await alternate(PAIRS, [
      async () => delegationRuns.push(await delegation()),
      async () => bareRuns.push(await bare()),
    ]);
    // History reads after all runs, so they never slow a measured one.
    const times = async (side: typeof delegationRuns) => {
      const all: Resume[] = [];
      for (const run of side) all.push(await resumeTimes(client, run.workflowId, run.wall));
      return all;
    };
    const deputy = await times(delegationRuns);
    const baseline = await times(bareRuns);
    rows.push(...compareRows(deputy, baseline));
  });
  return {
    name: `card decision to resume: delegation vs bare signal-waiting workflow (${PAIRS} alternating pairs, ${WARMUP} warm-up)`,
    rows,
    notes: [
      'signal = decideCard sent by the client once the side is seen parked (query every 10 ms); both sides the same way',
      'history: WorkflowExecutionSignaled -> next ActivityTaskScheduled / ActivityTaskStarted / WorkflowExecutionCompleted; wall: signal sent -> result',
      "the facade's decide() checks the card and run before sending this signal: see start-and-approve",
    ],
  };
}

function compareRows(deputy: Resume[], bare: Resume[]): BenchRow[] {
  const out: BenchRow[] = [];
  const add = (label: string, key: keyof Resume, target?: string) => {
    const d = deputy.map((run) => run[key]);
    const b = bare.map((run) => run[key]);
    for (const [stat, of] of [
      ['p50', median],
      ['p99', (values: number[]) => percentile(values, 99)],
    ] as const) {
      const value = of(d);
      const baseline = of(b);
      out.push({
        metric: `${label} ${stat}`,
        value,
        unit: 'ms',
        baseline,
        ratio: value / baseline,
        ...(stat === 'p50' && target !== undefined ? { target } : {}),
      });
    }
  };
  add('signal -> next activity started (history)', 'started', `<= ${TARGET}`);
  add('signal -> next activity scheduled (history)', 'scheduled');
  add('  of which signal -> workflow task started', 'taskWait');
  add('  of which that workflow task running', 'taskRun');
  out.push({
    metric: '  events that workflow task recorded (its commands) p50',
    value: median(deputy.map((run) => run.commands)),
    unit: 'count',
    baseline: median(bare.map((run) => run.commands)),
    ratio: median(deputy.map((run) => run.commands)) / median(bare.map((run) => run.commands)),
  });
  add('signal -> completed (history)', 'completed');
  add('signal sent -> result (wall)', 'wall');
  return out;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { installQuietRuntime } = await import('./quiet-runtime.js');
  installQuietRuntime();
  const { printReports } = await import('./report.js');
  printReports([await benchCardResume()]);
}

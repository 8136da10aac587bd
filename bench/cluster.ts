/**
 * The `cluster` bench: deputy on the cluster profile (src/servers/cluster/cluster.ts: PostgreSQL,
 * history, matching, frontend and worker as separate processes, 4 history shards), each figure
 * against a baseline measured in the same run:
 *
 * 1. Per-step latency of a 10-round delegation (22 activities, one `read` per round) run back to
 *    back, alternating with the bare baselines of bench/bench-workflows.ts (the same activities in
 *    a bare workflow, as B1 runs them and with local reads; no-op steps, Temporal's floor), on a
 *    cluster with Temporal's DEFAULT dynamic config (an empty file), then on a second one with the
 *    TUNED file (deploy/temporal/dynamicconfig.yaml). B1 on each: the delegation's wall time
 *    against the bare workflow's.
 * 2. Delegations per second: BENCH_CLUSTER_BURST short delegations (scripted, a `write` and a
 *    `read`, full-access so no cards) started at once, drained by one worker process
 *    (bench/capacity-worker.ts), then by two; ratio two / one.
 * 3. Parked capacity of one worker process: BENCH_CLUSTER_PARKED delegations parked on `write`
 *    cards (bench/capacity.ts's parker), time to park and the worker's RSS; then the worker
 *    SIGKILLed and started again and all approved (resume after a restart) against the same
 *    count parked and approved on a warm worker.
 *
 * 2 and 3 run on the tuned cluster and, for comparison, on the dev server as deputy starts it
 * (BENCH_CLUSTER_DEV=0 skips it). The record goes to bench/results/cluster-<date>[-<BENCH_TAG>].json.
 * Each Temporal runs on the same machine as the bench and the workers: on 2 cores they share them.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { bundleWorkflowCode } from '@temporalio/worker';
import { CLUSTER_HISTORY_SHARDS } from '../src/servers/cluster/server-config.js';
import { PROJECT_ROOT } from '../src/config/load.js';
import { delegationWorkflowId, type DelegationResult } from '../src/shared/delegation.js';
import { createDelegations } from '../src/temporal/delegations/facade.js';
import { WORKFLOWS_PATH } from '../src/worker/worker.js';
import { approve, mib, park, seconds, writeWorkspace, type Bench } from './capacity.js';
import {
  killBenchWorker,
  rssMiB,
  spawnBenchWorker,
  type BenchWorker,
  type WorkerEnv,
} from './capacity-process.js';
import { breakdown, historyEvents, merge, type Breakdown } from './history.js';
import { alternate, median, percentile, type BenchReport, type BenchRow } from './stats.js';
import { BLOB_STORE_URL_VARIABLE } from '../src/secrets/environment-secrets.js';
import { delegationInput, startRig, type Rig, type RigOptions } from './temporal-rig.js';

const ROUNDS = 10;
const STEPS = ROUNDS * 2 + 2;
const STEP_RUNS = Number(process.env.BENCH_CLUSTER_STEP_RUNS ?? 10);
const BURST = Number(process.env.BENCH_CLUSTER_BURST ?? 100);
const PARKED = Number(process.env.BENCH_CLUSTER_PARKED ?? 200);
const WITH_DEV_SERVER = process.env.BENCH_CLUSTER_DEV !== '0';
const WARMUP_BURST = 10;

const progress = (line: string): void => void process.stderr.write(`cluster: ${line}\n`);

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`cluster bench: ${what}`);
}

const stepTurns = Array.from(
  { length: ROUNDS },
  (_, index) =>
    `  - text: round ${index + 1}\n    toolCalls: [{ name: read, arguments: { path: note.txt } }]`,
);
/** stepper: step-latency's agent; quick: the throughput phase's, two tool calls and no card. */
const FILES: Record<string, string> = {
  'note.txt': 'a small file to read\n',
  'scripts/steps.yaml': `turns:\n${stepTurns.join('\n')}\n  - text: done\n`,
  '.subagents/agents/stepper.md': `---\nname: stepper\ndescription: benchmark agent, one read per round\nmodel: scripted:scripts/steps.yaml\ntools: [read]\nmaxTurns: ${ROUNDS + 5}\n---\nBench.\n`,
  'scripts/quick.yaml':
    'turns:\n  - text: writing\n    toolCalls: [{ name: write, arguments: { path: "quick/${task}.txt", content: "done\\n" } }]\n  - text: reading\n    toolCalls: [{ name: read, arguments: { path: note.txt } }]\n  - text: done\n',
  '.subagents/agents/quick.md':
    '---\nname: quick\ndescription: writes a file and reads one, no cards\nmodel: scripted:scripts/quick.yaml\ntools: [write, read]\napprovalMode: full-access\nmaxTurns: 5\n---\nQuick.\n',
};

/** The kinds of phase 1, run alternately: deputy's delegation and the three baselines. */
const KINDS = {
  delegation: "deputy's delegation",
  bareRounds: 'bare workflow, same activities (B1)',
  bareLocalReads: 'bare workflow, same activities, reads local',
  floorRounds: "no-op steps, same shape (Temporal's floor)",
} as const;
type Kind = keyof typeof KINDS;

interface Steps {
  /** ms/step from each run's history (first event to completion over 22 steps). */
  perStep: Record<Kind, number[]>;
  /** Wall ms of each run, client start to result. */
  wall: Record<Kind, number[]>;
  delegation: Breakdown;
  load: [number, number];
}

async function measureSteps(rig: Rig): Promise<Steps> {
  const { client, taskQueue } = rig;
  const load0 = loadavg()[0]!;
  let runs = 0;
  const runOnce = async (kind: Kind): Promise<{ id: string; ms: number }> => {
    const suffix = `${++runs}-${randomUUID().slice(0, 8)}`;
    const id =
      kind === 'delegation' ? delegationWorkflowId('bench', `c-${suffix}`) : `${kind}-${suffix}`;
    const args =
      kind === 'delegation'
        ? [delegationInput(`c-${suffix}`, 'stepper', 'bench')]
        : kind === 'floorRounds'
          ? [ROUNDS]
          : ['stepper', 'bench'];
    const started = performance.now();
    const result = await client.workflow.execute(kind, { taskQueue, workflowId: id, args });
    const ms = performance.now() - started;
    if (kind === 'delegation') {
      const done = result as DelegationResult;
      check(done.status === 'completed' && done.roundsUsed === ROUNDS + 1, `bad run ${id}`);
    }
    return { id, ms };
  };
  const kinds = Object.keys(KINDS) as Kind[];
  for (const kind of kinds) await runOnce(kind); // warm-up: bundle, caches, connections
  const ids = Object.fromEntries(kinds.map((kind) => [kind, [] as string[]])) as Record<
    Kind,
    string[]
  >;
  const wall = Object.fromEntries(kinds.map((kind) => [kind, [] as number[]])) as Record<
    Kind,
    number[]
  >;
  await alternate(
    STEP_RUNS,
    kinds.map((kind) => async () => {
      const { id, ms } = await runOnce(kind);
      ids[kind].push(id);
      wall[kind].push(ms);
    }),
  );
  const load1 = loadavg()[0]!;
  // Histories after all runs, so reading them never slows a measured one.
  const perStep = {} as Record<Kind, number[]>;
  let delegation: Breakdown | undefined;
  for (const kind of kinds) {
    const all: Breakdown[] = [];
    for (const id of ids[kind]) {
      const one = breakdown(await historyEvents(client, id));
      check(one.activities === STEPS, `${id} ran ${one.activities} activities, not ${STEPS}`);
      all.push(one);
    }
    perStep[kind] = all.map((one) => one.total / STEPS);
    if (kind === 'delegation') delegation = merge(all);
  }
  return { perStep, wall, delegation: delegation!, load: [load0, load1] };
}

interface Workers {
  /** Delegations per second, one worker and two, BURST started at once. */
  burst: { one: number; two: number; oneMs: number; twoMs: number; stepsPerDelegation: number };
  parked: {
    idleRss: number;
    parkedRss: number;
    parkMs: number;
    restartReadyMs: number;
    coldResumeMs: number;
    warmResumeMs: number;
  };
  load: [number, number];
}

/**
 * Phases 2 and 3 on the rig's Temporal, with workers in their own processes on their own task
 * queue (the rig's in-process worker polls another one and stays idle).
 */
async function measureWorkers(rig: Rig, bundleFile: string, label: string): Promise<Workers> {
  const load0 = loadavg()[0]!;
  await writeWorkspace(rig.workspace);
  const taskQueue = `bench-cluster-${label}-${process.pid}`;
  const worker: WorkerEnv = {
    address: rig.address,
    workspace: rig.workspace,
    // Shared by every worker: on the dev server their file blob store is there.
    userDir: join(rig.root, 'worker-user'),
    taskQueue,
    bundleFile,
    env: rig.blobStoreUrl === null ? {} : { [BLOB_STORE_URL_VARIABLE]: rig.blobStoreUrl },
  };
  const bench: Bench = {
    client: rig.client,
    delegations: createDelegations(rig.client, {
      namespace: 'default',
      taskQueue,
      pollMs: { decide: 50, settle: 100 },
    }),
    worker,
  };
  const alive: BenchWorker[] = [];
  const spawn = async () => {
    const one = await spawnBenchWorker(worker);
    alive.push(one);
    return one;
  };
  const kill = async (one: BenchWorker) => {
    await killBenchWorker(one);
    alive.splice(alive.indexOf(one), 1);
  };
  let bursts = 0;
  // Activities and local activities of one `quick` delegation, read from its history.
  let stepsPerDelegation = 0;
  const burst = async (count: number): Promise<number> => {
    const batch = ++bursts;
    const started = performance.now();
    const handles = await Promise.all(
      Array.from({ length: count }, (_, index) => {
        const id = `${label}-burst${batch}-${index}`;
        return rig.client.workflow.start('delegation', {
          taskQueue,
          workflowId: delegationWorkflowId('bench', id),
          args: [delegationInput(id, 'quick', id)],
        });
      }),
    );
    const results = (await Promise.all(handles.map((one) => one.result()))) as DelegationResult[];
    const ms = performance.now() - started;
    const bad = results.filter((one) => one.status !== 'completed' || one.roundsUsed !== 3);
    check(bad.length === 0, `${bad.length} burst delegations did not complete in 3 rounds`);
    stepsPerDelegation = breakdown(
      await historyEvents(rig.client, handles[0]!.workflowId),
    ).activities;
    return ms;
  };
  try {
    progress(`${label}: ${BURST} at once, one worker`);
    const first = await spawn();
    await burst(WARMUP_BURST);
    const oneMs = await burst(BURST);
    progress(`${label}: ${BURST} at once, two workers`);
    const second = await spawn();
    await burst(WARMUP_BURST); // the second worker's bundle and connections warm too
    const twoMs = await burst(BURST);
    await kill(second);
    await kill(first);

    progress(`${label}: parking ${PARKED}`);
    let parker = await spawn();
    const idleRss = await rssMiB(parker.pid);
    const parkedRun = await park(bench, PARKED, `${label}-parked`);
    // Settled: the last tasks' garbage collected, what the worker holds while it only waits.
    await new Promise((resolve) => setTimeout(resolve, 3000));
    const parkedRss = await rssMiB(parker.pid);
    progress(`${label}: ${PARKED} parked, RSS ${parkedRss.toFixed(0)} MiB; restart and resume`);
    await kill(parker);
    parker = await spawn();
    const restartReadyMs = parker.readyMs;
    const coldResumeMs = await approve(bench, parkedRun.parked);
    progress(`${label}: warm baseline`);
    const warm = await park(bench, PARKED, `${label}-warm`);
    const warmResumeMs = await approve(bench, warm.parked);
    await kill(parker);
    return {
      burst: {
        one: BURST / (oneMs / 1000),
        two: BURST / (twoMs / 1000),
        oneMs,
        twoMs,
        stepsPerDelegation,
      },
      parked: {
        idleRss,
        parkedRss,
        parkMs: parkedRun.ms,
        restartReadyMs,
        coldResumeMs,
        warmResumeMs,
      },
      load: [load0, loadavg()[0]!],
    };
  } finally {
    for (const one of [...alive]) await killBenchWorker(one).catch(() => {});
  }
}

const round = (value: number, digits = 2): number => Number(value.toFixed(digits));

function stepRows(label: string, steps: Steps): BenchRow[] {
  const of = (kind: Kind) => median(steps.perStep[kind]);
  const rows: BenchRow[] = [];
  for (const kind of ['bareLocalReads', 'floorRounds'] as const) {
    rows.push({
      metric: `${label}: delegation ms/step (history) vs ${KINDS[kind]}`,
      value: round(of('delegation')),
      unit: 'ms',
      baseline: round(of(kind)),
      ratio: round(of('delegation') / of(kind), 3),
    });
  }
  rows.push(
    {
      metric: `${label}: delegation ms/step p99 (history)`,
      value: round(percentile(steps.perStep.delegation, 99)),
      unit: 'ms',
    },
    {
      metric: `${label}: B1 delegation median (wall) vs bare workflow`,
      value: round(median(steps.wall.delegation), 1),
      unit: 'ms',
      baseline: round(median(steps.wall.bareRounds), 1),
      ratio: round(median(steps.wall.delegation) / median(steps.wall.bareRounds), 3),
    },
    {
      metric: `${label}: B1 delegation p99 (wall) vs bare workflow`,
      value: round(percentile(steps.wall.delegation, 99), 1),
      unit: 'ms',
      baseline: round(percentile(steps.wall.bareRounds, 99), 1),
      ratio: round(
        percentile(steps.wall.delegation, 99) / percentile(steps.wall.bareRounds, 99),
        3,
      ),
    },
  );
  const part = (name: string, values: number[]) =>
    rows.push({
      metric: `${label}: delegation ${name} p50`,
      value: round(median(values)),
      unit: 'ms',
    });
  part('workflow task schedule-to-start', steps.delegation.workflowTaskWait);
  part('workflow task activation', steps.delegation.workflowTaskRun);
  part('activity dispatch (scheduled-to-started)', steps.delegation.activityWait);
  part('turnaround (activity completed -> next scheduled)', steps.delegation.turnaround);
  return rows;
}

function workerRows(label: string, workers: Workers): BenchRow[] {
  const { burst, parked } = workers;
  return [
    {
      metric: `${label}: delegations/s, ${BURST} at once, two workers vs one`,
      value: round(burst.two),
      unit: '/s',
      baseline: round(burst.one),
      ratio: round(burst.two / burst.one, 3),
    },
    {
      metric: `${label}: steps/s, ${BURST} at once, two workers vs one (${burst.stepsPerDelegation} steps a delegation)`,
      value: round(burst.two * burst.stepsPerDelegation, 1),
      unit: '/s',
      baseline: round(burst.one * burst.stepsPerDelegation, 1),
      ratio: round(burst.two / burst.one, 3),
    },
    {
      metric: `${label}: ${BURST} at once, one worker, start to last result`,
      value: seconds(burst.oneMs),
      unit: 's',
    },
    {
      metric: `${label}: ${BURST} at once, two workers, start to last result`,
      value: seconds(burst.twoMs),
      unit: 's',
    },
    { metric: `${label}: time to park ${PARKED}`, value: seconds(parked.parkMs), unit: 's' },
    {
      metric: `${label}: park rate`,
      value: round(PARKED / (parked.parkMs / 1000), 1),
      unit: '/s',
    },
    { metric: `${label}: worker RSS, idle`, value: mib(parked.idleRss), unit: 'MiB' },
    {
      metric: `${label}: worker RSS at ${PARKED} parked`,
      value: mib(parked.parkedRss),
      unit: 'MiB',
    },
    {
      metric: `${label}: RSS per parked delegation`,
      value: round(((parked.parkedRss - parked.idleRss) * 1024) / PARKED, 1),
      unit: 'KiB',
    },
    {
      metric: `${label}: worker restart to ready`,
      value: seconds(parked.restartReadyMs),
      unit: 's',
    },
    {
      metric: `${label}: resume ${PARKED} after SIGKILL + restart vs on a warm worker`,
      value: seconds(parked.coldResumeMs),
      unit: 's',
      baseline: seconds(parked.warmResumeMs),
      ratio: round(parked.coldResumeMs / parked.warmResumeMs),
    },
  ];
}

/** Runs `body` on a fresh rig, tearing it down after. */
async function onRig<T>(options: RigOptions, body: (rig: Rig) => Promise<T>): Promise<T> {
  const started = performance.now();
  const rig = await startRig(options);
  progress(`${options.name}: up in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return rig.run(() => body(rig));
}

export async function benchCluster(): Promise<BenchReport> {
  const load = { start: loadavg()[0]!, end: 0 };
  const root = await mkdtemp(join(tmpdir(), 'deputy-bench-cluster-'));
  try {
    // Temporal's defaults: a dynamic config file with nothing in it.
    const emptyConfig = join(root, 'dynamicconfig-empty.yaml');
    await writeFile(emptyConfig, "# empty: Temporal's defaults\n");
    const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    const bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: silent });
    const bundleFile = join(root, 'workflow-bundle.js');
    await writeFile(bundleFile, bundle.code);

    progress('cluster, default dynamic config: steps');
    const defaults = await onRig(
      {
        name: 'cluster-default',
        files: FILES,
        temporal: { kind: 'cluster', dynamicConfigFile: emptyConfig },
      },
      measureSteps,
    );
    progress('cluster, tuned dynamic config: steps, workers');
    const tuned = await onRig(
      { name: 'cluster-tuned', files: FILES, temporal: { kind: 'cluster' } },
      async (rig) => ({
        steps: await measureSteps(rig),
        workers: await measureWorkers(rig, bundleFile, 'cluster'),
      }),
    );
    let dev: Workers | undefined;
    if (WITH_DEV_SERVER) {
      progress('dev server: workers');
      dev = await onRig({ name: 'cluster-dev', files: FILES }, (rig) =>
        measureWorkers(rig, bundleFile, 'dev'),
      );
    }
    load.end = loadavg()[0]!;

    /** One figure against its baseline of the same run. */
    const against = (metric: string, value: number, baseline: number, unit: string): BenchRow => ({
      metric,
      value: round(value),
      unit,
      baseline: round(baseline),
      ratio: round(value / baseline, 3),
    });
    const rows: BenchRow[] = [
      ...stepRows('default', defaults),
      ...stepRows('tuned', tuned.steps),
      against(
        'default vs tuned: delegation ms/step (history)',
        median(defaults.perStep.delegation),
        median(tuned.steps.perStep.delegation),
        'ms',
      ),
      against(
        'default vs tuned: floor ms/step (history)',
        median(defaults.perStep.floorRounds),
        median(tuned.steps.perStep.floorRounds),
        'ms',
      ),
      ...workerRows('cluster', tuned.workers),
    ];
    if (dev !== undefined) {
      rows.push(...workerRows('dev server', dev));
      rows.push(
        against(
          'cluster vs dev server: delegations/s, one worker',
          tuned.workers.burst.one,
          dev.burst.one,
          '/s',
        ),
        against(
          `cluster vs dev server: time to park ${PARKED}`,
          tuned.workers.parked.parkMs / 1000,
          dev.parked.parkMs / 1000,
          's',
        ),
        against(
          `cluster vs dev server: resume ${PARKED} after restart`,
          tuned.workers.parked.coldResumeMs / 1000,
          dev.parked.coldResumeMs / 1000,
          's',
        ),
      );
    }
    const loads = (what: string, [a, b]: [number, number]) =>
      `${what} ${a.toFixed(2)} -> ${b.toFixed(2)}`;
    const notes = [
      `${cpus().length} cores shared by PostgreSQL, the four Temporal services, the bench and its workers; 1-minute load average ${load.start.toFixed(2)} at start, ${load.end.toFixed(2)} at end (${[
        loads('default steps', defaults.load),
        loads('tuned steps', tuned.steps.load),
        loads('cluster workers', tuned.workers.load),
        ...(dev === undefined ? [] : [loads('dev-server workers', dev.load)]),
      ].join('; ')})`,
      `cluster profile: ${CLUSTER_HISTORY_SHARDS} history shards, PostgreSQL; default = an empty dynamic config file (queue processors polled at most 20/s per shard), tuned = deploy/temporal/dynamicconfig.yaml (10 000/s)`,
      `phase 1: ${STEP_RUNS} runs of each kind, alternating, after one warm-up each; ${STEPS} steps a run (resolveAgent, callModel + read per round, a last callModel); ms/step (history) = first event to completion / ${STEPS}; B1 = wall time, client start to result; one in-process worker (deputy's tuning), blobs in the cluster's PostgreSQL`,
      `phase 2: ${BURST} delegations of agent quick (a write, a read, full-access) started at once after a ${WARMUP_BURST}-delegation warm-up; worker processes = bench/capacity-worker.ts (deputy's worker runtime), on one task queue`,
      `phase 3: ${PARKED} parked on write cards (bench/capacity.ts's parker, 16 starts/approvals in flight), RSS of the worker process (VmRSS) 3 s after the last park; resume = approve all, each run to completion, after SIGKILL + restart vs the same count parked and approved on a warm worker; all within the worker's cache (1 000)`,
      WITH_DEV_SERVER
        ? 'dev server: temporal server start-dev as deputy starts it (raised poll limits, SQLite), same workers and agents'
        : 'dev server comparison skipped (BENCH_CLUSTER_DEV=0)',
    ];
    const record = {
      date: new Date().toISOString(),
      cores: cpus().length,
      loadAverage: load,
      historyShards: CLUSTER_HISTORY_SHARDS,
      settings: { stepRuns: STEP_RUNS, burst: BURST, parked: PARKED, devServer: WITH_DEV_SERVER },
      rows,
      notes,
      samples: {
        default: { perStep: defaults.perStep, wall: defaults.wall },
        tuned: { perStep: tuned.steps.perStep, wall: tuned.steps.wall },
        clusterWorkers: tuned.workers,
        ...(dev === undefined ? {} : { devServerWorkers: dev }),
      },
    };
    const file = await writeRecord(record);
    notes.push(`record: ${file}`);
    return {
      name: `cluster profile (${CLUSTER_HISTORY_SHARDS} shards): per-step latency default vs tuned, B1, delegations/s with one and two workers, ${PARKED} parked per worker`,
      rows,
      notes,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

async function writeRecord(record: object): Promise<string> {
  const tag = process.env.BENCH_TAG ? `-${process.env.BENCH_TAG}` : '';
  const directory = join(PROJECT_ROOT, 'bench', 'results');
  await mkdir(directory, { recursive: true });
  const file = join(directory, `cluster-${new Date().toISOString().slice(0, 10)}${tag}.json`);
  await writeFile(file, `${JSON.stringify(record, null, 2)}\n`);
  return file;
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { installQuietRuntime } = await import('./quiet-runtime.js');
  installQuietRuntime();
  const { printReports } = await import('./report.js');
  printReports([await benchCluster()], 'cluster');
}

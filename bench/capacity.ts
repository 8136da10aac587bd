/**
 * The `capacity` bench: how many delegations parked on approval cards one worker holds, and what it
 * costs. A real dev server; the worker in its own process (bench/capacity-worker.ts), its RSS read
 * from /proc. A scripted agent whose first turn calls `write`, which the default approval mode puts
 * on a card. Phases, in one run:
 *
 * 1. Park BENCH_PARKED (default 10 000) through the Delegations facade, BENCH_CONCURRENCY at a
 *    time, sampling the worker's RSS every BENCH_SAMPLE_EVERY parked. Target: RSS <= 1 GiB.
 * 2. History bytes of a few parked delegations (the encoded protobuf a replay fetches).
 * 3. Approve every one, each run to completion: time to drain.
 * 4. 100 parked and approved on the warm worker (baseline); 100 parked, the worker SIGKILLed and
 *    started again, approved: time to completion. Target: cold / warm <= 2.0. Again with the
 *    worker down 11 s, past the server's sticky-poller window.
 * 5. A worker with a small workflow cache: RSS at the same parked count, and the time to resume
 *    100 delegations that all replay (out of the cache) against the warm baseline.
 *
 * Samples go to bench/results/capacity-<date>[-<BENCH_TAG>].json and a chart (.svg) beside it.
 * park, approve and the parker agent are reused by bench/cluster.ts (the same on a cluster).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { PROJECT_ROOT } from '../src/config/load.js';
import { DeputyError } from '../src/errors.js';
import { ANONYMOUS_CALLER } from '../src/shared/caller.js';
import type { DelegationResult } from '../src/shared/delegation.js';
import { createDelegations, type Delegations } from '../src/temporal/delegations/facade.js';
import { startDevServer } from '../src/servers/dev/dev-server.js';
import { WORKFLOWS_PATH } from '../src/worker/worker.js';
import { WORKER_TUNING_DEFAULTS } from '../src/config/worker-tuning.js';
import { renderChart } from './capacity-chart.js';
import { historySize } from './history-bytes.js';
import {
  killBenchWorker,
  rssMiB,
  spawnBenchWorker,
  type BenchWorker,
  type WorkerEnv,
} from './capacity-process.js';
import { median, type BenchReport, type BenchRow } from './stats.js';

const PARKED = Number(process.env.BENCH_PARKED ?? 10_000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 16);
const SAMPLE_EVERY = Number(
  process.env.BENCH_SAMPLE_EVERY ?? Math.min(250, Math.max(25, Math.round(PARKED / 20))),
);
/** The main worker's cache; unset: deputy's default (src/config/worker-tuning.ts). */
const MAIN_CACHE = process.env.BENCH_CACHE;
const RESTART_BATCH = 100;
const SMALL_CACHE = Number(process.env.BENCH_SMALL_CACHE ?? 100);
const VARIANT_PARKED = Math.min(PARKED, Number(process.env.BENCH_VARIANT_PARKED ?? 1000));
const HISTORIES = 5;
const SESSION = 'capacity';
const GIB_MIB = 1024;
const RESTART_TARGET = 2.0;
/**
 * Temporal's matching service treats a sticky queue nobody polled for this long as gone and
 * hands its tasks to the normal queue at once (a constant of the server, not dynamic config).
 */
const STICKY_POLLER_WINDOW_MS = 10_000;

export interface Parked {
  delegationId: string;
  workflowId: string;
  cardId: string;
}

interface Sample {
  parked: number;
  rssMiB: number;
  elapsedMs: number;
}

const progress = (line: string): void => void process.stderr.write(`capacity: ${line}\n`);

function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`capacity: ${what}`);
}

/**
 * `work`, tried up to five times: on two shared cores an RPC now and then times out, and one of
 * 10 000 should not lose the run. The last error is thrown, naming what failed.
 */
async function patiently<T>(what: string, work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await work();
    } catch (error) {
      if (attempt === 5) throw new Error(`capacity: ${what}: ${String(error)}`, { cause: error });
      progress(`${what} failed (${String(error)}), trying again`);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  }
}

/** Runs `work` on every item, at most `concurrency` at a time. */
export async function pool<T>(
  items: T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, lane));
}

export interface Bench {
  delegations: Delegations;
  client: Client;
  worker: WorkerEnv;
}

export async function park(
  bench: Bench,
  count: number,
  prefix: string,
  onParked?: (parked: number) => Promise<void>,
): Promise<{ parked: Parked[]; ms: number }> {
  const parked: Parked[] = [];
  const started = performance.now();
  await pool(
    Array.from({ length: count }, (_, index) => index),
    CONCURRENCY,
    async (index) => {
      // A fixed id: a start retried after a timeout that did reach Temporal finds its own run.
      const delegationId = `${prefix}-${index}`;
      const workflowId = await patiently(`starting ${delegationId}`, async () => {
        try {
          return (
            await bench.delegations.start({
              agent: 'parker',
              task: delegationId,
              session: SESSION,
              caller: ANONYMOUS_CALLER,
              options: {},
              delegationId,
            })
          ).workflowId;
        } catch (error) {
          if (error instanceof DeputyError && error.kind === 'conflict') {
            return bench.delegations.find(delegationId);
          }
          throw error;
        }
      });
      const settled = await patiently(`settling ${delegationId}`, async () => {
        const now = await bench.delegations.settle(delegationId);
        // `running`: the facade saw no live worker for a moment (a loaded machine); look again.
        if (now.status === 'running') throw new Error(now.message);
        return now;
      });
      const card = settled.status === 'parked' ? settled.state.pendingCards[0] : undefined;
      check(card?.tool === 'write', `${delegationId} did not park on its write card`);
      parked.push({ delegationId, workflowId, cardId: card.id });
      await onParked?.(parked.length);
    },
  );
  return { parked, ms: performance.now() - started };
}

/** Approves every card and waits for every delegation's result: milliseconds for all. */
export async function approve(bench: Bench, parked: Parked[]): Promise<number> {
  const started = performance.now();
  await pool(parked, CONCURRENCY, async (one) => {
    // `recorded` (no worker applied it within the facade's wait) is fine: the signal is stored
    // and applies when a worker picks the delegation up; the result below waits for that.
    let attempts = 0;
    await patiently(`approving ${one.cardId}`, async () => {
      try {
        attempts++;
        await bench.delegations.decide(one.cardId, { decision: 'approve', decidedBy: null });
      } catch (error) {
        // A retry of a decision that did reach Temporal (the first answer timed out): it is
        // stored or applied already, so the card is taken or gone; the result says the rest.
        const landed =
          error instanceof DeputyError &&
          (error.kind === 'conflict' || (attempts > 1 && error.kind === 'not-found'));
        if (!landed) throw error;
      }
    });
    const result = (await bench.client.workflow
      .getHandle(one.workflowId)
      .result()) as DelegationResult;
    check(result.status === 'completed', `${one.delegationId} ended ${result.status}`);
  });
  return performance.now() - started;
}

export async function writeWorkspace(workspace: string): Promise<void> {
  await mkdir(join(workspace, '.subagents', 'agents'), { recursive: true });
  await mkdir(join(workspace, 'scripts'), { recursive: true });
  // One `write`: the default approval mode opens a card for it; approved, it runs, then the
  // model answers. No `approvalMode` in the definition: the default is what is measured.
  await writeFile(
    join(workspace, 'scripts', 'park.yaml'),
    'turns:\n  - text: writing\n    toolCalls: [{ name: write, arguments: { path: "out/${task}.txt", content: "approved\\n" } }]\n  - text: done\n',
  );
  await writeFile(
    join(workspace, '.subagents', 'agents', 'parker.md'),
    '---\nname: parker\ndescription: writes one file, after approval\nmodel: scripted:scripts/park.yaml\ntools: [write]\nmaxTurns: 4\n---\nWrite the file.\n',
  );
}

export const seconds = (ms: number): number => Number((ms / 1000).toFixed(2));
export const mib = (value: number): number => Number(value.toFixed(1));

/** The sample at `parked` or the last one before it. */
function rssAt(samples: Sample[], parked: number): number | undefined {
  return samples.filter((sample) => sample.parked <= parked).at(-1)?.rssMiB;
}

export async function benchCapacity(): Promise<BenchReport> {
  const root = await mkdtemp(join(tmpdir(), 'deputy-bench-capacity-'));
  const workspace = join(root, 'workspace');
  await writeWorkspace(workspace);
  const load = { start: loadavg()[0]!, end: 0 };
  const server = await startDevServer({ dataDir: join(root, 'data'), headless: true });
  const workers: BenchWorker[] = [];
  // In this order: the workers go before the server, the files after both.
  const stops: Array<() => Promise<void>> = [
    async () => {
      for (const worker of workers) await killBenchWorker(worker);
    },
    () => server.stop(),
    () => rm(root, { recursive: true, force: true }),
  ];
  try {
    const silent = { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    const bundle = await bundleWorkflowCode({ workflowsPath: WORKFLOWS_PATH, logger: silent });
    const bundleFile = join(root, 'workflow-bundle.js');
    await writeFile(bundleFile, bundle.code);
    const connection = await Connection.connect({ address: server.address });
    stops.splice(1, 0, () => connection.close());
    const client = new Client({ connection, namespace: 'default' });
    const taskQueue = `bench-capacity-${process.pid}`;
    const bench: Bench = {
      client,
      delegations: createDelegations(client, {
        namespace: 'default',
        taskQueue,
        pollMs: { decide: 50, settle: 100 },
      }),
      worker: {
        address: server.address,
        workspace,
        userDir: join(root, 'user'),
        taskQueue,
        bundleFile,
      },
    };
    const spawnWith = async (tuning: Record<string, string> = {}): Promise<BenchWorker> => {
      const worker = await spawnBenchWorker({ ...bench.worker, tuning });
      workers.push(worker);
      return worker;
    };
    const mainTuning: Record<string, string> =
      MAIN_CACHE === undefined ? {} : { DEPUTY_WORKER_MAX_CACHED_WORKFLOWS: MAIN_CACHE };
    const mainCache =
      MAIN_CACHE === undefined ? WORKER_TUNING_DEFAULTS.maxCachedWorkflows : Number(MAIN_CACHE);

    // 1. Park them all, sampling RSS as the count grows.
    let worker = await spawnWith(mainTuning);
    const started = performance.now();
    const samples: Sample[] = [{ parked: 0, rssMiB: await rssMiB(worker.pid), elapsedMs: 0 }];
    const sample = async (parked: number): Promise<void> => {
      const value = await rssMiB(worker.pid);
      samples.push({ parked, rssMiB: value, elapsedMs: performance.now() - started });
      progress(`${parked} parked, worker RSS ${value.toFixed(0)} MiB`);
      // The curve so far on disk: a run stopped half-way still leaves its samples and chart.
      if (parked % (SAMPLE_EVERY * 4) === 0) {
        await writeResults({ partial: true, parked, samples }, samples, mainCache);
      }
    };
    const main = await park(bench, PARKED, 'main', async (parked) => {
      if (parked % SAMPLE_EVERY === 0 || parked === PARKED) await sample(parked);
    });
    // Settled: the last tasks' garbage collected, what the worker holds while it only waits.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const settledRss = await rssMiB(worker.pid);

    progress('histories');
    // 2. What one parked delegation's history weighs.
    const histories = await Promise.all(
      main.parked
        .slice(0, HISTORIES)
        .map(async (one) =>
          historySize(await client.workflow.getHandle(one.workflowId).fetchHistory()),
        ),
    );

    progress('drain');
    // 3. Every one resumable: approve all, all complete.
    const drainMs = await approve(bench, main.parked);
    const drainedRss = await rssMiB(worker.pid);

    progress('restart');
    // 4. Warm baseline, then the same on a worker killed while they are parked.
    const warm = await park(bench, RESTART_BATCH, 'warm');
    const warmMs = await approve(bench, warm.parked);
    const cold = await park(bench, RESTART_BATCH, 'cold');
    await killBenchWorker(worker);
    worker = await spawnWith(mainTuning);
    const coldMs = await approve(bench, cold.parked);
    // The same with the worker down past Temporal's sticky-poller window: the killed worker's
    // sticky queue then counts as gone, and the steps go straight to the restarted worker.
    const late = await park(bench, RESTART_BATCH, 'late');
    await killBenchWorker(worker);
    await new Promise((resolve) => setTimeout(resolve, STICKY_POLLER_WINDOW_MS + 1000));
    worker = await spawnWith(mainTuning);
    const lateMs = await approve(bench, late.parked);
    await killBenchWorker(worker);

    progress('small cache');
    // 5. A small cache: RSS at the same count, and resumes that all replay.
    worker = await spawnWith({ DEPUTY_WORKER_MAX_CACHED_WORKFLOWS: String(SMALL_CACHE) });
    const smallStart = await rssMiB(worker.pid);
    const small = await park(bench, VARIANT_PARKED, 'small');
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const smallRss = await rssMiB(worker.pid);
    // The oldest parked are out of a cache this small: each resume replays its history.
    const smallResumeMs = await approve(bench, small.parked.slice(0, RESTART_BATCH));
    load.end = loadavg()[0]!;

    const atParked = rssAt(samples, PARKED)!;
    const idle = samples[0]!.rssMiB;
    const slopeFrom =
      samples.find((one) => one.parked >= Math.min(mainCache, PARKED)) ?? samples[0]!;
    const bytes = median(histories.map((one) => one.bytes));
    const rows: BenchRow[] = [
      { metric: 'worker RSS, idle', value: mib(idle), unit: 'MiB' },
      ...[1000, 5000]
        .filter((count) => count < PARKED)
        .map((count) => ({
          metric: `worker RSS at ${count} parked`,
          value: mib(rssAt(samples, count)!),
          unit: 'MiB',
        })),
      {
        metric: `worker RSS at ${PARKED} parked`,
        value: mib(atParked),
        unit: 'MiB',
        target: `<= ${GIB_MIB}`,
      },
      { metric: `worker RSS ${PARKED} parked, settled 5 s`, value: mib(settledRss), unit: 'MiB' },
      {
        metric: 'RSS per parked delegation (whole run)',
        value: Number((((atParked - idle) * 1024) / PARKED).toFixed(1)),
        unit: 'KiB',
      },
      { metric: `time to park ${PARKED}`, value: seconds(main.ms), unit: 's' },
      { metric: 'park rate', value: Number((PARKED / (main.ms / 1000)).toFixed(1)), unit: '/s' },
      { metric: `time to approve and drain ${PARKED}`, value: seconds(drainMs), unit: 's' },
      { metric: 'worker RSS after drain', value: mib(drainedRss), unit: 'MiB' },
      {
        metric: `resume ${RESTART_BATCH} after SIGKILL + restart`,
        value: seconds(coldMs),
        unit: 's',
        baseline: seconds(warmMs),
        ratio: Number((coldMs / warmMs).toFixed(2)),
        target: `<= ${RESTART_TARGET}`,
      },
      {
        metric: `resume ${RESTART_BATCH} after SIGKILL, ${STICKY_POLLER_WINDOW_MS / 1000 + 1} s down, restart`,
        value: seconds(lateMs),
        unit: 's',
        baseline: seconds(warmMs),
        ratio: Number((lateMs / warmMs).toFixed(2)),
        target: `<= ${RESTART_TARGET}`,
      },
      { metric: 'worker restart to ready', value: seconds(worker.readyMs), unit: 's' },
      { metric: 'history per parked delegation', value: bytes, unit: 'bytes' },
      {
        metric: 'history events per parked delegation',
        value: median(histories.map((one) => one.events)),
        unit: 'events',
      },
      {
        metric: `RSS at ${VARIANT_PARKED} parked, cache ${SMALL_CACHE}`,
        value: mib(smallRss),
        unit: 'MiB',
        baseline: mib(rssAt(samples, VARIANT_PARKED)!),
        ratio: Number((smallRss / rssAt(samples, VARIANT_PARKED)!).toFixed(2)),
      },
      {
        metric: `resume ${RESTART_BATCH} out of a ${SMALL_CACHE} cache (replays)`,
        value: seconds(smallResumeMs),
        unit: 's',
        baseline: seconds(warmMs),
        ratio: Number((smallResumeMs / warmMs).toFixed(2)),
      },
    ];
    const topTypes = histories[0]!.byType
      .slice(0, 4)
      .map((one) => `${one.type} ${one.bytes} B`)
      .join(', ');
    const notes = [
      `${cpus().length} cores shared with other work: load average ${load.start.toFixed(2)} at start, ${load.end.toFixed(2)} at end; dev server, bench and worker on the same machine`,
      `main worker: maxCachedWorkflows ${mainCache}${MAIN_CACHE === undefined ? " (deputy's default)" : ' (BENCH_CACHE)'}, ${CONCURRENCY} starts/approvals in flight, RSS sampled every ${SAMPLE_EVERY} parked`,
      `RSS slope past the cache size (${slopeFrom.parked} -> ${PARKED}): ${(((atParked - slopeFrom.rssMiB) * 1024) / Math.max(1, PARKED - slopeFrom.parked)).toFixed(1)} KiB per parked delegation`,
      `small-cache worker: ${mib(smallStart)} MiB idle, ${mib(smallRss)} MiB at ${VARIANT_PARKED} parked`,
      `history of a parked delegation, largest event types: ${topTypes}`,
      `RSS of the worker process alone (/proc/<pid>/status VmRSS), tsx loader included`,
    ];
    const record = {
      date: new Date().toISOString(),
      parked: PARKED,
      concurrency: CONCURRENCY,
      cores: cpus().length,
      loadAverage: load,
      mainCache,
      smallCache: SMALL_CACHE,
      samples,
      histories,
      rows,
      notes,
    };
    const files = await writeResults(record, samples, mainCache);
    notes.push(`samples: ${files.json}, chart: ${files.svg}`);
    return {
      name: `capacity: ${PARKED} delegations parked on approval cards in one worker process`,
      rows,
      notes,
    };
  } catch (error) {
    // Said before the teardown: closing the connection under pending retries throws its own
    // 'Channel has been shut down', which would hide this one.
    progress(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    throw error;
  } finally {
    for (const stop of stops) await stop().catch(() => {});
  }
}

async function writeResults(
  record: object,
  samples: Sample[],
  cache: number,
): Promise<{ json: string; svg: string }> {
  const tag = process.env.BENCH_TAG ? `-${process.env.BENCH_TAG}` : '';
  const base = join(
    PROJECT_ROOT,
    'bench',
    'results',
    `capacity-${new Date().toISOString().slice(0, 10)}${tag}`,
  );
  await mkdir(join(PROJECT_ROOT, 'bench', 'results'), { recursive: true });
  await writeFile(`${base}.json`, `${JSON.stringify(record, null, 2)}\n`);
  const svg = renderChart(
    [
      {
        label: `worker RSS (maxCachedWorkflows ${cache})`,
        color: '#1f5fa8',
        points: samples.map((one) => ({ x: one.parked, y: one.rssMiB })),
      },
    ],
    {
      title: 'deputy worker RSS by delegations parked on approval cards',
      xLabel: 'delegations parked',
      yLabel: 'worker RSS (MiB)',
      limit: { y: GIB_MIB, label: '1 GiB target' },
    },
  );
  await writeFile(`${base}.svg`, svg);
  return { json: `${base}.json`, svg: `${base}.svg` };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const report = await benchCapacity();
  console.log(report.name);
  for (const row of report.rows ?? []) {
    const against =
      row.baseline === undefined ? '' : ` (baseline ${row.baseline}, ratio ${row.ratio})`;
    console.log(
      `  ${row.metric}: ${row.value} ${row.unit}${against}${row.target ? ` target ${row.target}` : ''}`,
    );
  }
  for (const note of report.notes ?? []) console.log(`  - ${note}`);
}

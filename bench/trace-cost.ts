/**
 * What tracing costs a step: step-latency's 10-round delegation (22 activities) run
 * back to back, rotating between an untraced worker, a traced one and a second untraced one (an
 * A/A control: what it "adds" is the measurement's own spread) on the same dev server.
 * The traced worker runs Temporal's interceptors and deputy's spans and exports every span over
 * OTLP (http/protobuf, batched as in production) to a loopback receiver that reads each request
 * and answers 200, so the figure is deputy's side of tracing, not a trace store's CPU on the
 * same two cores. Target: tracing adds at most 5 % a step (the median over adjacent pairs). Off
 * costs nothing by construction: an untraced worker loads no OpenTelemetry SDK and bundles no
 * interceptor.
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { delegationWorkflowId, type DelegationResult } from '../src/shared/delegation.js';
import { tracingFromEnvironment } from '../src/tracing/provider.js';
import { historyEvents, breakdown } from './history.js';
import { median, percentile, type BenchReport, type BenchRow } from './stats.js';
import { ROUNDS, STEPPER_FILES, STEPS } from './step-latency.js';
import { delegationInput, startRig } from './temporal-rig.js';

/** Rounds of three; a multiple of six runs each order of ORDERS equally often. */
const RUNS = Number(process.env.BENCH_TRACE_RUNS ?? 18);
const WARMUP = 2;

/** The untraced worker, the traced one, and a second untraced one (the A/A control). */
type Side = 'plain' | 'traced' | 'control';
const SIDES: readonly Side[] = ['plain', 'traced', 'control'];
/** The six orders of three: each side first, second and last equally often. */
const ORDERS: ReadonlyArray<readonly Side[]> = [
  ['plain', 'traced', 'control'],
  ['traced', 'control', 'plain'],
  ['control', 'plain', 'traced'],
  ['plain', 'control', 'traced'],
  ['control', 'traced', 'plain'],
  ['traced', 'plain', 'control'],
];

interface Run {
  workflowId: string;
  wall: number;
  cpu: number;
}

export async function benchTraceCost(): Promise<BenchReport> {
  const receiver = await startOtlpReceiver();
  process.env.OTEL_EXPORTER_OTLP_ENDPOINT = receiver.url;
  const tracing = await tracingFromEnvironment('worker');
  if (tracing === null) throw new Error('trace-cost: tracing did not start');
  const rig = await startRig({ name: 'trace-cost', files: STEPPER_FILES, tracing, control: true });
  const { client } = rig;
  const queues: Record<Side, string> = {
    plain: rig.taskQueue,
    traced: rig.tracedTaskQueue!,
    control: rig.controlTaskQueue!,
  };
  let runs = 0;
  const once = async (side: Side): Promise<Run> => {
    const id = `t-${++runs}-${randomUUID().slice(0, 8)}`;
    const started = performance.now();
    const cpuBefore = process.cpuUsage();
    const handle = await client.workflow.start('delegation', {
      taskQueue: queues[side],
      workflowId: delegationWorkflowId('bench', id),
      args: [delegationInput(id, 'stepper', 'bench')],
    });
    const result = (await handle.result()) as DelegationResult;
    const wall = (performance.now() - started) / STEPS;
    const cpuUsed = process.cpuUsage(cpuBefore);
    const cpu = (cpuUsed.user + cpuUsed.system) / 1000 / STEPS;
    if (result.status !== 'completed' || result.roundsUsed !== ROUNDS + 1) {
      throw new Error(`trace-cost: ${id} did not complete as scripted`);
    }
    return { workflowId: handle.workflowId, wall, cpu };
  };
  const measured = await rig.run(async () => {
    for (let index = 0; index < WARMUP; index++) {
      for (const side of SIDES) await once(side);
    }
    const sides: Record<Side, Run[]> = { plain: [], traced: [], control: [] };
    for (let index = 0; index < RUNS; index++) {
      // Each side takes each place in the order equally often: drift falls on all alike.
      for (const side of ORDERS[index % ORDERS.length]!) sides[side].push(await once(side));
    }
    await tracing.flush();
    const measure = async (runs: Run[]) => {
      const history: number[] = [];
      for (const { workflowId } of runs) {
        history.push(breakdown(await historyEvents(client, workflowId)).total / STEPS);
      }
      return { history, wall: runs.map((one) => one.wall), cpu: runs.map((one) => one.cpu) };
    };
    return {
      plain: await measure(sides.plain),
      traced: await measure(sides.traced),
      control: await measure(sides.control),
    };
  });
  await receiver.close();
  delete process.env.OTEL_EXPORTER_OTLP_ENDPOINT;
  const { plain, traced, control } = measured;
  const history = { plain: median(plain.history), traced: median(traced.history) };
  const tracedPairs = pairRatios(traced.history, plain.history);
  const controlPairs = pairRatios(control.history, plain.history);
  const wall = { plain: median(plain.wall), traced: median(traced.wall) };
  const cpu = {
    plain: median(plain.cpu),
    traced: median(traced.cpu),
    control: median(control.cpu),
  };
  return {
    name: `trace cost: ${ROUNDS}-round delegation (${STEPS} activities), ${RUNS} runs each, an untraced, a traced and an A/A control worker rotating on one dev server`,
    rows: [
      { metric: 'untraced ms/step (history)', value: history.plain, unit: 'ms' },
      {
        metric: 'traced ms/step (history) vs untraced',
        value: history.traced,
        unit: 'ms',
        baseline: history.plain,
        ratio: history.traced / history.plain,
      },
      ...pairRows('what tracing adds a step (history)', tracedPairs, '<= 5'),
      ...pairRows('A/A control: what a second untraced worker adds', controlPairs),
      {
        metric: 'traced ms/step p99 (history)',
        value: percentile(traced.history, 99),
        unit: 'ms',
      },
      {
        metric: 'traced ms/step (wall) vs untraced',
        value: wall.traced,
        unit: 'ms',
        baseline: wall.plain,
        ratio: wall.traced / wall.plain,
      },
      {
        metric: 'traced CPU ms/step (deputy process) vs untraced',
        value: cpu.traced,
        unit: 'ms',
        baseline: cpu.plain,
        ratio: cpu.traced / cpu.plain,
      },
      {
        metric: 'A/A control CPU ms/step vs untraced',
        value: cpu.control,
        unit: 'ms',
        baseline: cpu.plain,
        ratio: cpu.control / cpu.plain,
      },
      { metric: 'OTLP export requests received', value: receiver.requests(), unit: 'count' },
      {
        metric: 'OTLP bytes received per traced run',
        value: receiver.bytes() / (RUNS + WARMUP),
        unit: 'B',
      },
    ],
    notes: [
      'ms/step (history) = first event to WorkflowExecutionCompleted over 22 activities, median over runs; wall = client start to result',
      'adjacent pairs: run i of each side ran in the same round of three (each side first, second and last equally often); the target is the median of their ratios (a round shares the load of its minute; two medians need not), the ratio of the two medians is the row above it',
      'A/A control: the same untraced worker twice in one process; its spread is how finely this machine measures a difference between two workers, so read the target row against it',
      "CPU ms/step = this process's user+system CPU during the run (all three workers, the client and the receiver live here; the dev server does not), median over runs: what tracing adds to deputy's own work, steadier than wall time on a shared machine",
      'traced: Temporal interceptors (workflow, activity), deputy spans (execute_tool per read, chat per model call), BatchSpanProcessor over OTLP http/protobuf to a loopback receiver',
      'off costs nothing by construction (no SDK loaded, no interceptor bundled): not a row',
    ],
  };
}

/** Run i of one side over run i of the other: they ran in the same round of three. */
function pairRatios(side: number[], baseline: number[]): number[] {
  return side.map((value, index) => value / baseline[index]!);
}

/** What one side adds over the untraced worker: the median of its pair ratios, p25 and p75. */
function pairRows(label: string, ratios: number[], target?: string): BenchRow[] {
  return [
    {
      metric: `${label}, median of adjacent pairs`,
      value: extra(median(ratios)),
      unit: '%',
      ...(target === undefined ? {} : { target }),
    },
    { metric: `${label}, adjacent pairs p25`, value: extra(percentile(ratios, 25)), unit: '%' },
    { metric: `${label}, adjacent pairs p75`, value: extra(percentile(ratios, 75)), unit: '%' },
  ];
}

/** A ratio as the percentage it adds: 1.031 -> 3.1. */
function extra(ratio: number): number {
  return (ratio - 1) * 100;
}

/** An OTLP/HTTP endpoint that reads each export and answers 200 with an empty response. */
async function startOtlpReceiver() {
  let requests = 0;
  let bytes = 0;
  const server = createServer((request, response) => {
    request.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    request.on('end', () => {
      requests++;
      response.writeHead(200, { 'content-type': 'application/x-protobuf' });
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests: () => requests,
    bytes: () => bytes,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const { installQuietRuntime } = await import('./quiet-runtime.js');
  installQuietRuntime();
  const { printReports } = await import('./report.js');
  printReports([await benchTraceCost()], 'trace-cost');
}

/**
 * B1: a delegation of N rounds (scripted model, one trivial `read` per round) against a bare
 * Temporal workflow running the same activities, on the same dev server and worker, runs
 * alternating. Reports the median and p99 ratio and the extra milliseconds per step.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../src/activities/index.js';
import { createAgentResolver } from '../src/agent-resolver.js';
import { loadConfig } from '../src/config.js';
import { createRegistry } from '../src/definitions/registry.js';
import { delegationWorkflowId } from '../src/shared/delegation.js';
import { startDevServer } from '../src/temporal/dev-server.js';
import { median, percentile, type BenchReport } from './stats.js';

const ROUNDS = 10;
const PAIRS = Number(process.env.BENCH_PAIRS ?? 15);

export async function benchDelegationOverhead(): Promise<BenchReport> {
  const root = await mkdtemp(join(tmpdir(), 'deputy-bench-b1-'));
  const workspace = join(root, 'workspace');
  await mkdir(join(workspace, '.subagents', 'agents'), { recursive: true });
  await mkdir(join(workspace, 'scripts'), { recursive: true });
  await writeFile(join(workspace, 'note.txt'), 'a small file to read\n');
  const turns = Array.from(
    { length: ROUNDS },
    (_, index) =>
      `  - text: round ${index + 1}\n    toolCalls: [{ name: read, arguments: { path: note.txt } }]`,
  );
  await writeFile(
    join(workspace, 'scripts', 'bench.yaml'),
    `turns:\n${turns.join('\n')}\n  - text: done\n`,
  );
  await writeFile(
    join(workspace, '.subagents', 'agents', 'bench.md'),
    `---\nname: bench\ndescription: benchmark agent\nmodel: scripted:scripts/bench.yaml\ntools: [read]\nmaxTurns: ${ROUNDS + 5}\n---\nBench.\n`,
  );

  const server = await startDevServer({ dataDir: join(root, 'data'), headless: true });
  const config = loadConfig(
    { workspace, temporalAddress: server.address },
    { DEPUTY_USER_DIR: join(root, 'user') },
  );
  const registry = createRegistry({ config });
  await registry.load();
  const nativeConnection = await NativeConnection.connect({ address: server.address });
  const taskQueue = `bench-${randomUUID()}`;
  const worker = await Worker.create({
    connection: nativeConnection,
    taskQueue,
    workflowsPath: fileURLToPath(new URL('./bench-workflows.ts', import.meta.url)),
    activities: createActivities({ config, agents: createAgentResolver(config, registry) }),
  });
  const connection = await Connection.connect({ address: server.address });
  const client = new Client({ connection });

  const runDelegation = async (): Promise<number> => {
    const id = `b-${randomUUID().slice(0, 8)}`;
    const started = performance.now();
    const result = await client.workflow.execute('delegation', {
      taskQueue,
      workflowId: delegationWorkflowId('bench', id),
      args: [
        {
          delegationId: id,
          agent: 'bench',
          task: 'bench',
          session: 'bench',
          caller: { id: null, roles: [] },
          options: {},
        },
      ],
    });
    if ((result as { roundsUsed: number }).roundsUsed !== ROUNDS + 1) throw new Error('bad run');
    return performance.now() - started;
  };
  const runBare = async (): Promise<number> => {
    const started = performance.now();
    await client.workflow.execute('bareRounds', {
      taskQueue,
      workflowId: `bare-${randomUUID()}`,
      args: ['bench', 'bench'],
    });
    return performance.now() - started;
  };

  const delegationTimes: number[] = [];
  const bareTimes: number[] = [];
  try {
    await worker.runUntil(async () => {
      await runDelegation(); // warm-up: bundle caches, connections, SQLite pages
      await runBare();
      for (let pair = 0; pair < PAIRS; pair++) {
        // Alternate which goes first, so drift on the machine hits both sides alike.
        if (pair % 2 === 0) {
          delegationTimes.push(await runDelegation());
          bareTimes.push(await runBare());
        } else {
          bareTimes.push(await runBare());
          delegationTimes.push(await runDelegation());
        }
      }
    });
  } finally {
    await connection.close();
    await nativeConnection.close();
    await server.stop();
    await rm(root, { recursive: true, force: true });
  }

  const steps = ROUNDS * 2 + 2; // callModel + runTool per round, final callModel, resolveAgent
  const medianRatio = median(delegationTimes) / median(bareTimes);
  const p99Ratio = percentile(delegationTimes, 99) / percentile(bareTimes, 99);
  const extraPerStep = (median(delegationTimes) - median(bareTimes)) / steps;
  return {
    name: `B1 delegation vs bare workflow (${ROUNDS} rounds, ${PAIRS} alternating pairs)`,
    lines: [
      `delegation median ${median(delegationTimes).toFixed(1)} ms, p99 ${percentile(delegationTimes, 99).toFixed(1)} ms`,
      `bare       median ${median(bareTimes).toFixed(1)} ms, p99 ${percentile(bareTimes, 99).toFixed(1)} ms`,
      `ratio: median ${medianRatio.toFixed(3)} (target <= 1.10), p99 ${p99Ratio.toFixed(3)}`,
      `extra per activity step: ${extraPerStep.toFixed(2)} ms over ${steps} steps`,
    ],
  };
}

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const report = await benchDelegationOverhead();
  console.log([report.name, ...(report.lines ?? []).map((line) => `  ${line}`)].join('\n'));
}

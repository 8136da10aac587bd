/**
 * The worker of bench/capacity.ts in its own process, so its RSS is the worker's alone: what
 * `deputy worker` runs (startWorkerRuntime), on the bench's task queue, with a workflow bundle the
 * bench built once (bundling in every restart would dominate the restart figure with webpack).
 * Environment: TEMPORAL_ADDRESS, DEPUTY_WORKSPACE, DEPUTY_USER_DIR, TASK_QUEUE, BENCH_BUNDLE (a
 * file holding the bundle's code) and any DEPUTY_WORKER_* tuning.
 */
import { readFile } from 'node:fs/promises';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../src/config/load.js';
import { startWorkerRuntime } from '../src/worker/worker.js';

Runtime.install({ logger: new DefaultLogger('WARN') });
const config = loadConfig();
const code = await readFile(process.env.BENCH_BUNDLE!, 'utf8');
const runtime = await startWorkerRuntime(config, config.temporal.address!, {
  taskQueue: process.env.TASK_QUEUE!,
  workflowBundle: { code },
});
process.stdout.write(`worker ready ${JSON.stringify(config.worker)}\n`);
await runtime.done;

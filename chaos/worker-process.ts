/**
 * A deputy worker as a child process of the chaos suite, so SIGKILL and SIGTERM reach a real
 * process and nothing of it survives in the suite's own. It runs what `deputy worker` runs
 * (startWorkerRuntime) with the workflow bundle the suite built once: bundling takes seconds of
 * CPU on a small machine, and a worker restarted after a kill must be back within a heartbeat.
 *
 * Environment: TEMPORAL_ADDRESS, DEPUTY_WORKSPACE, DEPUTY_USER_DIR, DEPUTY_TASK_QUEUE (read by
 * loadConfig), CHAOS_BUNDLE (path of the bundled workflow code).
 */
import { readFileSync } from 'node:fs';
import { DefaultLogger, Runtime } from '@temporalio/worker';
import { loadConfig } from '../src/config/load.js';
import { startWorkerRuntime } from '../src/worker/worker.js';

// Warnings only (a worker that lost its peer logs plenty), and no SDK signal handlers: SIGTERM
// is this process's graceful stop below, as in `deputy worker`.
Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });

const config = loadConfig();
const bundlePath = process.env.CHAOS_BUNDLE;
const runtime = await startWorkerRuntime(config, config.temporal.address!, {
  taskQueue: config.temporal.taskQueue,
  ...(bundlePath ? { workflowBundle: { code: readFileSync(bundlePath, 'utf8') } } : {}),
});
process.once('SIGTERM', () => {
  process.stderr.write(`chaos worker ${process.pid}: SIGTERM, stopping\n`);
  void runtime.stop().then(() => process.exit(0));
});
process.stdout.write(`worker ready ${process.pid}\n`);
await runtime.done;

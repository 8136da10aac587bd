/**
 * A deputy worker in a child process (test/fixtures/worker-process.ts), for tests that SIGKILL it
 * mid-delegation: nothing of the worker survives in the test's own process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../src/config/load.js';
import { workflowBundlePath, type Harness } from './harness.js';

export interface WorkerProcessOptions {
  /** The worker's entry, relative to the project root. Default test/fixtures/worker-process.ts. */
  script?: string;
  /** More environment for it (a bundle file, ...). */
  env?: Record<string, string>;
  /** When its output says it is ready. Default: it printed `worker ready`. */
  ready?: (output: string) => boolean;
}

/** Resolves once the worker is ready; `cleanups` gets its SIGKILL (and waits for its exit). */
export async function spawnWorker(
  harness: Harness,
  cleanups: Array<() => Promise<void>>,
  options: WorkerProcessOptions = {},
): Promise<ChildProcess> {
  const traced = { ...process.env, ...options.env }.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined;
  // The run's prebuilt bundle: a child that bundled at its start spent 10 to 30 s of a crash
  // test's minute on webpack on a loaded machine.
  const bundle = workflowBundlePath(traced ? 'traced' : 'plain');
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, options.script ?? 'test/fixtures/worker-process.ts')],
    {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: harness.address,
        DEPUTY_WORKSPACE: harness.workspace,
        DEPUTY_USER_DIR: join(harness.workspace, '.user-config'),
        TASK_QUEUE: harness.taskQueue,
        WORKFLOW_BUNDLE: bundle,
        ...options.env,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) await killWorker(child);
  });
  const ready = options.ready ?? ((output: string) => output.includes('worker ready'));
  return new Promise((resolve, reject) => {
    let output = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      if (ready(output)) resolve(child);
    });
    child.once('exit', (code) =>
      reject(new Error(`worker process exited early (${code}): ${output}`)),
    );
  });
}

/** SIGKILL: no shutdown, no finally, no exit handler runs in the worker. */
export async function killWorker(worker: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGKILL');
  await exited;
}

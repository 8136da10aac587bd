/**
 * A deputy worker in a child process (test/fixtures/worker-process.ts), for tests that SIGKILL it
 * mid-delegation: nothing of the worker survives in the test's own process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../../src/config.js';
import type { Harness } from './harness.js';

/** Resolves once the worker polls the harness's task queue; `cleanups` gets its SIGKILL. */
export function spawnWorker(
  harness: Harness,
  cleanups: Array<() => Promise<void>>,
): Promise<ChildProcess> {
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', join(PROJECT_ROOT, 'test/fixtures/worker-process.ts')],
    {
      cwd: PROJECT_ROOT,
      env: {
        ...process.env,
        TEMPORAL_ADDRESS: harness.address,
        DEPUTY_WORKSPACE: harness.workspace,
        DEPUTY_USER_DIR: join(harness.workspace, '.user-config'),
        TASK_QUEUE: harness.taskQueue,
      },
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('worker ready')) resolve(child);
    });
    child.once('exit', (code) => reject(new Error(`worker process exited early (${code})`)));
  });
}

/** SIGKILL: no shutdown, no finally, no exit handler runs in the worker. */
export async function killWorker(worker: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => worker.once('exit', resolve));
  worker.kill('SIGKILL');
  await exited;
}

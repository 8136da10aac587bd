/**
 * The real `deputy worker` command (bin/deputy.mjs) in a child process, in a workspace of its
 * own, for tests that SIGKILL it: nothing of the worker lives in the test's process.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { DEPUTY_BIN } from '../../e2e/run-deputy.js';
import { killWorker } from './worker-process.js';

export interface CliWorker {
  child: ChildProcess;
  /** Everything it printed so far (stdout and stderr). */
  output(): string;
}

/**
 * Starts `deputy worker` in `workspace` with `env` added (TEMPORAL_ADDRESS, DEPUTY_TASK_QUEUE,
 * ...); resolves once it printed its start line (`worker polling ...`). `cleanups` gets its
 * SIGKILL, which waits for its exit.
 */
export function spawnCliWorker(
  workspace: string,
  env: Record<string, string>,
  cleanups: Array<() => Promise<void>>,
): Promise<CliWorker> {
  const child = spawn(process.execPath, [DEPUTY_BIN, 'worker'], {
    cwd: workspace,
    env: {
      ...process.env,
      DEPUTY_WORKSPACE: workspace,
      DEPUTY_USER_DIR: join(workspace, '.user-config'),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) await killWorker(child);
  });
  let output = '';
  const worker: CliWorker = { child, output: () => output };
  return new Promise((resolve, reject) => {
    const take = (chunk: Buffer) => {
      output += chunk.toString();
      if (output.includes('worker polling')) resolve(worker);
    };
    child.stdout!.on('data', take);
    child.stderr!.on('data', take);
    child.once('exit', (code, signal) =>
      reject(new Error(`deputy worker exited early (${code ?? signal}): ${output}`)),
    );
  });
}

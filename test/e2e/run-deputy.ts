/** Runs the real `bin/deputy.mjs` as a child process, as a user would from a shell. */
import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/config/load.js';
import { eventually } from '../support/eventually.js';

export const DEPUTY_BIN = join(PROJECT_ROOT, 'bin', 'deputy.mjs');

export interface Outcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runDeputy(
  args: string[],
  options: { env: NodeJS.ProcessEnv; cwd?: string },
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [DEPUTY_BIN, ...args], options);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** A process whose output is kept as it comes: stdout and stderr together, in order received. */
export interface CapturedProcess {
  child: ChildProcess;
  output(): string;
  exited: Promise<number | null>;
}

export function spawnCaptured(
  command: string,
  args: string[],
  options: SpawnOptions,
): CapturedProcess {
  const child = spawn(command, args, { ...options, stdio: 'pipe' });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  return { child, output: () => output, exited };
}

/**
 * The API URL `deputy dev` prints once its worker and API are up. Fails, with the end of what it
 * printed, when the process exits first or `timeoutMs` passes: that says where its start stopped.
 */
export async function printedApiUrl(dev: CapturedProcess, timeoutMs: number): Promise<string> {
  return eventually(
    async () => {
      if (dev.child.exitCode !== null) throw new Error(`it exited with ${dev.child.exitCode}`);
      return /deputy API:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(dev.output())?.[1];
    },
    'deputy dev to print its API URL',
    timeoutMs,
    250,
  ).catch((error: Error) => {
    throw new Error(`${error.message}; deputy dev printed:\n${dev.output().slice(-3000)}`);
  });
}

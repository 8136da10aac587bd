/** Runs the real `bin/deputy.mjs` as a child process, as a user would from a shell. */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../src/config.js';

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

/**
 * One long-running program of the cluster (PostgreSQL, a Temporal service, the UI), its output
 * appended to a log file, stopped by signal. Two lifetimes:
 *
 * - detached (`deputy cluster start`): the program outlives the command that started it; a later
 *   `deputy cluster stop` finds it again by the pid the cluster record keeps;
 * - watched (tests, benches): the program dies with the Node process that started it, SIGKILL
 *   included (src/processes/watched-group.ts), so a crashed run leaves no cluster behind.
 */
import { spawn } from 'node:child_process';
import { closeSync, createWriteStream, openSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { spawnWatchedGroup } from '../../processes/watched-group.js';
import { processInfo } from '../process-info.js';

/** Milliseconds a program gets to stop on its signal before SIGKILL. */
const STOP_GRACE_MS = 15_000;

export interface ServiceProcess {
  readonly name: string;
  readonly pid: number;
  readonly logFile: string;
  running(): boolean;
  /** Signals the program (SIGTERM unless told) and waits until it is gone; SIGKILL after a grace. */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** SIGKILL, no grace: the fault the tests inject. Waits until it is gone. */
  kill(): Promise<void>;
  /** The last lines of its log, for an error message. */
  logTail(): Promise<string>;
}

export interface SpawnServiceOptions {
  logFile: string;
  detached: boolean;
  env?: NodeJS.ProcessEnv;
  cwd?: string;
}

export function spawnService(
  name: string,
  file: string,
  args: readonly string[],
  options: SpawnServiceOptions,
): ServiceProcess {
  const spawnOptions = {
    ...(options.env === undefined ? {} : { env: options.env }),
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
  };
  let pid: number | undefined;
  if (options.detached) {
    const log = openSync(options.logFile, 'a');
    const child = spawn(file, args, {
      ...spawnOptions,
      detached: true,
      stdio: ['ignore', log, log],
    });
    closeSync(log);
    child.unref();
    pid = child.pid;
  } else {
    const child = spawnWatchedGroup(file, args, { ...spawnOptions, graceMs: STOP_GRACE_MS });
    const log = createWriteStream(options.logFile, { flags: 'a' });
    // Two writers into one file: neither may end it for the other.
    child.stdout.pipe(log, { end: false });
    child.stderr.pipe(log, { end: false });
    child.once('close', () => log.end());
    pid = child.pid;
  }
  if (pid === undefined) throw new Error(`could not start ${name} (${file})`);
  return attachService(name, pid, options.logFile);
}

/** A program started earlier (by this process or another), known by its pid. */
export function attachService(name: string, pid: number, logFile: string): ServiceProcess {
  const running = (): boolean => processInfo(pid).state !== 'gone';
  const gone = async (timeoutMs: number): Promise<boolean> => {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      if (!running()) return true;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return !running();
  };
  const signal = (which: NodeJS.Signals): void => {
    try {
      process.kill(pid, which);
    } catch {
      // ESRCH: already gone.
    }
  };
  return {
    name,
    pid,
    logFile,
    running,
    async stop(which = 'SIGTERM') {
      if (!running()) return;
      signal(which);
      if (await gone(STOP_GRACE_MS)) return;
      signal('SIGKILL');
      await gone(5_000);
    },
    async kill() {
      signal('SIGKILL');
      await gone(5_000);
    },
    async logTail() {
      try {
        const handle = await open(logFile, 'r');
        try {
          const { size } = await handle.stat();
          const length = Math.min(size, 4_000);
          const { buffer } = await handle.read(Buffer.alloc(length), 0, length, size - length);
          return buffer.toString('utf8');
        } finally {
          await handle.close();
        }
      } catch {
        return '(no log)';
      }
    },
  };
}

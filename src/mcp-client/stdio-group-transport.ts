/**
 * The MCP stdio client transport, with the server in a watched process group
 * (src/processes/watched-group.ts): the server and everything it starts die with the process that
 * started them, however it ends (SIGKILL and the OOM killer included), as bash commands do. The
 * SDK's StdioClientTransport spawns a plain child: a server that ignores the end of its stdin
 * outlived a killed worker under PID 1. Messages are the SDK's newline-delimited JSON-RPC
 * (`ReadBuffer`, `serializeMessage`); the environment is the SDK's too (its default variables
 * plus the entry's `env`), as is the choice of where the server's stderr goes.
 */
import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, join, resolve } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { Writable } from 'node:stream';
import { getDefaultEnvironment } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { spawnWatchedGroupWithInput } from '../processes/watched-group.js';

export interface StdioGroupServerParameters {
  command: string;
  args?: string[];
  /** Added to the SDK's default environment (HOME, LOGNAME, PATH, SHELL, TERM, USER). */
  env?: Record<string, string>;
  cwd?: string;
  /** The server's stderr: this process's (the SDK's default) or nowhere. Default 'inherit'. */
  stderr?: 'inherit' | 'ignore';
  /**
   * Milliseconds for each step of a close (end of stdin, then SIGTERM to the group, then
   * SIGKILL), and between the watchdog's SIGTERM and SIGKILL once the parent is gone.
   * Default 2000, the SDK's own steps.
   */
  graceMs?: number;
}

const DEFAULT_GRACE_MS = 2_000;
/** Where execvp looks when the environment has no PATH. */
const DEFAULT_PATH = '/usr/bin:/bin';

export class StdioGroupClientTransport implements Transport {
  onclose?: Transport['onclose'];
  onerror?: Transport['onerror'];
  onmessage?: Transport['onmessage'];

  readonly #params: StdioGroupServerParameters;
  readonly #readBuffer = new ReadBuffer();
  #child: ChildProcess | null = null;
  #input: Writable | null = null;
  #started = false;
  #closing: Promise<void> | null = null;
  /** Settles once the server exited and its output pipes ended. */
  #ended: Promise<void> = Promise.resolve();

  constructor(params: StdioGroupServerParameters) {
    this.#params = params;
  }

  /** The server's pid (it leads its process group) while it runs; null before and after. */
  get pid(): number | null {
    return this.#child?.pid ?? null;
  }

  async start(): Promise<void> {
    if (this.#started) throw new Error('StdioGroupClientTransport already started');
    this.#started = true;
    const { command, args = [], cwd } = this.#params;
    const env = { ...getDefaultEnvironment(), ...this.#params.env };
    // Found here, as spawn would, so a missing command fails the start with spawn's own ENOENT
    // rather than as a shell's exit 127 whose message may have gone nowhere.
    const file = await findExecutable(command, env.PATH ?? DEFAULT_PATH, cwd);
    if (this.#closing !== null) throw new Error('the transport was closed while starting');
    const { child, input } = spawnWatchedGroupWithInput(file, args, {
      env,
      graceMs: this.#params.graceMs ?? DEFAULT_GRACE_MS,
      stderr: this.#params.stderr ?? 'inherit',
      ...(cwd === undefined ? {} : { cwd }),
    });
    this.#ended = new Promise((resolve) => child.once('close', () => resolve()));
    await new Promise<void>((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', (error) => {
        reject(error);
        this.onerror?.(error);
      });
    });
    this.#child = child;
    this.#input = input;
    child.once('close', () => {
      this.#child = null;
      this.#input = null;
      this.onclose?.();
    });
    input.on('error', (error: Error) => this.onerror?.(error));
    child.stdout?.on('error', (error: Error) => this.onerror?.(error));
    child.stdout?.on('data', (chunk: Buffer) => {
      try {
        this.#readBuffer.append(chunk);
      } catch (error) {
        // Over the buffer's limit: nothing after it can be framed any more.
        this.onerror?.(error as Error);
        void this.close().catch(() => undefined);
        return;
      }
      this.#processReadBuffer();
    });
  }

  #processReadBuffer(): void {
    for (;;) {
      try {
        const message = this.#readBuffer.readMessage();
        if (message === null) return;
        this.onmessage?.(message);
      } catch (error) {
        // One bad line is dropped; the next may be fine.
        this.onerror?.(error as Error);
      }
    }
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve, reject) => {
      const input = this.#input;
      if (input === null || this.#closing !== null) {
        reject(new Error('Not connected'));
        return;
      }
      if (input.write(serializeMessage(message))) resolve();
      else input.once('drain', resolve);
    });
  }

  /**
   * Ends the server's stdin (the spec's polite close), SIGTERMs its group if it has not exited
   * within the grace, SIGKILLs the group after another. Resolves once the server has exited and
   * its output has ended; whatever it left in its group gets the watchdog's SIGTERM and SIGKILL.
   */
  close(): Promise<void> {
    this.#closing ??= (async () => {
      const child = this.#child;
      if (child !== null) {
        const grace = this.#params.graceMs ?? DEFAULT_GRACE_MS;
        this.#input?.end();
        if (!(await settlesWithin(this.#ended, grace))) {
          signalGroup(child, 'SIGTERM');
          if (!(await settlesWithin(this.#ended, grace))) {
            signalGroup(child, 'SIGKILL');
            await this.#ended;
          }
        }
      }
      this.#readBuffer.clear();
    })();
    return this.#closing;
  }
}

function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    // ESRCH: the group is gone already.
  }
}

async function settlesWithin(promise: Promise<void>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  const settled = await Promise.race([promise.then(() => true as const), timedOut]);
  clearTimeout(timer);
  return settled;
}

/**
 * The file `command` names, found as execvp finds it: a name with a slash is a path (relative to
 * `cwd`), any other is looked for in each directory of `path` (an empty entry is `cwd`). Throws
 * spawn's own error (`spawn <command> ENOENT` or `EACCES`) when there is none to run.
 */
export async function findExecutable(
  command: string,
  path: string,
  cwd: string = process.cwd(),
): Promise<string> {
  const candidates = command.includes('/')
    ? [resolve(cwd, command)]
    : path.split(delimiter).map((dir) => join(dir === '' ? cwd : resolve(cwd, dir), command));
  let denied = false;
  for (const candidate of candidates) {
    if (!(await isFile(candidate))) continue;
    try {
      await access(candidate, constants.X_OK);
      return candidate;
    } catch {
      denied = true;
    }
  }
  const code = denied ? 'EACCES' : 'ENOENT';
  return Promise.reject(
    Object.assign(new Error(`spawn ${command} ${code}`), {
      code,
      syscall: `spawn ${command}`,
      path: command,
    }),
  );
}

async function isFile(path: string): Promise<boolean> {
  try {
    return (await stat(path)).isFile();
  } catch {
    return false;
  }
}

import { BASH_TOOL_SCHEMA } from '../shared/tools/workspace-tool-schemas.js';
import { ToolError } from './tool.js';
import type { ToolContext, ToolImplementation } from './tool.js';
import { spawnWatchedGroup } from '../processes/watched-group.js';
import { sandboxedSpawn, type SandboxRunner } from '../sandbox/spawn-plan.js';

/** Budgets of the bash tool. */
export const BASH_LIMITS = {
  /** Seconds a command may run when the call names no timeout. */
  defaultTimeoutSeconds: 120,
  /** Largest timeout a call may ask for, in seconds. */
  maxTimeoutSeconds: 600,
  /** Bytes of output kept from the start and from the end; the middle is dropped loudly. */
  headBytes: 30_000,
  tailBytes: 20_000,
  /** Milliseconds between SIGTERM and SIGKILL when a command is stopped or its worker dies. */
  killGraceMs: 2_000,
  /** Milliseconds between heartbeats while a command runs (so cancellation reaches us). */
  heartbeatMs: 1_000,
} as const;

export interface BashToolOptions {
  /**
   * Places no agent may read, resolved (deputyRoots(config).hiddenRoots): covered inside the
   * sandbox even where a declared path would show them. Unused when the sandbox is off.
   */
  hiddenRoots: readonly string[];
  /** The sandbox runner; default bubblewrap (src/sandbox/bubblewrap.ts). */
  runner?: SandboxRunner;
}

/**
 * `bash -c COMMAND` in the workspace root, bounded in time and output; inside the snapshot's
 * sandbox when it has one.
 */
export function createBashTool(options: BashToolOptions = { hiddenRoots: [] }): ToolImplementation {
  return { schema: BASH_TOOL_SCHEMA, run: (args, context) => runBash(args, context, options) };
}

async function runBash(
  args: Record<string, unknown>,
  context: ToolContext,
  options: BashToolOptions,
): Promise<string> {
  const command = args.command;
  if (typeof command !== 'string' || command.trim() === '') {
    throw new ToolError("argument 'command' must be a non-empty string");
  }
  const timeoutSeconds = parseTimeout(args.timeout_seconds);
  if (context.signal.aborted)
    throw new ToolError('command was not started: the call was cancelled');

  const argv = ['bash', '--norc', '--noprofile', '-c', command];
  const spawnPlan =
    context.snapshot.sandbox === undefined
      ? { file: argv[0]!, args: argv.slice(1), env: minimalEnvironment() }
      : sandboxedSpawn(context.snapshot.sandbox, argv, {
          hiddenRoots: options.hiddenRoots,
          cwd: context.workspaceRoot,
          ...(options.runner === undefined ? {} : { runner: options.runner }),
        });
  if ('problem' in spawnPlan) {
    // Never run unsandboxed instead: the bounds are what the agent was given.
    throw new ToolError(`command was not run: the agent's sandbox is on, but ${spawnPlan.problem}`);
  }
  const outcome = await runInProcessGroup(spawnPlan, timeoutSeconds, context);
  const output = outcome.output === '' ? '(no output)' : outcome.output;
  if (outcome.stoppedBy === 'timeout') {
    throw new ToolError(
      `command timed out after ${timeoutSeconds} seconds and was killed. Output so far:\n${output}`,
    );
  }
  if (outcome.stoppedBy === 'abort') {
    throw new ToolError(`command was cancelled and killed. Output so far:\n${output}`);
  }
  const status =
    outcome.exitCode !== null
      ? `[exit code: ${outcome.exitCode}]`
      : `[terminated by signal ${outcome.signal ?? 'unknown'}]`;
  return `${output}\n${status}`;
}

interface Outcome {
  output: string;
  exitCode: number | null;
  signal: NodeJS.Signals | null;
  stoppedBy: 'timeout' | 'abort' | null;
}

function runInProcessGroup(
  spawnPlan: { file: string; args: string[]; env: NodeJS.ProcessEnv },
  timeoutSeconds: number,
  context: ToolContext,
): Promise<Outcome> {
  return new Promise((resolve, reject) => {
    const output = new HeadTailBuffer(BASH_LIMITS.headBytes, BASH_LIMITS.tailBytes);
    // The shell leads its own process group, so one kill(-pid) reaches every process it started
    // (pipelines, `sleep &`), not just bash itself; and a watchdog in that group kills it all if
    // this worker dies without a chance to (SIGKILL, OOM killer): no command runs on unowned.
    // --norc: Debian's bash reads ~/.bashrc when its stdin is a socket, as Node's pipes are; a
    // command must not run whatever that file says first.
    const child = spawnWatchedGroup(spawnPlan.file, spawnPlan.args, {
      cwd: context.workspaceRoot,
      env: spawnPlan.env,
      graceMs: BASH_LIMITS.killGraceMs,
    });
    let stoppedBy: Outcome['stoppedBy'] = null;
    let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

    const stopGroup = (): void => {
      if (child.pid === undefined) return;
      const pid = child.pid;
      if (!signalGroup(pid, 'SIGTERM')) return;
      // Not unref'd: a process that ignores SIGTERM must still die if we are exiting.
      setTimeout(() => signalGroup(pid, 'SIGKILL'), BASH_LIMITS.killGraceMs);
    };
    const onAbort = (): void => {
      stoppedBy ??= 'abort';
      stopGroup();
    };
    const heartbeat = setInterval(() => context.heartbeat(), BASH_LIMITS.heartbeatMs);
    const timer = setTimeout(() => {
      stoppedBy ??= 'timeout';
      stopGroup();
    }, timeoutSeconds * 1000);
    context.signal.addEventListener('abort', onAbort, { once: true });

    let settled = false;
    let drainTimer: NodeJS.Timeout | undefined;
    const finish = (): void => {
      if (settled || exit === undefined) return;
      settled = true;
      clearInterval(heartbeat);
      clearTimeout(timer);
      clearTimeout(drainTimer);
      context.signal.removeEventListener('abort', onAbort);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ output: output.text(), exitCode: exit.code, signal: exit.signal, stoppedBy });
    };

    child.stdout.on('data', (chunk: Buffer) => output.push(chunk));
    child.stderr.on('data', (chunk: Buffer) => output.push(chunk));
    child.on('error', (error) => {
      clearInterval(heartbeat);
      clearTimeout(timer);
      context.signal.removeEventListener('abort', onAbort);
      reject(new ToolError(`could not start bash: ${error.message}`));
    });
    child.on('exit', (code, signal) => {
      exit = { code, signal };
      // Nothing the command started may outlive the call: leftover background processes
      // would escape cancellation and hold the output pipes open. Processes that left the
      // group on purpose (setsid) are beyond reach; stop waiting on their pipes after a grace.
      stopGroup();
      drainTimer = setTimeout(finish, BASH_LIMITS.killGraceMs + 500);
    });
    // 'close' comes once every holder of the pipes is gone: all output has been read.
    child.on('close', finish);
  });
}

/** False when the group is already gone (ESRCH), which is what we wanted anyway. */
function signalGroup(pid: number, signal: NodeJS.Signals): boolean {
  try {
    process.kill(-pid, signal);
    return true;
  } catch {
    return false;
  }
}

/**
 * Commands see PATH, HOME and LANG only, never deputy's own environment: model API keys,
 * database URLs and tokens live there, and a prompt-injected `env | curl ...` must find none.
 */
function minimalEnvironment(): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '/usr/local/bin:/usr/bin:/bin',
    LANG: process.env.LANG ?? 'C.UTF-8',
  };
  if (process.env.HOME !== undefined) environment.HOME = process.env.HOME;
  return environment;
}

function parseTimeout(value: unknown): number {
  if (value === undefined || value === null) return BASH_LIMITS.defaultTimeoutSeconds;
  if (
    typeof value !== 'number' ||
    !Number.isInteger(value) ||
    value < 1 ||
    value > BASH_LIMITS.maxTimeoutSeconds
  ) {
    throw new ToolError(
      `argument 'timeout_seconds' must be an integer from 1 to ${BASH_LIMITS.maxTimeoutSeconds}`,
    );
  }
  return value;
}

/**
 * Keeps the first and last bytes of a stream. The end of a build log is where the error is,
 * the start says what ran; the middle is dropped with a notice saying how much.
 */
class HeadTailBuffer {
  private readonly head: Buffer[] = [];
  private headLength = 0;
  private tail: Buffer = Buffer.alloc(0);
  private total = 0;

  constructor(
    private readonly headBytes: number,
    private readonly tailBytes: number,
  ) {}

  push(chunk: Buffer): void {
    this.total += chunk.length;
    let rest = chunk;
    if (this.headLength < this.headBytes) {
      const take = rest.subarray(0, this.headBytes - this.headLength);
      this.head.push(take);
      this.headLength += take.length;
      rest = rest.subarray(take.length);
    }
    if (rest.length > 0) {
      const joined = Buffer.concat([this.tail, rest]);
      this.tail = joined.subarray(Math.max(0, joined.length - this.tailBytes));
    }
  }

  text(): string {
    const head = Buffer.concat(this.head).toString('utf8');
    const dropped = this.total - this.headLength - this.tail.length;
    if (dropped === 0) return head + this.tail.toString('utf8');
    const notice = `\n[output truncated: showed the first ${this.headLength} and last ${this.tail.length} of ${this.total} bytes; ${dropped} bytes in between were dropped]\n`;
    return head + notice + this.tail.toString('utf8');
  }
}

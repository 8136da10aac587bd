/**
 * Spawns a program in a new process group that dies with the Node process that spawned it, even
 * when that process is SIGKILLed and runs no cleanup code of its own.
 *
 * Why not PR_SET_PDEATHSIG (`setpriv --pdeathsig`): it is set on one process, so a command's own
 * children (`make` and its compilers, `cmd &`) would run on; it fires when the spawning *thread*
 * ends, not the process; and `setpriv` is Linux-only. Instead a few lines of POSIX sh fork a
 * watchdog into the group before the program even starts. The watchdog holds the read end of a
 * pipe whose only writer is the parent (the child's stdin pipe; libuv opens it close-on-exec, so
 * no other child inherits it). However the parent ends, the kernel closes the writer, the
 * watchdog reads end-of-file and signals its own group: SIGTERM, then SIGKILL after a grace.
 *
 * Node also closes that pipe when the program itself exits (it destroys `child.stdin` on exit),
 * so whatever the program left running in its group gets the same treatment: a parent has
 * nothing to gain from leftovers of an exited child.
 */
import { spawn, type ChildProcess, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';

export interface WatchedGroupOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Milliseconds between SIGTERM and SIGKILL to the group once the parent is gone. */
  graceMs: number;
}

/**
 * The watchdog itself, reading the parent's pipe on `fd`: forked into the background before the
 * program starts. Its stdout and stderr go to /dev/null so it never holds the program's output
 * pipes open. It ignores SIGTERM only after the parent is gone: until then one SIGTERM to the
 * group (a stop) ends it with everything else.
 */
function watchdog(fd: number): string {
  return `grace=$1
shift
(
  read -r line <&${fd}
  trap '' TERM
  kill -s TERM 0
  sleep "$grace"
  kill -s KILL 0
) </dev/null >/dev/null 2>&1 &`;
}

/**
 * `exec 3<&0 </dev/null`: the pipe moves to fd 3 and the program reads /dev/null, as with stdio
 * 'ignore'. `exec "$@"` keeps the program's pid: the parent still sees its real exit code or
 * signal, and the group id is that pid.
 */
const WATCHDOG_SCRIPT = `exec 3<&0 </dev/null
${watchdog(3)}
exec "$@" 3<&-`;

/**
 * The program's pid leads the new group, so `process.kill(-child.pid, signal)` reaches it, the
 * watchdog and everything the program starts. The caller must never write to or end
 * `child.stdin`: either is taken as the parent's death.
 */
export function spawnWatchedGroup(
  file: string,
  args: readonly string[],
  options: WatchedGroupOptions,
): ChildProcessByStdio<Writable, Readable, Readable> {
  const graceSeconds = String(options.graceMs / 1000);
  return spawn('/bin/sh', ['-c', WATCHDOG_SCRIPT, 'deputy-watchdog', graceSeconds, file, ...args], {
    ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
    ...(options.env === undefined ? {} : { env: options.env }),
    detached: true,
    stdio: ['pipe', 'pipe', 'pipe'],
  });
}

/**
 * The same watchdog for a program that reads its stdin (an MCP stdio server): the watchdog's pipe
 * comes in on fd 0 and moves to fd 4, the program's own stdin pipe comes in on fd 3 and moves to
 * fd 0, and the program keeps neither extra descriptor. The watchdog shell holds no end of the
 * program's stdin, stdout or stderr, so those end when the program's side of them does.
 */
const WATCHDOG_WITH_INPUT_SCRIPT = `exec 4<&0 <&3 3<&-
${watchdog(4)}
exec "$@" 4<&-`;

export interface WatchedGroupWithInputOptions extends WatchedGroupOptions {
  /** The program's stderr: a pipe (`child.stderr`), nowhere, or this process's. Default 'pipe'. */
  stderr?: 'pipe' | 'ignore' | 'inherit';
}

export interface WatchedGroupWithInput {
  /**
   * Leads the group, as with spawnWatchedGroup. `child.stdin` is the watchdog's pipe: never write
   * to it or end it. `child.stdout` is the program's stdout; `child.stderr` is null unless piped.
   */
  child: ChildProcess;
  /** The program's stdin: ending it is the end of the program's input, nothing more. */
  input: Writable;
}

/** spawnWatchedGroup for a program that needs a stdin of its own. */
export function spawnWatchedGroupWithInput(
  file: string,
  args: readonly string[],
  options: WatchedGroupWithInputOptions,
): WatchedGroupWithInput {
  const graceSeconds = String(options.graceMs / 1000);
  const child = spawn(
    '/bin/sh',
    ['-c', WATCHDOG_WITH_INPUT_SCRIPT, 'deputy-watchdog', graceSeconds, file, ...args],
    {
      ...(options.cwd === undefined ? {} : { cwd: options.cwd }),
      ...(options.env === undefined ? {} : { env: options.env }),
      detached: true,
      stdio: ['pipe', 'pipe', options.stderr ?? 'pipe', 'pipe'],
    },
  );
  return { child, input: child.stdio[3] as Writable };
}

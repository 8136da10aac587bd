/**
 * Runs a program inside bubblewrap: its own mount, PID, IPC, UTS and network namespaces, the
 * system folders read-only, the declared paths bound, deputy's hidden places covered, and the
 * declared ceilings set by the shell's `ulimit` before the program starts.
 */
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';
import type { SandboxBounds } from '../shared/sandbox-contract.js';

/** Read-only inside every sandbox: what a shell and the usual tools need to start. */
const SYSTEM_FOLDERS = ['/usr', '/bin', '/sbin', '/lib', '/lib32', '/lib64', '/etc', '/opt'];

/** PATH inside: the system's own folders, never the worker's (it may name a user's bin). */
const INSIDE_PATH = '/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin';

let found: ReturnType<typeof findBubblewrap> | undefined;

/** The bwrap executable, or why there is none and how to get it. Cached per process. */
export function findBubblewrap(): { ok: true; path: string } | { ok: false; problem: string } {
  found ??= search(process.env.PATH ?? '');
  return found;
}

function search(searchPath: string): ReturnType<typeof findBubblewrap> {
  if (process.platform !== 'linux') {
    return {
      ok: false,
      problem: `the sandbox needs Linux and bubblewrap; this worker runs on ${process.platform}`,
    };
  }
  for (const folder of searchPath.split(path.delimiter)) {
    if (folder === '') continue;
    const candidate = path.join(folder, 'bwrap');
    try {
      accessSync(candidate, constants.X_OK);
      return { ok: true, path: candidate };
    } catch {
      // Not here: the next folder.
    }
  }
  return {
    ok: false,
    problem:
      "bubblewrap ('bwrap') is not installed on this worker: install it (Debian and Ubuntu: apt-get install bubblewrap) or set the agent's sandbox to off",
  };
}

/**
 * The argv that runs `argv` inside `bounds`: `[bwrapPath, ...bwrapArgs, '--', ...limitWrapper, ...argv]`.
 * `hidden` are paths that must not be visible at all even if a bound would show them (deputy's
 * data directory, its configuration folder, the home directory's secrets...).
 * `env` is the environment to spawn it with (only bounds.env names, from `from`, plus PATH/HOME/LANG
 * set to safe values inside).
 */
export function sandboxedArgv(
  bounds: SandboxBounds,
  argv: string[],
  options: { hidden: string[]; from: NodeJS.ProcessEnv; cwd: string },
): { file: string; args: string[]; env: NodeJS.ProcessEnv } {
  const bwrap = findBubblewrap();
  if (!bwrap.ok) throw new Error(bwrap.problem);
  const args = [
    '--unshare-all',
    '--die-with-parent',
    '--new-session',
    ...SYSTEM_FOLDERS.filter(exists).flatMap((folder) => ['--ro-bind', folder, folder]),
    '--proc',
    '/proc',
    '--dev',
    '/dev',
    '--tmpfs',
    '/tmp',
    ...bounds.readOnly.filter(exists).flatMap((p) => ['--ro-bind', p, p]),
    ...bounds.readWrite.filter(exists).flatMap((p) => ['--bind', p, p]),
    ...options.hidden.flatMap((p) => cover(p, [...bounds.readOnly, ...bounds.readWrite])),
    '--chdir',
    options.cwd,
    '--',
    ...limitWrapper(bounds.limits),
    ...argv,
  ];
  const env: NodeJS.ProcessEnv = {};
  for (const name of bounds.env) {
    const value = options.from[name];
    if (value !== undefined) env[name] = value;
  }
  env.PATH = INSIDE_PATH;
  env.HOME = '/tmp';
  env.LANG = options.from.LANG ?? 'C.UTF-8';
  return { file: bwrap.path, args, env };
}

/** An empty folder or /dev/null over a hidden place some bound would otherwise show. */
function cover(hidden: string, bound: readonly string[]): string[] {
  if (!bound.some((root) => hidden === root || hidden.startsWith(`${root}/`))) return [];
  let isFolder: boolean;
  try {
    isFolder = statSync(hidden).isDirectory();
  } catch {
    return [];
  }
  return isFolder
    ? ['--tmpfs', hidden, '--remount-ro', hidden]
    : ['--ro-bind', '/dev/null', hidden];
}

/** `ulimit` in a bash that then becomes the program: ceilings of the call's whole tree. */
function limitWrapper(limits: SandboxBounds['limits']): string[] {
  const flags: string[] = [];
  if (limits.cpuSeconds !== undefined) flags.push(`-t ${limits.cpuSeconds}`);
  if (limits.memoryMiB !== undefined) flags.push(`-v ${limits.memoryMiB * 1024}`);
  if (limits.processes !== undefined) flags.push(`-u ${limits.processes}`);
  if (flags.length === 0) return [];
  const script = [...flags.map((flag) => `ulimit ${flag}`), 'exec "$@"'].join(' && ');
  return ['/bin/bash', '--norc', '--noprofile', '-c', script, 'deputy-limits'];
}

function exists(p: string): boolean {
  try {
    statSync(p);
    return true;
  } catch {
    return false;
  }
}

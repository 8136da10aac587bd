import { accessSync, constants, readFileSync } from 'node:fs';
import path from 'node:path';
import type { SandboxLimits } from '../shared/sandbox-contract.js';

/**
 * The ceilings when a definition declares none. Each is far above what an ordinary command needs
 * (a build, a test suite, a package install) and far below what takes the worker down with it:
 * ten minutes of CPU is the bash tool's longest timeout, 4 GiB of address space fits a compiler or
 * a Node process with room to spare, and 256 processes run a parallel build while a fork bomb
 * stops at a count the machine does not notice.
 */
export const DEFAULT_CPU_SECONDS = 600;
export const DEFAULT_MEMORY_MIB = 4096;
export const DEFAULT_PROCESSES = 256;

export interface ResolvedLimits {
  cpuSeconds: number;
  memoryMiB: number;
  processes: number;
}

export function resolvedLimits(limits: SandboxLimits): ResolvedLimits {
  return {
    cpuSeconds: limits.cpuSeconds ?? DEFAULT_CPU_SECONDS,
    memoryMiB: limits.memoryMiB ?? DEFAULT_MEMORY_MIB,
    processes: limits.processes ?? DEFAULT_PROCESSES,
  };
}

/**
 * `prlimit` in front of the command, inside the sandbox, so every process the command starts
 * inherits the ceilings. CPU: SIGXCPU at the limit (a program may stop cleanly), SIGKILL one second
 * later. The kernel counts CPU time per process, so a command that spreads its work over many
 * processes is bounded by the process ceiling times this, and by the caller's wall-clock timeout.
 */
export function limitWrapper(prlimit: string, limits: ResolvedLimits): string[] {
  const bytes = limits.memoryMiB * 1024 * 1024;
  return [
    prlimit,
    `--cpu=${limits.cpuSeconds}:${limits.cpuSeconds + 1}`,
    `--as=${bytes}`,
    `--nproc=${limits.processes}`,
    '--',
  ];
}

/**
 * How the process ceiling is enforced.
 * - `rlimit`: the worker is not root, so RLIMIT_NPROC holds, and counts only this call's
 *   processes because each sandbox has a user namespace of its own.
 * - `cgroup`: the worker is root, which RLIMIT_NPROC exempts (the sandbox maps to the worker's
 *   own uid, so it is root outside too); a pids cgroup made for the call holds instead.
 * - `none`: root without a writable pids cgroup: no ceiling on processes but the wall time.
 */
export type ProcessCeiling =
  { kind: 'rlimit' } | { kind: 'cgroup'; parent: string } | { kind: 'none'; problem: string };

let cachedCeiling: ProcessCeiling | undefined;

export function processCeiling(): ProcessCeiling {
  cachedCeiling ??= findProcessCeiling();
  return cachedCeiling;
}

function findProcessCeiling(): ProcessCeiling {
  if (process.getuid?.() !== 0) return { kind: 'rlimit' };
  const parent = pidsCgroupParent();
  if (parent !== undefined) return { kind: 'cgroup', parent };
  return {
    kind: 'none',
    problem:
      'the worker runs as root, which the process limit does not bind, and no writable pids cgroup was found: a sandboxed command can start as many processes as the machine allows until its timeout',
  };
}

/**
 * The worker's own pids cgroup, where a child cgroup per call can be made: cgroup v1's `pids`
 * hierarchy, or v2's unified one when its subtree hands the pids controller down.
 */
function pidsCgroupParent(): string | undefined {
  let lines: string[];
  try {
    lines = readFileSync('/proc/self/cgroup', 'utf8').split('\n');
  } catch {
    return undefined;
  }
  const candidates: string[] = [];
  for (const line of lines) {
    const [, controllers, own] = line.split(':');
    if (controllers === undefined || own === undefined) continue;
    if (controllers.split(',').includes('pids')) {
      candidates.push(path.join('/sys/fs/cgroup/pids', own));
    } else if (controllers === '') {
      const unified = path.join('/sys/fs/cgroup', own);
      if (readOrEmpty(path.join(unified, 'cgroup.subtree_control')).split(' ').includes('pids')) {
        candidates.push(unified);
      }
    }
  }
  return candidates.find((folder) => writable(folder));
}

function readOrEmpty(file: string): string {
  try {
    return readFileSync(file, 'utf8').trim();
  } catch {
    return '';
  }
}

function writable(folder: string): boolean {
  try {
    accessSync(folder, constants.W_OK);
    accessSync(path.join(folder, 'cgroup.procs'), constants.W_OK);
    return true;
  } catch {
    return false;
  }
}

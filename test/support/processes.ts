/** Watching real processes from outside, through Linux /proc, for the orphan tests. */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { eventually } from './eventually.js';

interface ProcStat {
  state: string;
  ppid: number;
  pgid: number;
}

/** Fields after the command name, which may itself hold spaces and parentheses. */
function procStat(pid: number | string): ProcStat | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: state!, ppid: Number(ppid), pgid: Number(pgid) };
  } catch {
    return null;
  }
}

/**
 * Running, not merely not yet reaped: an orphan killed by us stays a zombie until init gets
 * to it, and kill(pid, 0) still succeeds on a zombie. Linux /proc is what tells them apart.
 */
export function isRunning(pid: number): boolean {
  const stat = procStat(pid);
  return stat !== null && stat.state !== 'Z' && stat.state !== 'X';
}

export function parentOf(pid: number): number | null {
  return procStat(pid)?.ppid ?? null;
}

/** Pids of the running (non-zombie) processes whose process group is `pgid`. */
export function groupMembers(pgid: number): number[] {
  return readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      const stat = procStat(name);
      return stat !== null && stat.pgid === pgid && stat.state !== 'Z' && stat.state !== 'X';
    })
    .map(Number);
}

/** Kills a whole process group, ignoring one that is already gone (test cleanup). */
export function killGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // ESRCH: nothing left to kill.
  }
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/** Resolves once every file has grown at least once: whatever writes them is running. */
export async function growing(files: string[], timeoutMs = 30_000): Promise<void> {
  const start = files.map(sizeOf);
  await eventually(
    async () => (files.every((file, index) => sizeOf(file) > start[index]!) ? true : undefined),
    `${files.join(', ')} to grow`,
    timeoutMs,
  );
}

/**
 * Resolves once no file has changed size for `quietMs`: the heartbeat writers (every 100 ms)
 * are gone. Fails after `timeoutMs`, a hang guard far above the 2 s kill grace, not a speed
 * claim: on the old code the writers never stop and this is what fails.
 */
export async function stopGrowing(
  files: string[],
  timeoutMs: number,
  quietMs = 1_500,
): Promise<void> {
  let sizes = files.map(sizeOf);
  let changedAt = Date.now();
  await eventually(
    async () => {
      const now = files.map(sizeOf);
      if (now.some((size, index) => size !== sizes[index])) {
        sizes = now;
        changedAt = Date.now();
        return undefined;
      }
      return Date.now() - changedAt >= quietMs ? true : undefined;
    },
    `${files.join(', ')} to stop growing`,
    timeoutMs,
  );
}

/** A shell command that appends to `file` every 100 ms, forever. */
export function heartbeatLoop(file: string): string {
  return `while :; do echo beat >> ${file}; sleep 0.1; done`;
}

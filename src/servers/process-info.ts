/**
 * What a pid is right now, read from Linux /proc: enough to tell deputy's own dev server from a
 * process that merely got its pid, and a server with a live owner from an orphan. Node has no API
 * for another process's command line or parent.
 */
import { existsSync, readFileSync } from 'node:fs';

export type ProcessInfo =
  | { state: 'running'; argv: string[]; ppid: number; pgid: number }
  | { state: 'gone' }
  /** Alive, but this platform has no /proc to say what it is. */
  | { state: 'unknown' };

export function processInfo(pid: number): ProcessInfo {
  if (!Number.isInteger(pid) || pid <= 0) return { state: 'gone' };
  if (!existsSync('/proc/self/stat'))
    return signalable(pid) ? { state: 'unknown' } : { state: 'gone' };
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name is in parentheses and may itself hold spaces or ')': split after the last.
    const [state, ppid, pgid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // A zombie has exited and only waits to be reaped: gone for every purpose here.
    if (state === 'Z' || state === 'X') return { state: 'gone' };
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').slice(0, -1);
    return { state: 'running', argv, ppid: Number(ppid), pgid: Number(pgid) };
  } catch {
    return { state: 'gone' };
  }
}

function signalable(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it exists, it is just not ours to signal.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

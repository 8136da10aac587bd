/**
 * Before a dev server starts on a data directory, whatever server.json records there is dealt
 * with: gone (the record is dropped), orphaned (stopped: provably ours, and nobody else will ever
 * stop it) or owned by a running deputy (refused). Never adopted: `deputy dev` used to reuse a
 * live recorded server, and a server it had not started it never stopped either.
 */
import { DeputyError } from '../../errors.js';
import { processInfo } from '../process-info.js';
import { inspectRecordedServer, removeServerRecord, serverInfoPath } from './server-record.js';

export interface ClaimOptions {
  /** Milliseconds an orphan gets to shut down on SIGTERM before SIGKILL. */
  graceMs: number;
  log: (line: string) => void;
}

/** Resolves when no other server runs on the data directory's SQLite file; throws if one must. */
export async function claimDatabase(dataDir: string, options: ClaimOptions): Promise<void> {
  const recorded = inspectRecordedServer(dataDir);
  switch (recorded.state) {
    case 'none':
      return;
    case 'stale':
      await removeServerRecord(dataDir);
      return;
    case 'owned':
      throw new DeputyError(
        'conflict',
        `the Temporal dev server for ${dataDir} (pid ${recorded.record.pid}, ${recorded.record.address}) ` +
          `belongs to another running deputy (pid ${recorded.ownerPid}): stop that one first, ` +
          'or run `deputy worker` or `deputy api` next to it',
      );
    case 'unverifiable':
      throw new DeputyError(
        'conflict',
        `${serverInfoPath(dataDir)} names pid ${recorded.record.pid}, which is running, and deputy ` +
          'cannot tell on this platform whether it is its Temporal dev server: stop that process, ' +
          'or delete the file if it is something else',
      );
    case 'orphaned':
      options.log(
        `stopping the Temporal dev server (pid ${recorded.record.pid}) left running on ${dataDir} ` +
          'by a deputy that is gone...',
      );
      await stopOrphan(recorded.record.pid, options.graceMs);
      await removeServerRecord(dataDir);
      return;
  }
}

async function stopOrphan(pid: number, graceMs: number): Promise<void> {
  const info = processInfo(pid);
  if (info.state !== 'running') return;
  // Our servers lead their own group: signalling it takes their watchdog along too.
  const target = info.pgid === pid ? -pid : pid;
  // Same pid and command line: a pid reused after the server died must never be signalled.
  const stillIt = (): boolean => {
    const now = processInfo(pid);
    return now.state === 'running' && now.argv.join('\0') === info.argv.join('\0');
  };
  for (const [signal, waitMs] of [
    ['SIGTERM', graceMs],
    ['SIGKILL', 5_000],
  ] as const) {
    if (!stillIt()) return;
    try {
      process.kill(target, signal);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return; // gone in between
      throw new Error(
        `cannot stop the orphaned Temporal dev server (pid ${pid}): ${(error as Error).message}`,
      );
    }
    const deadline = Date.now() + waitMs;
    while (stillIt() && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  if (stillIt()) throw new Error(`the orphaned Temporal dev server (pid ${pid}) did not stop`);
}

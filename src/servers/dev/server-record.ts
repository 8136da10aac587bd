/**
 * `<data dir>/temporal/server.json`: the dev server running on this data directory's SQLite file
 * and the deputy process that owns it (started it and will stop it). The client commands find
 * Temporal through it; `deputy dev` reads it before starting a server, so that one SQLite file
 * never gets two servers and a server whose owner is gone is never taken for a live one.
 */
import { readFileSync } from 'node:fs';
import { rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { processInfo } from '../process-info.js';

export interface ServerRecord {
  address: string;
  uiUrl: string | null;
  /** The `temporal server start-dev` process; it leads its own process group. */
  pid: number;
  /** The deputy process that started the server. Files of older deputy versions lack it. */
  ownerPid?: number;
}

/** What the recorded server is now. */
export type RecordedServer =
  | { state: 'none' }
  /** Its process is gone, or the pid now belongs to something that is not our server. */
  | { state: 'stale'; record: ServerRecord }
  /** Running on our SQLite file, a child of the deputy process that started it. */
  | { state: 'owned'; record: ServerRecord; ownerPid: number }
  /** Running on our SQLite file, but its owner is gone: nobody will ever stop it. */
  | { state: 'orphaned'; record: ServerRecord }
  /** Running, but without /proc deputy cannot tell what it is. */
  | { state: 'unverifiable'; record: ServerRecord };

export function serverInfoPath(dataDir: string): string {
  return join(dataDir, 'temporal', 'server.json');
}

export function databasePath(dataDir: string): string {
  return join(dataDir, 'temporal', 'temporal.db');
}

export function readServerRecord(dataDir: string): ServerRecord | null {
  try {
    const info = JSON.parse(readFileSync(serverInfoPath(dataDir), 'utf8')) as Partial<
      Record<keyof ServerRecord, unknown>
    >;
    if (typeof info.address !== 'string' || typeof info.pid !== 'number') return null;
    return {
      address: info.address,
      uiUrl: typeof info.uiUrl === 'string' ? info.uiUrl : null,
      pid: info.pid,
      ...(typeof info.ownerPid === 'number' ? { ownerPid: info.ownerPid } : {}),
    };
  } catch {
    return null;
  }
}

export async function writeServerRecord(dataDir: string, record: ServerRecord): Promise<void> {
  await writeFile(serverInfoPath(dataDir), JSON.stringify(record, null, 2));
}

export async function removeServerRecord(dataDir: string): Promise<void> {
  await rm(serverInfoPath(dataDir), { force: true });
}

export function inspectRecordedServer(dataDir: string): RecordedServer {
  const record = readServerRecord(dataDir);
  if (!record) return { state: 'none' };
  const info = processInfo(record.pid);
  if (info.state === 'gone') return { state: 'stale', record };
  if (info.state === 'unknown') return { state: 'unverifiable', record };
  if (!servesDatabase(info.argv, databasePath(dataDir))) return { state: 'stale', record };
  // The parent is the owner while the owner lives: an orphan is re-parented (to init or a
  // subreaper), and a reused pid cannot make ppid match, so no liveness guess is involved.
  if (record.ownerPid !== undefined && info.ppid === record.ownerPid) {
    return { state: 'owned', record, ownerPid: record.ownerPid };
  }
  return { state: 'orphaned', record };
}

/**
 * `temporal server start-dev ... --db-filename <file>` on this file. The binary's name is not
 * checked: TEMPORAL_CLI may name any path, and the arguments are what make it ours.
 */
function servesDatabase(argv: string[], database: string): boolean {
  const follows = (name: string, matches: (value: string) => boolean): boolean =>
    argv.some((arg, index) => {
      const value = argv[index + 1];
      return arg === name && value !== undefined && matches(value);
    });
  return (
    follows('server', (value) => value === 'start-dev') &&
    follows('--db-filename', (value) => resolve(value) === resolve(database))
  );
}

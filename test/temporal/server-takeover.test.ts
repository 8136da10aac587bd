/**
 * What a new dev server does about the one server.json records, and what the client commands
 * make of it. The "servers" here are real processes whose command line is a dev server's on the
 * data directory's SQLite file (what makes a process ours); starting real Temporal servers is
 * left to test/e2e/dev.test.ts.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { DeputyError } from '../../src/errors.js';
import { temporalAddress } from '../../src/temporal/connection.js';
import {
  databasePath,
  serverInfoPath,
  writeServerRecord,
} from '../../src/servers/dev/server-record.js';
import { claimDatabase } from '../../src/servers/dev/server-takeover.js';
import { isRunning } from '../support/processes.js';

let dataDir: string;
let lines: string[];
const children: ChildProcess[] = [];

beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'deputy-takeover-'));
  mkdirSync(join(dataDir, 'temporal'));
  lines = [];
});

afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

const claim = () => claimDatabase(dataDir, { graceMs: 500, log: (line) => lines.push(line) });
const address = () => temporalAddress(loadConfig({ workspace: dataDir, dataDir }, {}));

/** A process with a dev server's command line; `ignoreTerm` makes it need SIGKILL. */
async function fakeServer(database: string, ignoreTerm = false): Promise<ChildProcess> {
  const script = `${ignoreTerm ? "process.on('SIGTERM', () => {});" : ''} setInterval(() => {}, 1000); process.stdout.write('up');`;
  const child = spawn(
    process.execPath,
    ['-e', script, 'server', 'start-dev', '--db-filename', database],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  children.push(child);
  await new Promise((resolve) => child.stdout!.once('data', resolve));
  return child;
}

/** A pid that surely belongs to no process any more: one that exited and was reaped. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

async function record(pid: number, ownerPid?: number): Promise<void> {
  await writeServerRecord(dataDir, {
    address: '127.0.0.1:7233',
    uiUrl: null,
    pid,
    ...(ownerPid === undefined ? {} : { ownerPid }),
  });
}

function exited(child: ChildProcess): Promise<NodeJS.Signals | null> {
  if (child.exitCode !== null || child.signalCode !== null) {
    return Promise.resolve(child.signalCode);
  }
  return new Promise((resolve) => child.once('exit', (_code, signal) => resolve(signal)));
}

describe('a recorded dev server', () => {
  it('none: nothing to do, and the client commands say so', async () => {
    await claim();
    expect(lines).toEqual([]);
    expect(address).toThrow(`no Temporal server known for data directory ${dataDir}`);
  });

  it('whose process is gone: the record is dropped, never trusted for its address', async () => {
    await record(deadPid(), deadPid());
    expect(address).toThrow(/\(pid \d+\) is not running: run `deputy dev`/);
    await claim();
    expect(existsSync(serverInfoPath(dataDir))).toBe(false);
    expect(lines).toEqual([]);
  });

  it('whose pid now runs something else: that process is left alone', async () => {
    const other = await fakeServer(join(dataDir, 'another.db'));
    await record(other.pid!, deadPid());
    expect(address).toThrow(/is not running/);
    await claim();
    expect(existsSync(serverInfoPath(dataDir))).toBe(false);
    expect(isRunning(other.pid!)).toBe(true);
  });

  it('owned by a running deputy: used by the client commands, refused as a second server', async () => {
    // Its parent is this process, as a real server's parent is the deputy that started it.
    const server = await fakeServer(databasePath(dataDir));
    await record(server.pid!, process.pid);
    expect(address()).toBe('127.0.0.1:7233');
    const refusal = await claim().then(
      () => null,
      (error: unknown) => error,
    );
    expect(refusal).toBeInstanceOf(DeputyError);
    expect((refusal as DeputyError).kind).toBe('conflict');
    expect((refusal as DeputyError).message).toBe(
      `the Temporal dev server for ${dataDir} (pid ${server.pid}, 127.0.0.1:7233) belongs to ` +
        `another running deputy (pid ${process.pid}): stop that one first, or run \`deputy worker\` ` +
        'or `deputy api` next to it',
    );
    expect(isRunning(server.pid!)).toBe(true);
    expect(existsSync(serverInfoPath(dataDir))).toBe(true);
  });

  it('orphaned: stopped with SIGTERM, its record dropped; the client commands will not use it', async () => {
    const orphan = await fakeServer(databasePath(dataDir));
    await record(orphan.pid!, deadPid());
    expect(address).toThrow(/outlived the deputy that started it/);
    await claim();
    expect(await exited(orphan)).toBe('SIGTERM');
    expect(existsSync(serverInfoPath(dataDir))).toBe(false);
    expect(lines).toEqual([
      `stopping the Temporal dev server (pid ${orphan.pid}) left running on ${dataDir} by a deputy that is gone...`,
    ]);
  });

  it('orphaned and deaf to SIGTERM: SIGKILLed after the grace; a record without owner is an orphan', async () => {
    const orphan = await fakeServer(databasePath(dataDir), true);
    await record(orphan.pid!);
    await claim();
    expect(await exited(orphan)).toBe('SIGKILL');
    expect(existsSync(serverInfoPath(dataDir))).toBe(false);
  });
});

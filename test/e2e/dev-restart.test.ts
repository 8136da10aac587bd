/**
 * `deputy dev` keeps its Temporal dev server running: a server that dies on its own is
 * started again on the same port and SQLite file, with a line saying so, and a delegation parked
 * on a card before the death completes after it. A server that cannot be started again makes
 * `deputy dev` stop everything and exit 1 saying why, instead of a worker retrying forever.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { isRunning, killGroup } from '../support/processes.js';
import {
  DEPUTY_BIN,
  printedApiUrl,
  runDeputy,
  spawnCaptured,
  type CapturedProcess,
} from './run-deputy.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';

const env: NodeJS.ProcessEnv = { ...process.env };
delete env.TEMPORAL_ADDRESS;
delete env.DEPUTY_PORT;

/** Every `deputy dev` and Temporal server a test started, killed at the end whatever happened. */
const started: ChildProcess[] = [];
const serverPids: number[] = [];
const blockers: Server[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  for (const pid of serverPids) killGroup(pid);
  for (const blocker of blockers) blocker.close();
});

function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000) {
  return eventually(probe, what, timeoutMs, 250);
}

interface Dev extends CapturedProcess {
  apiUrl: string;
  workspace: string;
  dataDir: string;
}

async function startDev(name: string): Promise<Dev> {
  const workspace = mkdtempSync(join(tmpdir(), `deputy-${name}-ws-`));
  const dataDir = mkdtempSync(join(tmpdir(), `deputy-${name}-data-`));
  writeFileSync(join(workspace, 'README.md'), `# ${name}\n`);
  const dev = spawnCaptured(
    process.execPath,
    [DEPUTY_BIN, 'dev', '--workspace', workspace, '--data-dir', dataDir, '--port', '0'],
    { env: { ...env, DEPUTY_USER_DIR: join(workspace, '.user-config') } },
  );
  started.push(dev.child);
  const apiUrl = await printedApiUrl(dev, 150_000);
  await until(
    async () => (dev.output().includes('Ctrl-C stops everything.') ? true : undefined),
    'the banner',
    10_000,
  );
  return { ...dev, apiUrl, workspace, dataDir };
}

function recordedServer(dataDir: string): { address: string; pid: number } | null {
  try {
    const info = JSON.parse(readFileSync(join(dataDir, 'temporal', 'server.json'), 'utf8')) as {
      address: string;
      pid: number;
    };
    serverPids.push(info.pid);
    return info;
  } catch {
    return null;
  }
}

/** Listens on `port` as soon as it is free, trying again on EADDRINUSE for up to 10 s. */
async function takePort(port: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const blocker = createServer();
    try {
      await new Promise<void>((resolve, reject) => {
        blocker.once('error', reject);
        blocker.listen(port, '127.0.0.1', () => resolve());
      });
      blockers.push(blocker);
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE' || Date.now() > deadline) {
        throw error;
      }
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}

describe('deputy dev, when its Temporal dev server dies', () => {
  it('restarts it on the same port and database; a parked delegation completes', async () => {
    const dev = await startDev('dev-restart');
    const deputy = (args: string[]) =>
      runDeputy(['--workspace', dev.workspace, '--data-dir', dev.dataDir, ...args], {
        env: { ...env, DEPUTY_USER_DIR: join(dev.workspace, '.user-config') },
      });
    const first = recordedServer(dev.dataDir)!;
    const delegated = await deputy(['delegate', 'demo', 'Greet', '--background', '--json']);
    expect(delegated.code, delegated.stderr).toBe(0);
    const { delegationId, session } = JSON.parse(delegated.stdout) as {
      delegationId: string;
      session: string;
    };
    const card = await until(async () => {
      const response = await fetch(`${dev.apiUrl}/sessions/${session}/cards`);
      const { cards } = (await response.json()) as { cards: ApprovalCard[] };
      return cards.find((each) => each.delegationId === delegationId);
    }, 'the card');

    process.kill(first.pid, 'SIGKILL');

    await until(
      async () =>
        /the Temporal dev server is running again/.test(dev.output()) ? true : undefined,
      'the restart',
      120_000,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; deputy dev printed:\n${dev.output().slice(-3000)}`);
    });
    expect(dev.output()).toContain(
      `the Temporal dev server (pid ${first.pid}) died (signal SIGKILL); restarting it on ${first.address} with the same database`,
    );
    const second = recordedServer(dev.dataDir)!;
    expect(second.address).toBe(first.address);
    expect(second.pid).not.toBe(first.pid);
    expect(isRunning(second.pid)).toBe(true);

    await until(async () => {
      const health = (await (await fetch(`${dev.apiUrl}/health`)).json()) as { temporal: string };
      return health.temporal === 'reachable' ? true : undefined;
    }, '/health to report Temporal reachable');
    const approved = await deputy(['approve', card.id]);
    expect(approved.code, approved.stderr).toBe(0);
    await until(async () => {
      const response = await fetch(`${dev.apiUrl}/delegations/${delegationId}`);
      const state = (await response.json()) as { status: string };
      return state.status === 'completed' ? true : undefined;
    }, 'completion');
    expect(readFileSync(join(dev.workspace, 'hello.txt'), 'utf8')).toContain('Hello');

    // Stopped by deputy itself: not restarted, and nothing left running.
    dev.child.kill('SIGINT');
    expect(await dev.exited).toBe(0);
    expect(dev.output()).not.toMatch(/pid \d+\) died \(signal SIGTERM\)/);
    expect(isRunning(second.pid)).toBe(false);
    expect(existsSync(join(dev.dataDir, 'temporal', 'server.json'))).toBe(false);
  }, 300_000);

  it('exits 1 saying why when it cannot be restarted (its port is taken)', async () => {
    const dev = await startDev('dev-giveup');
    const server = recordedServer(dev.dataDir)!;
    const port = Number(server.address.split(':')[1]);

    process.kill(server.pid, 'SIGKILL');
    // Taken before the restart can bind it: the dying server frees it within a few ms, a restart
    // takes a process start and a Temporal boot.
    await takePort(port);

    // It gives up and exits; one that never did fails the test at its timeout.
    const code = await dev.exited;
    expect(code, dev.output().slice(-3000)).toBe(1);
    expect(dev.output()).toContain(
      `the Temporal dev server (pid ${server.pid}) died (signal SIGKILL); restarting it on ${server.address}`,
    );
    expect(dev.output()).toMatch(
      /the Temporal dev server could not be restarted: .+; shutting down/,
    );
    expect(existsSync(join(dev.dataDir, 'temporal', 'server.json'))).toBe(false);
  }, 300_000);
});

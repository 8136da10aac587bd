/**
 * `deputy dev` as a user runs it: no TEMPORAL_ADDRESS, so it starts its own Temporal dev server
 * under the data directory, a worker and the API; other `deputy` commands find that server via
 * <dataDir>/temporal/server.json; Ctrl-C (SIGINT) stops everything and exits 0. SIGKILLed, it
 * takes its server down with it, and the next `deputy dev` runs a server of its own.
 */
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { isRunning, killGroup, parentOf } from '../support/processes.js';
import {
  DEPUTY_BIN,
  printedApiUrl,
  runDeputy,
  spawnCaptured,
  type CapturedProcess,
  type Outcome,
} from './run-deputy.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';

const workspace = mkdtempSync(join(tmpdir(), 'deputy-dev-ws-'));
const dataDir = mkdtempSync(join(tmpdir(), 'deputy-dev-data-'));
writeFileSync(join(workspace, 'README.md'), '# dev workspace\n');

const env: NodeJS.ProcessEnv = {
  ...process.env,
  DEPUTY_USER_DIR: join(workspace, '.user-config'),
};
delete env.TEMPORAL_ADDRESS;
delete env.DEPUTY_PORT;

function deputy(args: string[]): Promise<Outcome> {
  return runDeputy(['--workspace', workspace, '--data-dir', dataDir, ...args], { env });
}

function until<T>(
  probe: () => Promise<T | undefined>,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  return eventually(probe, what, timeoutMs, 250);
}

/** Every `deputy dev` and Temporal server a test started, killed at the end whatever happened. */
const started: ChildProcess[] = [];
const serverPids: number[] = [];

afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  for (const pid of serverPids) killGroup(pid);
});

interface Dev extends CapturedProcess {
  apiUrl: string;
}

/** Starts `deputy dev` on a workspace and data directory; resolves once it prints the API URL. */
async function startDev(workspaceDir: string, dataDirectory: string): Promise<Dev> {
  const dev = spawnCaptured(
    process.execPath,
    [DEPUTY_BIN, 'dev', '--workspace', workspaceDir, '--data-dir', dataDirectory, '--port', '0'],
    { env },
  );
  started.push(dev.child);
  const apiUrl = await printedApiUrl(dev, 150_000);
  // The banner's lines are separate writes, which can reach this pipe in separate chunks.
  await until(
    async () => (dev.output().includes('Ctrl-C stops everything.') ? true : undefined),
    'the banner',
    10_000,
  );
  return { ...dev, apiUrl };
}

function recordedServer(dataDirectory: string): { address: string; pid: number } {
  const info = JSON.parse(readFileSync(join(dataDirectory, 'temporal', 'server.json'), 'utf8')) as {
    address: string;
    pid: number;
  };
  serverPids.push(info.pid);
  return info;
}

async function pendingCard(
  apiUrl: string,
  session: string,
  delegationId: string,
): Promise<ApprovalCard> {
  return until(async () => {
    const response = await fetch(`${apiUrl}/sessions/${session}/cards`);
    const { cards } = (await response.json()) as { cards: ApprovalCard[] };
    return cards.find((each) => each.delegationId === delegationId);
  }, 'the card');
}

async function completed(apiUrl: string, delegationId: string): Promise<void> {
  await until(async () => {
    const response = await fetch(`${apiUrl}/delegations/${delegationId}`);
    const state = (await response.json()) as { status: string };
    return state.status === 'completed' ? true : undefined;
  }, 'completion');
}

describe('deputy dev', () => {
  // It starts a dev server, a worker, the API and several CLI processes: under the whole suite
  // on 2 cores it once took over the default 120 s.
  it('runs Temporal, a worker and the API; the CLI finds it; SIGINT stops it all', async () => {
    const { child: dev, output: printed, exited, apiUrl } = await startDev(workspace, dataDir);
    const output = printed();
    expect(output).toMatch(/Temporal:\s+127\.0\.0\.1:\d+\s+UI: http:\/\/127\.0\.0\.1:\d+/);
    expect(output).toContain('deputy delegate demo');
    const infoPath = join(dataDir, 'temporal', 'server.json');
    const info = recordedServer(dataDir);
    expect(existsSync(join(dataDir, 'temporal', 'temporal.db'))).toBe(true);

    const health = await fetch(`${apiUrl}/health`);
    const ghost = await fetch(`${apiUrl}/delegations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'ghost', task: 'x' }),
    });
    expect(ghost.status).toBe(404);
    expect(await health.json()).toEqual({
      ok: true,
      auth: false,
      temporal: 'reachable',
      config: { ok: true },
      mcpJson: { ok: true },
    });

    // The CLI in another process finds the dev server through server.json.
    const started = await deputy([
      'delegate',
      'demo',
      'Greet the dev workspace',
      '--background',
      '--json',
    ]);
    expect(started.code, started.stderr).toBe(0);
    const { delegationId, session } = JSON.parse(started.stdout) as {
      delegationId: string;
      session: string;
    };
    const card = await pendingCard(apiUrl, session, delegationId);
    const approved = await deputy(['approve', card.id]);
    expect(approved.code, approved.stderr).toBe(0);
    await completed(apiUrl, delegationId);
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toContain('Hello');

    // The demo main agent through the dev API: a session whose child (demo) parks on its card.
    const opened = await fetch(`${apiUrl}/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'demo-lead', message: 'Greet the dev workspace again' }),
    });
    expect(opened.status).toBe(201);
    const { sessionId } = (await opened.json()) as { sessionId: string };
    const childCard = await eventually(async () => {
      const response = await fetch(`${apiUrl}/sessions/${sessionId}/cards`);
      const { cards } = (await response.json()) as { cards: ApprovalCard[] };
      return cards[0];
    }, 'the demo child card on the session');
    expect(childCard).toMatchObject({ agent: 'demo', session: sessionId });
    const stopped = await deputy(['session', 'stop', sessionId]);
    expect(stopped.code, stopped.stderr).toBe(0);

    dev.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(infoPath)).toBe(false);
    expect(() => process.kill(info.pid, 0)).toThrow();
  }, 240_000);

  it('SIGKILLed, takes its Temporal server along; the next one runs and stops its own', async () => {
    const ws = mkdtempSync(join(tmpdir(), 'deputy-dev-kill-ws-'));
    const data = mkdtempSync(join(tmpdir(), 'deputy-dev-kill-data-'));
    writeFileSync(join(ws, 'README.md'), '# killed dev workspace\n');
    const deputyOn = (args: string[]) =>
      runDeputy(['--workspace', ws, '--data-dir', data, ...args], { env });

    const first = await startDev(ws, data);
    const firstServer = recordedServer(data);
    expect(parentOf(firstServer.pid)).toBe(first.child.pid);
    // A delegation parked on a card, to show the SQLite file outlives both processes.
    const delegated = await deputyOn(['delegate', 'demo', 'Greet', '--background', '--json']);
    expect(delegated.code, delegated.stderr).toBe(0);
    const { delegationId, session } = JSON.parse(delegated.stdout) as {
      delegationId: string;
      session: string;
    };
    const card = await pendingCard(first.apiUrl, session, delegationId);

    first.child.kill('SIGKILL');
    await first.exited;
    // Hang guard, not a speed claim: the server gets SIGTERM at once and SIGKILL after 10 s.
    await until(
      async () => (isRunning(firstServer.pid) ? undefined : true),
      `the first Temporal server (pid ${firstServer.pid}) to stop`,
      30_000,
    );

    const second = await startDev(ws, data);
    const secondServer = recordedServer(data);
    expect(secondServer.pid).not.toBe(firstServer.pid);
    expect(parentOf(secondServer.pid)).toBe(second.child.pid);
    const cards = await deputyOn(['cards', '--session', session, '--json']);
    expect(cards.code, cards.stderr).toBe(0);
    expect(cards.stdout).toContain(card.id);
    const approved = await deputyOn(['approve', card.id]);
    expect(approved.code, approved.stderr).toBe(0);
    await completed(second.apiUrl, delegationId);

    second.child.kill('SIGINT');
    expect(await second.exited).toBe(0);
    expect(existsSync(join(data, 'temporal', 'server.json'))).toBe(false);
    expect(isRunning(secondServer.pid)).toBe(false);
    expect(existsSync(join(data, 'temporal', 'temporal.db'))).toBe(true);
    // Two `deputy dev` starts and a delegation across them: more than the default 120 s guard.
  }, 300_000);
});

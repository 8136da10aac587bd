/**
 * `deputy dev` as a user runs it: no TEMPORAL_ADDRESS, so it starts its own Temporal dev server
 * under the data directory, a worker and the API; other `deputy` commands find that server via
 * <dataDir>/temporal/server.json; Ctrl-C (SIGINT) stops everything and exits 0.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { DEPUTY_BIN, runDeputy, type Outcome } from './run-deputy.js';
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

let dev: ChildProcess | null = null;

afterAll(() => {
  if (dev && dev.exitCode === null) dev.kill('SIGKILL');
});

describe('deputy dev', () => {
  it('runs Temporal, a worker and the API; the CLI finds it; SIGINT stops it all', async () => {
    dev = spawn(
      process.execPath,
      [DEPUTY_BIN, 'dev', '--workspace', workspace, '--data-dir', dataDir, '--port', '0'],
      { env },
    );
    let output = '';
    dev.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    dev.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => dev!.once('exit', resolve));

    const apiUrl = await until(
      async () => /deputy API:\s+(http:\/\/127\.0\.0\.1:\d+)/.exec(output)?.[1],
      'the API URL',
      150_000,
    );
    expect(output).toMatch(/Temporal:\s+127\.0\.0\.1:\d+\s+UI: http:\/\/127\.0\.0\.1:\d+/);
    expect(output).toContain('deputy delegate demo');
    const infoPath = join(dataDir, 'temporal', 'server.json');
    const info = JSON.parse(readFileSync(infoPath, 'utf8')) as { address: string; pid: number };
    expect(existsSync(join(dataDir, 'temporal', 'temporal.db'))).toBe(true);

    const health = await fetch(`${apiUrl}/health`);
    const ghost = await fetch(`${apiUrl}/delegations`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'ghost', task: 'x' }),
    });
    expect(ghost.status).toBe(404);
    expect(await health.json()).toEqual({ ok: true, auth: false });

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
    const card = await until(async () => {
      const response = await fetch(`${apiUrl}/sessions/${session}/cards`);
      const { cards } = (await response.json()) as { cards: ApprovalCard[] };
      return cards.find((each) => each.delegationId === delegationId);
    }, 'the card');
    const approved = await deputy(['approve', card.id]);
    expect(approved.code, approved.stderr).toBe(0);
    await until(async () => {
      const response = await fetch(`${apiUrl}/delegations/${delegationId}`);
      const state = (await response.json()) as { status: string };
      return state.status === 'completed' ? true : undefined;
    }, 'completion');
    expect(readFileSync(join(workspace, 'hello.txt'), 'utf8')).toContain('Hello');

    dev.kill('SIGINT');
    expect(await exited).toBe(0);
    expect(existsSync(infoPath)).toBe(false);
    expect(() => process.kill(info.pid, 0)).toThrow();
  });
});

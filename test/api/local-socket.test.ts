/**
 * The API's local socket (src/local-socket.ts) as a door: who may use it, what it replaces, what
 * it refuses. Real sockets and a real `deputy` process; the Delegations facade is the recording
 * stub (test/integration/local-socket-cli.test.ts drives real Temporal through it).
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAuth } from '../../src/api/http/auth.js';
import { loadConfig } from '../../src/config/load.js';
import { localOperatorId } from '../../src/local-operator.js';
import { localApiSocketPath } from '../../src/paths/workspace-directories.js';
import { startApiServer } from '../../src/server.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { cardOfD1, stubDelegations } from './stub-delegations.js';

const quiet = { error: () => {}, info: () => {}, warn: () => {} };

function workspace(): string {
  return mkdtempSync(join(tmpdir(), 'deputy-sock-'));
}

/** GET `path` over the Unix socket at `socketPath`, with `headers`. */
function overSocket(
  socketPath: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: unknown }> {
  return new Promise((resolve, reject) => {
    const outgoing = request({ socketPath, path, headers }, (incoming) => {
      let text = '';
      incoming.on('data', (chunk: Buffer) => (text += chunk.toString()));
      incoming.on('end', () =>
        resolve({ status: incoming.statusCode ?? 0, body: JSON.parse(text) as unknown }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

describe('the local socket', () => {
  it('is the owner’s alone, acts as the local operator, and needs no token where TCP does', async () => {
    const dir = workspace();
    const config = { ...loadConfig({ workspace: dir, port: 0 }, {}), auth: { tokens: {} } };
    const stub = stubDelegations({ cards: async () => [cardOfD1('d-1.1', 'write')] });
    const server = await startApiServer(config, {
      delegations: stub.delegations,
      auth: createAuth(config, {}),
      logger: quiet,
    });
    const socket = localApiSocketPath(config.dataDir);
    try {
      expect(statSync(socket).isSocket()).toBe(true);
      expect(statSync(socket).mode & 0o777).toBe(0o600);
      expect(statSync(join(config.dataDir, 'local')).mode & 0o777).toBe(0o700);

      expect((await fetch(`${server.url}/cards`)).status).toBe(401);
      const local = await overSocket(socket, '/cards');
      expect(local.status).toBe(200);
      expect(local.body).toMatchObject({ cards: [{ id: 'd-1.1' }] });
      // A header cannot make a TCP request local: the flag comes from the server that accepted it.
      const forged = await fetch(`${server.url}/cards`, { headers: { 'x-local-operator': '1' } });
      expect(forged.status).toBe(401);
    } finally {
      await server.close();
    }
    expect(existsSync(socket)).toBe(false);
  });

  it('refuses a request meant for another Temporal target (421), and serves its own', async () => {
    const dir = workspace();
    const config = loadConfig({ workspace: dir, port: 0 }, { TEMPORAL_ADDRESS: '127.0.0.1:7233' });
    const stub = stubDelegations({ cards: async () => [] });
    const server = await startApiServer(config, { delegations: stub.delegations, logger: quiet });
    const socket = localApiSocketPath(config.dataDir);
    try {
      const elsewhere = await overSocket(socket, '/cards', {
        'x-deputy-temporal-address': '127.0.0.1:7999',
      });
      expect(elsewhere.status).toBe(421);
      expect(elsewhere.body).toMatchObject({ code: 'misdirected_request' });
      expect(String((elsewhere.body as { message: string }).message)).toContain('TEMPORAL_ADDRESS');
      const otherNamespace = await overSocket(socket, '/cards', {
        'x-deputy-temporal-namespace': 'staging',
      });
      expect(otherNamespace.status).toBe(421);
      const same = await overSocket(socket, '/cards', {
        'x-deputy-temporal-address': '127.0.0.1:7233',
        'x-deputy-temporal-namespace': 'default',
      });
      expect(same.status).toBe(200);
      expect(stub.calls.map((call) => call.method)).toEqual(['cards']);
    } finally {
      await server.close();
    }
  });

  it('takes the place of a socket left by a killed API, and leaves a live one alone', async () => {
    const dir = workspace();
    const config = loadConfig({ workspace: dir, port: 0 }, {});
    const socket = localApiSocketPath(config.dataDir);
    mkdirSync(join(config.dataDir, 'local'), { recursive: true });
    // A process that binds the socket and is killed: the file stays, nobody answers on it.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `require('node:net').createServer().listen(${JSON.stringify(socket)}, () => console.log('up'))`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    await new Promise((resolve) => holder.stdout!.once('data', resolve));
    holder.kill('SIGKILL');
    await new Promise((resolve) => holder.once('exit', resolve));
    expect(statSync(socket).isSocket()).toBe(true);

    const warnings: string[] = [];
    const logger = { ...quiet, warn: (message: string) => warnings.push(message) };
    const stub = stubDelegations({ cards: async () => [] });
    const first = await startApiServer(config, { delegations: stub.delegations, logger });
    try {
      expect((await overSocket(socket, '/cards')).status).toBe(200);
      const second = await startApiServer(config, { delegations: stub.delegations, logger });
      await second.close();
      expect(warnings.join('\n')).toContain('another deputy API serves this data directory');
      // The first API still answers: the second neither took nor removed its socket.
      expect((await overSocket(socket, '/cards')).status).toBe(200);
    } finally {
      await first.close();
    }
  });

  it('is not opened in place of a file that is not a socket', async () => {
    const dir = workspace();
    const config = loadConfig({ workspace: dir, port: 0 }, {});
    const socket = localApiSocketPath(config.dataDir);
    mkdirSync(join(config.dataDir, 'local'), { recursive: true });
    writeFileSync(socket, 'not a socket');
    const warnings: string[] = [];
    const server = await startApiServer(config, {
      delegations: stubDelegations().delegations,
      logger: { ...quiet, warn: (message) => warnings.push(message) },
    });
    await server.close();
    expect(warnings.join('\n')).toContain('a file that is not a socket');
    expect(statSync(socket).isFile()).toBe(true);
  });
});

describe('deputy cards and approve through the local socket', () => {
  it('answer from the API with no Temporal known to the command, and record the operator', async () => {
    const dir = workspace();
    const config = loadConfig({ workspace: dir, port: 0 }, {});
    const decided: unknown[] = [];
    const card = cardOfD1('d-1.1', 'write');
    const stub = stubDelegations({
      cards: async () => [card],
      decide: async (_cardId, decision) => {
        decided.push(decision);
        return { ...card, state: { status: 'approved', decidedBy: localOperatorId() } } as never;
      },
    });
    const server = await startApiServer(config, { delegations: stub.delegations, logger: quiet });
    // No TEMPORAL_ADDRESS and no dev server recorded in the data directory: talking to Temporal
    // itself, the command would exit 5. Only the socket can answer it.
    const env = { PATH: process.env.PATH, HOME: process.env.HOME };
    try {
      const cards = await runDeputy(['cards', '--json'], { env, cwd: dir });
      expect(cards.stderr).toBe('');
      expect(cards.code).toBe(0);
      expect(JSON.parse(cards.stdout)).toEqual([card]);

      const approved = await runDeputy(['approve', 'd-1.1', '--reason', 'fine', '--json'], {
        env,
        cwd: dir,
      });
      expect(approved.code).toBe(0);
      expect(JSON.parse(approved.stdout)).toMatchObject({
        id: 'd-1.1',
        state: { status: 'approved' },
      });
      expect(decided).toEqual([
        { decision: 'approve', reason: 'fine', decidedBy: localOperatorId() },
      ]);

      // A refusal from the API is the command's failure, with the exit code of the direct path.
      const unknown = await runDeputy(['approve', 'nope'], { env, cwd: dir });
      expect({ code: unknown.code, stderr: unknown.stderr }).toEqual({
        code: 3,
        stderr: "deputy: no approval card with id 'nope'\n",
      });

      // Another namespace in the environment: the API refuses, the command goes to Temporal
      // itself, finds none, and says so (exit 5) rather than act on the wrong server.
      const elsewhere = await runDeputy(['cards'], {
        env: { ...env, TEMPORAL_NAMESPACE: 'staging' },
        cwd: dir,
      });
      expect(elsewhere.code).toBe(5);
      expect(elsewhere.stderr).toContain('Temporal');
    } finally {
      await server.close();
    }
    // With the API gone, the socket is too: the command talks to Temporal itself.
    expect(existsSync(localApiSocketPath(config.dataDir))).toBe(false);
    const after = await runDeputy(['cards'], { env, cwd: dir });
    expect(after.code).toBe(5);
  });
});

/**
 * `POST|DELETE /workspace/mcp/:server/trust` over real HTTP on loopback, auth on, with a real MCP
 * runtime and the real fixture server over stdio: only an `admin` approves; an approval names
 * the hash the person saw (409 when the file says something else, 422 for a server a person
 * wrote in config.yaml); it is kept in the data directory and starts the server; withdrawing it
 * stops the server. A reader's listing shows the server waiting, and never starts it.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createAuth } from '../../src/api/http/auth.js';
import {
  McpServerListSchema,
  McpTrustAnswerSchema,
  type McpServerList,
} from '../../src/mcp-client/mcp-view-schemas.js';
import { loadConfig } from '../../src/config/load.js';
import {
  createRegistry,
  type DefinitionRegistry,
} from '../../src/definitions/registry/registry.js';
import { fixedConfig } from '../../src/config/live-config.js';
import { createMcpRuntime, type McpRuntime } from '../../src/mcp-client/mcp-runtime.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { readPids, stdioFixtureCommand } from '../fixtures/mcp/start.js';
import { eventually } from '../support/eventually.js';
import { isRunning } from '../support/processes.js';
import { AUTH_CONFIG, bearer, TOKEN_ENV } from './make-app.js';
import { stubDelegations } from './stub-delegations.js';

const root = mkdtempSync(join(tmpdir(), 'deputy-mcp-trust-routes-'));
const workspace = join(root, 'workspace');
const dataDir = join(root, 'data');
const marker = join(root, 'marker.pids');
const fixture = stdioFixtureCommand();

let registry: DefinitionRegistry;
let runtime: McpRuntime;
let server: ApiServer;

beforeAll(async () => {
  mkdirSync(join(workspace, '.subagents'), { recursive: true });
  writeFileSync(
    join(workspace, '.subagents', 'config.yaml'),
    stringify({
      auth: AUTH_CONFIG,
      mcpServers: { people: { transport: 'stdio', command: '/usr/bin/false', enabled: false } },
    }),
  );
  writeFileSync(
    join(workspace, '.mcp.json'),
    JSON.stringify({
      mcpServers: {
        marker: { command: fixture.command, args: fixture.args, env: { FIXTURE_PID_FILE: marker } },
      },
    }),
  );
  const env = { ...TOKEN_ENV, DEPUTY_USER_DIR: join(root, 'user') };
  const config = loadConfig({ workspace, dataDir, port: 0 }, env);
  registry = createRegistry({ config });
  await registry.load();
  runtime = createMcpRuntime({ settings: fixedConfig(config), definitions: registry });
  runtime.connectAll();
  server = await startApiServer(config, {
    delegations: stubDelegations().delegations,
    settings: fixedConfig(config),
    auth: createAuth(config, env),
    definitions: registry,
    mcp: runtime,
    logger: { error: () => {}, warn: () => {}, info: () => {} },
  });
});

afterAll(async () => {
  await server?.close();
  await runtime?.close();
  await registry?.close();
  rmSync(root, { recursive: true, force: true });
});

async function call(path: string, who: 'admin' | 'reader', init: RequestInit = {}) {
  const response = await fetch(`${server.url}${path}`, {
    ...init,
    headers: { ...bearer(who), 'content-type': 'application/json', ...init.headers },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function marked(who: 'admin' | 'reader' = 'reader') {
  const { status, body } = await call('/workspace/mcp', who);
  expect(status).toBe(200);
  const list: McpServerList = McpServerListSchema.parse(body);
  return list.servers.find((entry) => entry.name === 'marker')!;
}

const approve = (hash: string, who: 'admin' | 'reader' = 'admin') =>
  call('/workspace/mcp/marker/trust', who, { method: 'POST', body: JSON.stringify({ hash }) });

describe('POST|DELETE /workspace/mcp/:server/trust', () => {
  it('only an admin approves, exactly the hash shown; then it runs; withdrawn, it stops', async () => {
    const waiting = await marked();
    expect(waiting).toMatchObject({ status: 'untrusted', trust: { state: 'new' } });
    const { hash } = waiting.trust!;
    expect(hash).toMatch(/^[0-9a-f]{64}$/);
    expect(existsSync(marker)).toBe(false);

    const reader = await approve(hash, 'reader');
    expect(reader.status).toBe(403);
    expect(reader.body.message).toMatch(/approving an MCP server needs the 'admin' role/);
    const readerDelete = await call('/workspace/mcp/marker/trust', 'reader', { method: 'DELETE' });
    expect(readerDelete.status).toBe(403);

    expect((await approve('0'.repeat(64))).body).toMatchObject({ code: 'mcp_server_changed' });
    expect((await approve('0'.repeat(64))).status).toBe(409);
    expect((await approve('not-a-hash')).status).toBe(422);
    const people = await call('/workspace/mcp/people/trust', 'admin', {
      method: 'POST',
      body: JSON.stringify({ hash }),
    });
    expect(people.status).toBe(422);
    expect(people.body).toMatchObject({ code: 'mcp_server_needs_no_approval' });
    const nobody = await call('/workspace/mcp/nobody/trust', 'admin', {
      method: 'POST',
      body: JSON.stringify({ hash }),
    });
    expect(nobody.status).toBe(404);
    expect(existsSync(marker)).toBe(false);

    const approved = await approve(hash);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(McpTrustAnswerSchema.parse(approved.body)).toMatchObject({
      server: 'marker',
      approved: true,
      hash,
      approvedBy: 'alice',
      problem: null,
      wouldRun: { command: fixture.command, args: fixture.args, envNames: ['FIXTURE_PID_FILE'] },
    });
    // Kept in the data directory, under this workspace, by hash.
    const kept = JSON.parse(readFileSync(join(dataDir, 'mcp-trust.json'), 'utf8')) as {
      workspaces: Record<string, Record<string, { hash: string }>>;
    };
    expect(kept.workspaces[workspace]?.marker?.hash).toBe(hash);

    const connected = await eventually(
      async () => ((await marked()).status === 'connected' ? true : undefined),
      'the approved server to connect',
      30_000,
      200,
    );
    expect(connected).toBe(true);
    const [pid] = readPids(marker);
    expect(pid).toBeDefined();

    const withdrawn = await call('/workspace/mcp/marker/trust', 'admin', { method: 'DELETE' });
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ approved: false, hash });
    expect(await marked()).toMatchObject({ status: 'untrusted', trust: { state: 'new' } });
    await eventually(
      async () => (isRunning(pid!) ? undefined : true),
      'the withdrawn server to stop',
      15_000,
      100,
    );
    expect(readPids(marker)).toHaveLength(1);
  });

  it('a hand-written entry in the trust store approves nothing: untrusted, unsigned, until approved again', async () => {
    const { hash } = (await marked()).trust!;
    const started = readPids(marker).length;
    // What deputy wrote before approvals were signed, or what anyone with the file could add.
    writeFileSync(
      join(dataDir, 'mcp-trust.json'),
      JSON.stringify({
        v: 1,
        workspaces: {
          [workspace]: {
            marker: { hash, approvedAt: '2026-01-01T00:00:00.000Z', approvedBy: 'alice' },
          },
        },
      }),
    );
    const held = await marked();
    expect(held).toMatchObject({ status: 'untrusted', trust: { state: 'unsigned', hash } });
    expect(held.lastError).toContain(
      "MCP server 'marker' from .mcp.json: its entry in the trust store (mcp-trust.json) is not signed by this deputy",
    );
    expect(held.lastError).toContain('`deputy mcp trust marker`');
    expect(held.trust!.wouldRun).toMatchObject({ command: fixture.command });
    expect(readPids(marker)).toHaveLength(started);

    // Approved through deputy, the same entry is signed and the server runs.
    const approved = await approve(hash);
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    const kept = JSON.parse(readFileSync(join(dataDir, 'mcp-trust.json'), 'utf8')) as {
      workspaces: Record<string, Record<string, { mac?: string }>>;
    };
    expect(kept.workspaces[workspace]?.marker?.mac).toMatch(/^[0-9a-f]{64}$/);
    await eventually(
      async () => ((await marked()).status === 'connected' ? true : undefined),
      'the approved server to connect',
      30_000,
      200,
    );
    expect((await call('/workspace/mcp/marker/trust', 'admin', { method: 'DELETE' })).status).toBe(
      200,
    );
    const pid = readPids(marker).at(-1);
    expect(readPids(marker)).toHaveLength(started + 1);
    await eventually(
      async () => (pid === undefined || !isRunning(pid) ? true : undefined),
      'the withdrawn server to stop',
      15_000,
      100,
    );
  });
});

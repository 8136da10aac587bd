/**
 * `GET /workspace/mcp` and `GET /workspace/mcp/:server/tools` in-process, over a real registry
 * on temp dirs and a real MCP runtime: the fixture server over stdio (configured, and written
 * inline by two agents alike), a stdio server that never answers (connecting), an http server
 * nobody listens on (failed), and a disabled one. Secrets are planted in env, headers and the
 * URL; no answer may carry any of them.
 */
import { readFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import type { McpServerList, McpServerTools } from '../../src/mcp-client/mcp-view-schemas.js';
import { COMPONENT_PREFIX, componentSchemas } from '../../src/api/openapi/parts.js';
import { loadConfig } from '../../src/config/load.js';
import { type DeputyConfig } from '../../src/config/schema.js';
import {
  createRegistry,
  type DefinitionRegistry,
} from '../../src/definitions/registry/registry.js';
import { fixedConfig } from '../../src/config/live-config.js';
import { createMcpRuntime, type McpRuntime } from '../../src/mcp-client/mcp-runtime.js';
import { stdioFixtureCommand } from '../fixtures/mcp/start.js';
import { eventually } from '../support/eventually.js';
import { isRunning } from '../support/processes.js';
import { AUTH_CONFIG, bearer, TOKEN_ENV } from './make-app.js';
import { stubDelegations } from './stub-delegations.js';
import { freePort } from '../../src/servers/dev/dev-server.js';

const SECRETS = {
  MCP_ROUTES_ENV_SECRET: 'env-secret-value-9d41c2',
  MCP_ROUTES_HEADER_SECRET: 'header-secret-value-7be310',
  MCP_ROUTES_INLINE_SECRET: 'inline-secret-value-51aa08',
};
const LITERAL_HEADER = 'literal-header-secret-c0ffee';
const URL_PASSWORD = 'url-password-secret-b4d5e6';
const root = mkdtempSync(join(tmpdir(), 'deputy-mcp-routes-'));
const workspace = join(root, 'workspace');
const silentPids = join(root, 'silent.pids');
const fixture = stdioFixtureCommand();

/** A stdio "server" that reads and never answers: its client stays `connecting`. */
const SILENT_SCRIPT =
  "require('fs').appendFileSync(process.env.PID_FILE, process.pid + '\\n');" +
  "process.stdin.resume(); process.stdin.on('end', () => process.exit(0));";

function agentFile(name: string, mcpServers: unknown[]): string {
  return `---\n${stringify({ name, description: `${name} agent`, mcpServers })}---\nYou are ${name}.\n`;
}

let port: number;
let config: DeputyConfig;
let registry: DefinitionRegistry;
let runtime: McpRuntime;
let app: ReturnType<typeof createApp>;
/** Every body answered in this file, scanned for secrets at the end. */
const answered: string[] = [];

async function get(path: string, headers: Record<string, string> = {}, on = app) {
  const response = await on.request(path, { headers });
  const text = await response.text();
  answered.push(text);
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

const list = async () => (await get('/workspace/mcp')).body as unknown as McpServerList;
const entry = (answer: McpServerList, name: string, source?: string) =>
  answer.servers.find((server) => server.name === name && (!source || server.source === source));

beforeAll(async () => {
  for (const [key, value] of Object.entries(SECRETS)) process.env[key] = value;
  // A port nobody listens on: taken and released at once, for a server that never answers.
  port = await freePort();
  mkdirSync(join(workspace, '.subagents', 'agents'), { recursive: true });
  const inline = {
    name: 'inline-fx',
    transport: 'stdio',
    command: fixture.command,
    args: fixture.args,
    env: { FIXTURE_TOKEN: '${MCP_ROUTES_INLINE_SECRET}' },
  };
  writeFileSync(
    join(workspace, '.subagents', 'config.yaml'),
    stringify({
      // Failed stays failed while the test reads it (no retry within the file's run).
      mcpReconnectSeconds: 600,
      mcpServers: {
        fixture: {
          transport: 'stdio',
          command: fixture.command,
          args: fixture.args,
          env: { FIXTURE_TOKEN: '${MCP_ROUTES_ENV_SECRET}' },
        },
        silent: {
          transport: 'stdio',
          command: process.execPath,
          args: ['-e', SILENT_SCRIPT],
          env: { PID_FILE: silentPids },
        },
        remote: {
          transport: 'http',
          endpoint: `http://127.0.0.1:${port}/mcp?api_key=${URL_PASSWORD}`,
          headers: {
            Authorization: 'Bearer ${MCP_ROUTES_HEADER_SECRET}',
            'X-Api-Key': LITERAL_HEADER,
          },
        },
        // Refused by fetch before any connection: the message quotes the URL.
        vault: { transport: 'http', endpoint: `http://alice:${URL_PASSWORD}@127.0.0.1:${port}/v` },
        off: { transport: 'stdio', command: '/usr/bin/false', enabled: false },
      },
    }),
  );
  const agents = join(workspace, '.subagents', 'agents');
  writeFileSync(join(agents, 'reader.md'), agentFile('reader', ['fixture', 'remote', 'silent']));
  writeFileSync(join(agents, 'inliner.md'), agentFile('inliner', [inline]));
  writeFileSync(join(agents, 'twin.md'), agentFile('twin', ['fixture', inline]));
  // An inline server named like a configured one: listed apart, never the one the route answers.
  writeFileSync(
    join(agents, 'lookalike.md'),
    agentFile('lookalike', [{ ...inline, name: 'off', env: {} }]),
  );

  const env = {
    ...TOKEN_ENV,
    DEPUTY_USER_DIR: join(root, 'user'),
    DEPUTY_DATA_DIR: join(root, 'data'),
  };
  config = loadConfig({ workspace, dataDir: join(root, 'data') }, env);
  registry = createRegistry({ config });
  await registry.load();
  runtime = createMcpRuntime({ settings: fixedConfig(config), definitions: registry });
  runtime.connectAll();
  app = createApp({
    delegations: stubDelegations().delegations,
    config,
    settings: fixedConfig(config),
    auth: createAuth(config, env),
    definitions: registry,
    mcp: runtime,
    logger: { error: () => {}, warn: () => {}, info: () => {} },
  });
  // Settled: each server connected or failed, except the one that never answers.
  await eventually(
    async () => {
      const answer = await list();
      const settled = answer.servers.every(
        (server) => server.name === 'silent' || server.status !== 'connecting',
      );
      return settled ? true : undefined;
    },
    'the MCP servers to connect or fail',
    30_000,
    200,
  );
});

afterAll(async () => {
  await runtime?.close();
  await registry?.close();
  // The pool does not close a client still connecting: end the silent server here.
  for (const pid of readPidFile()) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  for (const key of Object.keys(SECRETS)) delete process.env[key];
  rmSync(root, { recursive: true, force: true });
});

function readPidFile(): number[] {
  try {
    return readFileSync(silentPids, 'utf8').split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

/** The component the OpenAPI document names for this answer. */
async function documented(path: string, status: number) {
  const document = (await (await app.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, { responses: Record<string, { content?: unknown }> }>>;
  };
  const content = document.paths[path]?.get?.responses[String(status)]?.content as
    Record<string, { schema: { $ref: string } }> | undefined;
  const ref = content?.['application/json']?.schema.$ref ?? '';
  const schema = componentSchemas().get(ref.slice(COMPONENT_PREFIX.length));
  expect(schema, `${path} ${status}: ${ref}`).toBeDefined();
  return schema!;
}

describe('GET /workspace/mcp', () => {
  it('lists every configured and inline server with its status, tools and declarers', async () => {
    const answer = await list();
    expect(answer.v).toBe(1);
    expect(answer.workspaceCwd).toBe(config.workspace);
    expect(answer.servers.map((server) => `${server.name} (${server.source})`)).toEqual([
      'fixture (config.yaml)',
      'silent (config.yaml)',
      'remote (config.yaml)',
      'vault (config.yaml)',
      'off (config.yaml)',
      'inline-fx (agent inliner)',
      'off (agent lookalike)',
    ]);

    const tools = (await get('/workspace/mcp/fixture/tools')).body as unknown as McpServerTools;
    expect(entry(answer, 'fixture')).toEqual({
      name: 'fixture',
      transport: 'stdio',
      source: 'config.yaml',
      enabled: true,
      status: 'connected',
      lastError: null,
      toolCount: tools.tools.length,
      declaredBy: ['reader', 'twin'],
      command: 'node',
    });
    expect(tools.tools.length).toBeGreaterThan(0);

    expect(entry(answer, 'silent')).toMatchObject({
      status: 'connecting',
      toolCount: null,
      declaredBy: ['reader'],
    });

    const remote = entry(answer, 'remote')!;
    expect(remote).toMatchObject({
      transport: 'http',
      enabled: true,
      status: 'failed',
      toolCount: null,
      declaredBy: ['reader'],
      endpoint: `http://127.0.0.1:${port}/mcp`,
    });
    // Nobody listens there: the connection itself failed.
    expect(remote.lastError).toMatch(/fetch failed|ECONNREFUSED/);
    expect(remote).not.toHaveProperty('command');
    const vault = entry(answer, 'vault')!;
    expect(vault).toMatchObject({ status: 'failed', endpoint: `http://127.0.0.1:${port}/v` });
    expect(vault.lastError).toContain(`http://127.0.0.1:${port}/v`);

    expect(entry(answer, 'off', 'config.yaml')).toEqual({
      name: 'off',
      transport: 'stdio',
      source: 'config.yaml',
      enabled: false,
      status: 'disabled',
      lastError: null,
      toolCount: null,
      declaredBy: [],
      command: 'false',
    });

    // Two agents writing the server alike share it (and its one client).
    expect(entry(answer, 'inline-fx')).toMatchObject({
      source: 'agent inliner',
      status: 'connected',
      toolCount: tools.tools.length,
      declaredBy: ['inliner', 'twin'],
    });
    expect(entry(answer, 'off', 'agent lookalike')).toMatchObject({
      enabled: true,
      status: 'connected',
      declaredBy: ['lookalike'],
    });
    expect(runtime.pool.list().filter((server) => server.name === 'inline-fx')).toHaveLength(1);
  });

  it('answers with the documented schema, nothing missing or extra', async () => {
    const schema = await documented('/workspace/mcp', 200);
    const body = await list();
    expect(schema.parse(body)).toEqual(body);
  });

  it('is for any authenticated caller, and for no one else', async () => {
    const authed = createApp({
      delegations: stubDelegations().delegations,
      config: { ...config, auth: AUTH_CONFIG },
      auth: createAuth({ auth: AUTH_CONFIG }, TOKEN_ENV),
      definitions: registry,
      mcp: runtime,
    });
    expect((await get('/workspace/mcp', {}, authed)).status).toBe(401);
    expect((await get('/workspace/mcp/fixture/tools', {}, authed)).status).toBe(401);
    expect((await get('/workspace/mcp', bearer('reader'), authed)).status).toBe(200);
    expect((await get('/workspace/mcp/fixture/tools', bearer('reader'), authed)).status).toBe(200);
  });
});

describe('GET /workspace/mcp/:server/tools', () => {
  it("gives a connected server's live tools with their schemas", async () => {
    const { status, body } = await get('/workspace/mcp/fixture/tools');
    expect(status).toBe(200);
    const answer = body as unknown as McpServerTools;
    expect(answer).toMatchObject({
      v: 1,
      workspaceCwd: config.workspace,
      serverName: 'fixture',
      source: 'config.yaml',
      status: 'connected',
      lastError: null,
    });
    const names = answer.tools.map((tool) => tool.name);
    expect(names).toEqual(expect.arrayContaining(['echo', 'whoami', 'env-check']));
    // HTTP-only tool: the stdio fixture does not list it.
    expect(names).not.toContain('header-check');
    const echo = answer.tools.find((tool) => tool.name === 'echo')!;
    expect(echo.description).toBe('Returns its text');
    expect(echo.inputSchema).toMatchObject({ type: 'object', properties: { text: {} } });
    const schema = await documented('/workspace/mcp/{server}/tools', 200);
    expect(schema.parse(body)).toEqual(body);
  });

  it('answers 200 with the status and no tools while a server is not connected', async () => {
    const silent = await get('/workspace/mcp/silent/tools');
    expect(silent).toEqual({
      status: 200,
      body: expect.objectContaining({ status: 'connecting', lastError: null, tools: [] }),
    });
    const remote = await get('/workspace/mcp/remote/tools');
    expect(remote.status).toBe(200);
    expect(remote.body).toMatchObject({ status: 'failed', tools: [] });
    expect(remote.body.lastError).toEqual(expect.any(String));
    // The configured server of a name, not a definition's inline one of the same name.
    const off = await get('/workspace/mcp/off/tools');
    expect(off.body).toMatchObject({ source: 'config.yaml', status: 'disabled', tools: [] });
    const schema = await documented('/workspace/mcp/{server}/tools', 200);
    for (const { body } of [silent, remote, off]) expect(schema.parse(body)).toEqual(body);
  });

  it('answers 404 mcp_server_not_found for unknown and impossible names, quoting little', async () => {
    const huge = 'x'.repeat(5000);
    for (const name of ['nope', encodeURIComponent(huge), 'fix%01ture', encodeURIComponent(' ')]) {
      const { status, body } = await get(`/workspace/mcp/${name}/tools`);
      expect(status, name.slice(0, 20)).toBe(404);
      expect(body).toMatchObject({ error: 'mcp_server_not_found', code: 'mcp_server_not_found' });
      expect(String(body.message).length).toBeLessThan(200);
    }
    const schema = await documented('/workspace/mcp/{server}/tools', 404);
    const { body } = await get('/workspace/mcp/nope/tools');
    expect(schema.parse(body)).toEqual(body);
  });
});

describe('without an MCP client', () => {
  it('answers 503 unavailable on both routes', async () => {
    const bare = createApp({ delegations: stubDelegations().delegations, config });
    for (const path of ['/workspace/mcp', '/workspace/mcp/fixture/tools']) {
      const { status, body } = await get(path, {}, bare);
      expect(status, path).toBe(503);
      expect(body).toMatchObject({ error: 'unavailable', code: 'unavailable' });
      expect(body.message).toMatch(/no MCP client/);
    }
    const schema = await documented('/workspace/mcp', 503);
    const { body } = await get('/workspace/mcp', {}, bare);
    expect(schema.parse(body)).toEqual(body);
  });
});

describe('secrets', () => {
  it('none reaches an answer: env values, headers, URL credentials, arguments', async () => {
    // Every route once more, so the scan below covers each answer shape.
    await list();
    for (const name of ['fixture', 'silent', 'remote', 'vault', 'off', 'inline-fx']) {
      await get(`/workspace/mcp/${name}/tools`);
    }
    const all = answered.join('\n');
    expect(all.length).toBeGreaterThan(1000);
    for (const secret of [...Object.values(SECRETS), LITERAL_HEADER, URL_PASSWORD]) {
      expect(all).not.toContain(secret);
    }
    for (const written of [
      'X-Api-Key',
      'Bearer',
      'alice',
      'api_key',
      'FIXTURE_TOKEN',
      '--import',
    ]) {
      expect(all).not.toContain(written);
    }
    expect(all).not.toContain(fixture.args.at(-3)!);
  });

  it('the silent server is a real process, still waiting for its handshake', () => {
    const pids = readPidFile();
    expect(pids).toHaveLength(1);
    expect(isRunning(pids[0]!)).toBe(true);
  });
});

/**
 * Connecting ahead of use: the MCP runtime a worker builds connects every server its
 * workspace declares, config.yaml's and those written inline in a definition, over stdio and
 * over HTTP, before any delegation asks for one; asking returns at once (no process is spawned
 * inside the call), and a `.mcp.json` server nobody approved is not started.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import { fixedConfig } from '../../src/config/live-config.js';
import { loadConfig } from '../../src/config/load.js';
import {
  createRegistry,
  type DefinitionRegistry,
} from '../../src/definitions/registry/registry.js';
import { createMcpRuntime, type McpRuntime } from '../../src/mcp-client/mcp-runtime.js';
import {
  readPids,
  startHttpFixture,
  stdioFixtureCommand,
  type RunningServer,
} from '../fixtures/mcp/start.js';
import { eventually } from '../support/eventually.js';
import { isRunning } from '../support/processes.js';

const root = mkdtempSync(join(tmpdir(), 'deputy-connect-ahead-'));
const workspace = join(root, 'workspace');
const fixture = stdioFixtureCommand();
const pidFile = (name: string) => join(root, `${name}.pids`);

let http: RunningServer;
let registry: DefinitionRegistry;
let runtime: McpRuntime;
const log: string[] = [];

beforeAll(async () => {
  http = await startHttpFixture();
  const agents = join(workspace, '.subagents', 'agents');
  mkdirSync(agents, { recursive: true });
  const stdioServer = (name: string) => ({
    transport: 'stdio',
    command: fixture.command,
    args: fixture.args,
    env: { FIXTURE_PID_FILE: pidFile(name) },
  });
  writeFileSync(
    join(workspace, '.subagents', 'config.yaml'),
    stringify({
      mcpServers: {
        // Named by no definition: declared by the workspace all the same.
        local: stdioServer('local'),
        remote: { transport: 'http', endpoint: http.url },
        off: { transport: 'stdio', command: '/usr/bin/false', enabled: false },
      },
    }),
  );
  writeFileSync(
    join(workspace, '.mcp.json'),
    JSON.stringify({ mcpServers: { unapproved: { command: 'sh', args: ['-c', 'exit 1'] } } }),
  );
  const inline = [
    { name: 'own', ...stdioServer('own') },
    { name: 'own-http', transport: 'http', endpoint: http.url, headers: { 'x-agent': 'inliner' } },
  ];
  writeFileSync(
    join(agents, 'inliner.md'),
    `---\n${stringify({ name: 'inliner', description: 'inline servers', mcpServers: ['local', ...inline] })}---\nYou are inliner.\n`,
  );
  const config = loadConfig(
    { workspace, dataDir: join(root, 'data') },
    { DEPUTY_USER_DIR: join(root, 'user'), DEPUTY_DATA_DIR: join(root, 'data') },
  );
  registry = createRegistry({ config });
  await registry.load();
  runtime = createMcpRuntime({
    settings: fixedConfig(config),
    definitions: registry,
    log: (line) => log.push(line),
  });
});

afterAll(async () => {
  await runtime?.close();
  await registry?.close();
  for (const pid of [...readPids(pidFile('local')), ...readPids(pidFile('own'))]) {
    await eventually(async () => (isRunning(pid) ? undefined : true), `server ${pid} to exit`);
  }
  await http?.stop();
  rmSync(root, { recursive: true, force: true });
});

describe('connecting ahead of use', () => {
  it('connects every declared server, stdio and http, config and inline, before any lookup', async () => {
    runtime.connectAll();
    // Asked for, not yet spawned: the worker's start goes on while they connect.
    expect(readPids(pidFile('local'))).toEqual([]);
    expect(readPids(pidFile('own'))).toEqual([]);
    const pooled = () =>
      runtime.pool
        .list()
        .map((server) => `${server.name} ${server.spec.transport} ${server.status()}`)
        .sort();
    await eventually(
      async () => (pooled().every((line) => line.endsWith(' connected')) ? true : undefined),
      'every declared server to connect',
      60_000,
      50,
    );
    expect(pooled()).toEqual([
      'local stdio connected',
      'own stdio connected',
      'own-http http connected',
      'remote http connected',
    ]);
    expect(readPids(pidFile('local'))).toHaveLength(1);
    expect(readPids(pidFile('own'))).toHaveLength(1);
    // The one nobody approved is held back, and the log says why (once).
    expect(log.filter((line) => line.includes("'unapproved'"))).toEqual([
      "MCP server 'unapproved' from .mcp.json is not approved yet (new); a person approves it with `deputy mcp trust unapproved` or in the console",
    ]);

    // A delegation's lookup finds the pooled client: no second process, no wait.
    const found = runtime.server('inliner', 'own');
    expect('missing' in found ? found.missing : found.status()).toBe('connected');
    runtime.connectAll();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(readPids(pidFile('own'))).toHaveLength(1);
  });
});

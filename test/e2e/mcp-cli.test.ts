/**
 * `deputy mcp list` and `deputy mcp tools` as real child processes (bin/deputy.mjs), against the
 * real fixture MCP server over stdio: the same answers as the API, the exit codes, and no server
 * process left behind once the command has exited. No Temporal is involved.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stringify } from 'yaml';
import {
  McpServerListSchema,
  McpServerToolsSchema,
} from '../../src/mcp-client/mcp-view-schemas.js';
import { readPids, stdioFixtureCommand } from '../fixtures/mcp/start.js';
import { isRunning } from '../support/processes.js';
import { runDeputy, type Outcome } from './run-deputy.js';
import { freePort } from '../../src/servers/dev/dev-server.js';

const SECRET = 'mcp-cli-env-secret-3e9a71';
const HEADER_SECRET = 'mcp-cli-header-secret-0d2b84';
const root = mkdtempSync(join(tmpdir(), 'deputy-mcp-cli-'));
const workspace = join(root, 'workspace');
const pidFile = join(root, 'fixture.pids');
const fixture = stdioFixtureCommand();
let port: number;

function deputy(args: string[]): Promise<Outcome> {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DEPUTY_WORKSPACE: workspace,
    DEPUTY_DATA_DIR: join(root, 'data'),
    DEPUTY_USER_DIR: join(root, 'user'),
    MCP_CLI_SECRET: SECRET,
    MCP_CLI_HEADER_SECRET: HEADER_SECRET,
  };
  // Nothing here needs Temporal; make sure nothing tries.
  delete env.TEMPORAL_ADDRESS;
  return runDeputy(args, { env, cwd: workspace });
}

/** Runs the command and returns it with the fixture processes it started, all already ended. */
async function deputyLeavingNothing(args: string[]): Promise<Outcome & { started: number[] }> {
  const before = readPids(pidFile).length;
  const outcome = await deputy(args);
  const started = readPids(pidFile).slice(before);
  // Checked at once: the command closed its clients before exiting, not the OS after it.
  for (const pid of started) expect(isRunning(pid), `fixture server ${pid} still runs`).toBe(false);
  expect(outcome.stdout + outcome.stderr).not.toContain(SECRET);
  expect(outcome.stdout + outcome.stderr).not.toContain(HEADER_SECRET);
  return { ...outcome, started };
}

beforeAll(async () => {
  // A port nobody listens on: taken and released at once, for a server that never answers.
  port = await freePort();
  const agents = join(workspace, '.subagents', 'agents');
  mkdirSync(agents, { recursive: true });
  const stdio = (extra: Record<string, unknown> = {}) => ({
    transport: 'stdio',
    command: fixture.command,
    args: fixture.args,
    env: { FIXTURE_PID_FILE: pidFile, FIXTURE_TOKEN: '${MCP_CLI_SECRET}' },
    ...extra,
  });
  writeFileSync(
    join(workspace, '.subagents', 'config.yaml'),
    stringify({
      mcpServers: {
        fixture: stdio(),
        remote: {
          transport: 'http',
          endpoint: `http://127.0.0.1:${port}/mcp`,
          headers: { Authorization: 'Bearer ${MCP_CLI_HEADER_SECRET}' },
        },
        off: stdio({ enabled: false }),
      },
    }),
  );
  const agent = (name: string, mcpServers: unknown[]) =>
    `---\n${stringify({ name, description: name, mcpServers })}---\nYou are ${name}.\n`;
  writeFileSync(join(agents, 'reader.md'), agent('reader', ['fixture', 'remote']));
  writeFileSync(join(agents, 'inliner.md'), agent('inliner', [{ name: 'inline-fx', ...stdio() }]));
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('deputy mcp', () => {
  it('list --json: every server as GET /workspace/mcp answers it', async () => {
    const outcome = await deputyLeavingNothing(['mcp', 'list', '--json']);
    expect(outcome.code, outcome.stderr).toBe(0);
    const answer = McpServerListSchema.parse(JSON.parse(outcome.stdout));
    const byName = Object.fromEntries(answer.servers.map((server) => [server.name, server]));
    expect(Object.keys(byName)).toEqual(['fixture', 'remote', 'off', 'inline-fx']);
    expect(byName.fixture).toMatchObject({
      status: 'connected',
      source: 'config.yaml',
      declaredBy: ['reader'],
      command: 'node',
      lastError: null,
    });
    expect(byName.fixture!.toolCount).toBeGreaterThan(0);
    expect(byName.remote).toMatchObject({ status: 'failed', toolCount: null });
    expect(byName.remote!.lastError).toMatch(/fetch failed|ECONNREFUSED/);
    expect(byName.off).toMatchObject({ status: 'disabled', enabled: false });
    expect(byName['inline-fx']).toMatchObject({
      status: 'connected',
      source: 'agent inliner',
      declaredBy: ['inliner'],
    });
    // The configured fixture and the inline one: two processes, both ended.
    expect(outcome.started).toHaveLength(2);
  });

  it('list: one line per server', async () => {
    const outcome = await deputyLeavingNothing(['mcp', 'list', '--wait', '20']);
    expect(outcome.code, outcome.stderr).toBe(0);
    const lines = outcome.stdout.trim().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+TRANSPORT\s+STATUS\s+TOOLS\s+SOURCE\s+DECLARED BY/);
    expect(lines.find((line) => line.startsWith('fixture '))).toMatch(
      /^fixture\s+stdio\s+connected\s+\d+\s+config\.yaml\s+reader\s*$/,
    );
    expect(lines.find((line) => line.startsWith('remote '))).toMatch(
      /^remote\s+http\s+failed\s+-\s+config\.yaml\s+reader\s+\S/,
    );
    expect(lines.find((line) => line.startsWith('off '))).toMatch(/^off\s+stdio\s+disabled\s+-/);
  });

  it("tools <server>: the server's tools, name and first line of the description", async () => {
    const outcome = await deputyLeavingNothing(['mcp', 'tools', 'fixture']);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(outcome.stdout).toMatch(/^echo\s+Returns its text$/m);
    expect(outcome.stdout).toMatch(/^whoami\s+\S/m);
    // Only that server is started.
    expect(outcome.started).toHaveLength(1);
  });

  it('tools <server> --json: as GET /workspace/mcp/:server/tools answers it', async () => {
    const outcome = await deputyLeavingNothing(['mcp', 'tools', 'fixture', '--json']);
    expect(outcome.code, outcome.stderr).toBe(0);
    const answer = McpServerToolsSchema.parse(JSON.parse(outcome.stdout));
    expect(answer).toMatchObject({ serverName: 'fixture', status: 'connected', lastError: null });
    expect(answer.tools.find((tool) => tool.name === 'echo')).toMatchObject({
      description: 'Returns its text',
      inputSchema: { type: 'object' },
    });
  });

  it('tools of an unknown server: exit 3', async () => {
    const outcome = await deputyLeavingNothing(['mcp', 'tools', 'nope']);
    expect(outcome.code).toBe(3);
    expect(outcome.stderr).toContain("no MCP server named 'nope'");
    expect(outcome.started).toHaveLength(0);
  });

  it('tools of a server that cannot be connected: exit 1, with the error', async () => {
    const remote = await deputyLeavingNothing(['mcp', 'tools', 'remote']);
    expect(remote.code).toBe(1);
    expect(remote.stderr).toMatch(/MCP server 'remote' could not be connected: .*fetch failed/);
    const off = await deputyLeavingNothing(['mcp', 'tools', 'off', '--json']);
    expect(off.code).toBe(1);
    expect(McpServerToolsSchema.parse(JSON.parse(off.stdout))).toMatchObject({
      status: 'disabled',
      tools: [],
    });
    expect(off.stderr).toContain("MCP server 'off' is disabled");
  });
});

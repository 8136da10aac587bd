/**
 * `.mcp.json`, a file agents can write without a card, with the real `deputy` CLI as
 * child processes, a real `deputy dev` (on the suite's Temporal server) over real HTTP, and the
 * real fixture MCP server over stdio:
 *
 * - a `.mcp.json` that is not JSON stops no command: each says where the error is, and none of
 *   its servers is configured;
 * - a server it names is started by nothing (a listing, `deputy mcp`, a worker's start, a
 *   delegation that declares it) until a person approved it, and again after the file changed
 *   it. The fixture server appends its pid to FIXTURE_PID_FILE when it starts: that file is the
 *   marker that the command of the server ran;
 * - a `${NAME}` it references must be one config.yaml allows for that server.
 */
import type { ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { stringify } from 'yaml';
import {
  McpServerListSchema,
  McpTrustAnswerSchema,
  type McpServerList,
} from '../../src/mcp-client/mcp-view-schemas.js';
import { readPids, stdioFixtureCommand } from '../fixtures/mcp/start.js';
import { eventually } from '../support/eventually.js';
import { isRunning } from '../support/processes.js';
import { DEPUTY_BIN, printedApiUrl, runDeputy, spawnCaptured, type Outcome } from './run-deputy.js';

const SECRET = `mcp-json-secret-${randomUUID()}`;
const root = mkdtempSync(join(tmpdir(), 'deputy-mcp-json-trust-'));
const workspace = join(root, 'workspace');
const dataDir = join(root, 'data');
/** Written by the marker server's process when (if ever) it starts. */
const marker = join(root, 'marker.pids');
const varsMarker = join(root, 'vars.pids');
const fixture = stdioFixtureCommand();
const mcpJsonFile = join(workspace, '.mcp.json');

const markerServer = (env: Record<string, string> = {}) => ({
  command: fixture.command,
  args: fixture.args,
  env: { FIXTURE_PID_FILE: marker, ...env },
});

function writeMcpJson(servers: Record<string, unknown>): void {
  writeFileSync(mcpJsonFile, JSON.stringify({ mcpServers: servers }, null, 2));
}

function writeConfig(extra: Record<string, unknown> = {}): void {
  writeFileSync(
    join(workspace, '.subagents', 'config.yaml'),
    stringify({ mcpReconnectSeconds: 1, ...extra }),
  );
}

mkdirSync(join(workspace, '.subagents', 'agents'), { recursive: true });
writeConfig();
writeFileSync(
  join(workspace, '.subagents', 'agents', 'marker-user.md'),
  '---\nname: marker-user\ndescription: calls the marker server\nmodel: scripted:scripts/marker-user.yaml\nmcpServers: [marker]\n---\nYou call MCP tools.\n',
);
mkdirSync(join(workspace, 'scripts'));
writeFileSync(
  join(workspace, 'scripts', 'marker-user.yaml'),
  'turns:\n  - text: Calling.\n    toolCalls: [{ name: mcp_call, arguments: { server: marker, tool: whoami } }]\n  - text: "whoami: ${lastToolResult}"\n',
);

const env: NodeJS.ProcessEnv = {
  ...process.env,
  TEMPORAL_ADDRESS: inject('temporalAddress'),
  // Its own queues: other suites' workers on the same server never take this workspace's work.
  DEPUTY_TASK_QUEUE: `mcp-json-trust-${randomUUID()}`,
  DEPUTY_USER_DIR: join(root, 'user'),
  MCP_TRUST_SECRET: SECRET,
};
delete env.DEPUTY_PORT;

function deputy(args: string[]): Promise<Outcome> {
  return runDeputy(['--workspace', workspace, '--data-dir', dataDir, ...args], {
    env,
    cwd: workspace,
  });
}

function until<T>(probe: () => Promise<T | undefined>, what: string, timeoutMs = 60_000) {
  return eventually(probe, what, timeoutMs, 250);
}

const started: ChildProcess[] = [];
afterAll(() => {
  for (const child of started) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(root, { recursive: true, force: true });
});

interface Dev {
  apiUrl: string;
  output(): string;
  stop(): Promise<number | null>;
}

async function startDev(): Promise<Dev> {
  const dev = spawnCaptured(
    process.execPath,
    [DEPUTY_BIN, 'dev', '--workspace', workspace, '--data-dir', dataDir, '--port', '0'],
    { env },
  );
  started.push(dev.child);
  const apiUrl = await printedApiUrl(dev, 120_000);
  return {
    apiUrl,
    output: dev.output,
    stop: async () => {
      dev.child.kill('SIGINT');
      return dev.exited;
    },
  };
}

async function json(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, init);
  return { status: response.status, body: await response.json() };
}

async function listing(apiUrl: string): Promise<McpServerList> {
  const { status, body } = await json(`${apiUrl}/workspace/mcp`);
  expect(status).toBe(200);
  return McpServerListSchema.parse(body);
}

const entry = (list: McpServerList, name: string) =>
  list.servers.find((server) => server.name === name);

function trust(apiUrl: string, name: string, method: 'POST' | 'DELETE', body?: unknown) {
  return json(`${apiUrl}/workspace/mcp/${name}/trust`, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
}

async function delegateMarkerUser(apiUrl: string): Promise<string> {
  const { status, body } = await json(`${apiUrl}/delegations`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent: 'marker-user', task: 'Ask the marker server who it is' }),
  });
  expect(status, JSON.stringify(body)).toBe(201);
  const { delegationId } = body as { delegationId: string };
  let last: unknown;
  const state = await until(async () => {
    const current = (await json(`${apiUrl}/delegations/${delegationId}`)).body as {
      result: { status: string; text: string } | null;
      pendingCards: Array<{ id: string }>;
    };
    last = current;
    // An MCP call asks (`.mcp.json` has no approve list): a person says yes.
    for (const card of current.pendingCards) {
      const decided = await json(`${apiUrl}/cards/${card.id}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ decision: 'approve' }),
      });
      expect(decided.status, JSON.stringify(decided.body)).toBeLessThan(300);
    }
    return current.result ?? undefined;
  }, `delegation ${delegationId} to finish`).catch((error: Error) => {
    throw new Error(`${error.message}; its state: ${JSON.stringify(last)}`);
  });
  expect(state.status).toBe('completed');
  return state.text;
}

describe('.mcp.json', () => {
  it('not JSON: every command starts and says where the error is; none of its servers is on', async () => {
    writeFileSync(mcpJsonFile, `{ not json, "mcpServers": { "x": { "command": "${SECRET}" } } }`);
    const said = /\.mcp\.json: not valid JSON: expected a property name .* at line 1, column 3/;

    const agents = await deputy(['agents', 'list']);
    expect(agents.code, agents.stderr).toBe(0);
    expect(agents.stdout).toContain('marker-user');
    expect(agents.stderr).toMatch(said);
    const delegations = await deputy(['list']);
    expect(delegations.code, delegations.stderr).toBe(0);
    const mcp = await deputy(['mcp', 'list', '--json']);
    expect(mcp.code, mcp.stderr).toBe(0);
    expect(McpServerListSchema.parse(JSON.parse(mcp.stdout)).mcpJsonProblem).toMatch(said);
    for (const outcome of [agents, delegations, mcp]) {
      expect(outcome.stdout + outcome.stderr).not.toContain(SECRET);
    }

    const dev = await startDev();
    try {
      const health = await json(`${dev.apiUrl}/health`);
      expect(health.status).toBe(200);
      expect(health.body).toMatchObject({
        ok: true,
        config: { ok: true },
        mcpJson: { ok: false, message: expect.stringMatching(said) },
      });
      const list = await listing(dev.apiUrl);
      expect(list.mcpJsonProblem).toMatch(said);
      expect(list.servers).toEqual([]);
      expect(JSON.stringify(health.body) + JSON.stringify(list) + dev.output()).not.toContain(
        SECRET,
      );
      expect(dev.output()).toMatch(said);
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  }, 240_000);

  it('a server it names runs only once a person approved what it says now', async () => {
    writeMcpJson({ marker: markerServer() });

    // A listing through the CLI: shown, with what it would run and how to approve it; not run.
    const listed = await deputy(['mcp', 'list', '--json']);
    expect(listed.code, listed.stderr).toBe(0);
    const before = entry(McpServerListSchema.parse(JSON.parse(listed.stdout)), 'marker');
    expect(before).toMatchObject({
      status: 'untrusted',
      source: '.mcp.json',
      toolCount: null,
      trust: {
        state: 'new',
        approve: 'deputy mcp trust marker',
        wouldRun: { command: fixture.command, args: fixture.args, envNames: ['FIXTURE_PID_FILE'] },
      },
    });
    expect(before!.lastError).toMatch(/not approved yet \(new\); .*`deputy mcp trust marker`/);
    const hash = before!.trust!.hash;
    const tools = await deputy(['mcp', 'tools', 'marker']);
    expect(tools.code).toBe(1);
    expect(tools.stderr).toMatch(/MCP server 'marker' is not started: .*not approved yet/);
    expect(existsSync(marker)).toBe(false);

    // A worker's start (deputy dev), the API's listing, a delegation that declares it.
    const dev = await startDev();
    try {
      expect(entry(await listing(dev.apiUrl), 'marker')).toMatchObject({ status: 'untrusted' });
      // The operator running deputy dev is told why the server is not up.
      expect(dev.output()).toMatch(
        /mcp: MCP server 'marker' from \.mcp\.json is not approved yet \(new\)/,
      );
      const refused = await delegateMarkerUser(dev.apiUrl);
      expect(refused).toMatch(
        /not in place yet: MCP server 'marker' from \.mcp\.json is not approved yet \(new\)/,
      );
      // An approval of something else than the file says: 409, nothing approved.
      const stale = await trust(dev.apiUrl, 'marker', 'POST', { hash: 'f'.repeat(64) });
      expect(stale.status).toBe(409);
      expect(stale.body).toMatchObject({ code: 'mcp_server_changed' });
      expect(existsSync(marker)).toBe(false);

      // A person approves it from a terminal: it prints what it trusts; that starts nothing.
      const approved = await deputy(['mcp', 'trust', 'marker']);
      expect(approved.code, approved.stderr).toBe(0);
      expect(approved.stdout).toContain("approved MCP server 'marker' from .mcp.json");
      expect(approved.stdout).toContain(`runs:    ${fixture.command} `);
      expect(approved.stdout).toContain(`sha256:  ${hash}`);
      expect(existsSync(marker)).toBe(false);

      // The next listing starts it.
      const connected = await until(async () => {
        const server = entry(await listing(dev.apiUrl), 'marker');
        return server?.status === 'connected' ? server : undefined;
      }, 'the approved server to connect');
      expect(connected.trust).toMatchObject({ state: 'approved', hash });
      expect(connected.trust!.wouldRun).toBeUndefined();
      expect(readPids(marker).length).toBeGreaterThan(0);
      expect(await delegateMarkerUser(dev.apiUrl)).toMatch(/^whoami: \{"pid":\d+/);

      // Changed by an edit: stopped, and waiting for a new approval.
      const pids = readPids(marker);
      writeMcpJson({ marker: markerServer({ EXTRA: 'changed' }) });
      const changed = await until(async () => {
        const server = entry(await listing(dev.apiUrl), 'marker');
        return server?.status === 'untrusted' ? server : undefined;
      }, 'the changed server to need approval');
      expect(changed.trust).toMatchObject({ state: 'changed' });
      expect(changed.lastError).toMatch(/changed since it was approved/);
      await until(
        async () => (pids.every((pid) => !isRunning(pid)) ? true : undefined),
        'the old server process to end',
        15_000,
      );
      const count = readPids(marker).length;
      expect(await delegateMarkerUser(dev.apiUrl)).toMatch(/changed since it was approved/);

      // Approved over HTTP, with the hash the listing showed.
      const viaApi = await trust(dev.apiUrl, 'marker', 'POST', { hash: changed.trust!.hash });
      expect(viaApi.status, JSON.stringify(viaApi.body)).toBe(200);
      expect(McpTrustAnswerSchema.parse(viaApi.body)).toMatchObject({
        approved: true,
        hash: changed.trust!.hash,
        problem: null,
      });
      await until(async () => {
        const server = entry(await listing(dev.apiUrl), 'marker');
        return server?.status === 'connected' ? server : undefined;
      }, 'the re-approved server to connect');
      expect(readPids(marker).length).toBe(count + 1);

      // Withdrawn: stopped at once, not started by the next listing.
      const running = readPids(marker).at(-1)!;
      const withdrawn = await trust(dev.apiUrl, 'marker', 'DELETE');
      expect(withdrawn.status).toBe(200);
      expect(entry(await listing(dev.apiUrl), 'marker')).toMatchObject({
        status: 'untrusted',
        trust: { state: 'new' },
      });
      await until(
        async () => (isRunning(running) ? undefined : true),
        'the server to stop',
        15_000,
      );
      expect(readPids(marker).length).toBe(count + 1);
    } finally {
      expect(await dev.stop()).toBe(0);
    }
  }, 300_000);

  it('a server may reference only the variables config.yaml allows it', async () => {
    writeMcpJson({
      vars: {
        command: fixture.command,
        args: fixture.args,
        env: { FIXTURE_PID_FILE: varsMarker, FIXTURE_TOKEN: '${MCP_TRUST_SECRET}' },
      },
    });
    const approved = await deputy(['mcp', 'trust', 'vars', '--json']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(McpTrustAnswerSchema.parse(JSON.parse(approved.stdout)).problem).toMatch(
      /references \$\{MCP_TRUST_SECRET\}, which config\.yaml does not allow for it \(mcpJson\.variables\.vars\)/,
    );
    const refused = await deputy(['mcp', 'list', '--json']);
    expect(entry(McpServerListSchema.parse(JSON.parse(refused.stdout)), 'vars')).toMatchObject({
      status: 'refused',
      trust: { state: 'approved' },
    });
    const tools = await deputy(['mcp', 'tools', 'vars']);
    expect(tools.code).toBe(1);
    expect(tools.stderr).toContain('${MCP_TRUST_SECRET}');
    for (const outcome of [approved, refused, tools]) {
      expect(outcome.stdout + outcome.stderr).not.toContain(SECRET);
    }
    expect(existsSync(varsMarker)).toBe(false);

    writeConfig({ mcpJson: { variables: { vars: ['MCP_TRUST_SECRET'] } } });
    const allowed = await deputy(['mcp', 'tools', 'vars']);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/^env-check\s/m);
    expect(readPids(varsMarker)).toHaveLength(1);
  }, 120_000);
});

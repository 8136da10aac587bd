/**
 * deputy's MCP server as real hosts see it: Claude Code, Qwen Code and the MCP
 * Inspector, installed from npm on first use (test/support/mcp-hosts.ts), each in a home of its
 * own. The hosts register `deputy mcp serve` (stdio) and the API's `/mcp` (Streamable HTTP) the
 * way a user would and report them connected; the Inspector lists the agent tool, calls it, and
 * prints the delegation's answer, which the delegation in Temporal holds too. No model and no
 * API key: the agent runs on the scripted model, and listing servers needs no login.
 *
 * Beside each working entry sits one that must not connect (a deputy command that exits at once,
 * a wrong bearer token), so a host that called everything connected would fail the test.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { calibrate, type Budget, type BudgetRule } from '../support/calibration.js';
import { eventually } from '../support/eventually.js';
import { killGroup } from '../support/processes.js';
import {
  ensureMcpHosts,
  makeHostHome,
  MCP_HOSTS_INSTALL_TIMEOUT_MS,
  type HostHome,
  type McpHosts,
} from '../support/mcp-hosts.js';
import { DEPUTY_BIN, runDeputy, spawnCaptured, type CapturedProcess } from './run-deputy.js';
import type { DelegationState } from '../../src/shared/delegation.js';

const AGENT = 'mcp-greeter';
const TOKEN_VARIABLE = 'DEPUTY_MCP_HOSTS_TOKEN';
const TOKEN = 'mcp-hosts-token-5c1e0b97a2';
/**
 * Any host command here answers in seconds; past its limit it hangs, and is killed. The hosts
 * are Node programs, so the baseline is a bare Node start-up measured in this run: 100 of
 * those, or 45 s, which a loaded machine stretches with the start-ups it slows.
 */
const HOST_COMMAND: BudgetRule = { factor: 100, floorMs: 45_000 };
let hostCommandLimit: Promise<Budget> | undefined;

function nodeStartUp(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}

const root = mkdtempSync(join(tmpdir(), 'deputy-mcp-hosts-'));
const workspace = join(root, 'workspace');
mkdirSync(join(workspace, '.subagents', 'agents'), { recursive: true });
writeFileSync(
  join(workspace, '.subagents', 'agents', `${AGENT}.md`),
  `---\nname: ${AGENT}\ndescription: answers from a script, for the MCP hosts test\nmodel: scripted:greeter.yaml\ntools: [read]\n---\nAnswer.\n`,
);
// The answer says it is a script, and carries the task, so the test sees the call went through.
writeFileSync(
  join(workspace, 'greeter.yaml'),
  `turns:\n  - text: '[scripted model] ${AGENT} answered: \${task}'\n`,
);
// The API's bearer auth, as a user turns it on; `/mcp` takes the same tokens.
writeFileSync(
  join(workspace, '.subagents', 'config.yaml'),
  `auth:\n  tokens:\n    ${TOKEN_VARIABLE}: { user: mcp-host, roles: [admin] }\n`,
);

/** What `deputy mcp serve` needs, handed to each host's server entry explicitly. */
const deputyVariables: Record<string, string> = {
  TEMPORAL_ADDRESS: inject('temporalAddress'),
  DEPUTY_WORKSPACE: workspace,
  DEPUTY_DATA_DIR: join(root, 'data'),
  DEPUTY_USER_DIR: join(root, 'user'),
  [TOKEN_VARIABLE]: TOKEN,
};
const deputyEnv: NodeJS.ProcessEnv = { ...process.env, ...deputyVariables };
const serveCommand = [process.execPath, DEPUTY_BIN, 'mcp', 'serve'];
/** A deputy entry that exits at once: no host may call it connected. */
const brokenCommand = [process.execPath, DEPUTY_BIN, 'mcp', 'no-such-command'];

let hosts: McpHosts;
let home: HostHome;
let worker: ChildProcess;
let workerLog = '';
const running: CapturedProcess[] = [];

beforeAll(
  async () => {
    const started = Date.now();
    hosts = await ensureMcpHosts();
    if (hosts.outcome !== 'present') {
      process.stderr.write(`[mcp-hosts] ready in ${Math.round((Date.now() - started) / 1000)} s\n`);
    }
    home = await makeHostHome();
    worker = spawn(process.execPath, [DEPUTY_BIN, 'worker'], { env: deputyEnv, cwd: workspace });
    worker.stdout?.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));
    worker.stderr?.on('data', (chunk: Buffer) => (workerLog += chunk.toString()));
    await eventually(
      async () => (workerLog.includes('worker polling') ? true : undefined),
      'the worker to start',
      120_000,
      250,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; the worker printed:\n${workerLog.slice(-3000)}`);
    });
  },
  // A cold install of the hosts (20 s here, bounded by npm's own limit) and a worker's start.
  MCP_HOSTS_INSTALL_TIMEOUT_MS + 150_000,
);

afterAll(async () => {
  for (const started of running) if (started.child.pid) killGroup(started.child.pid);
  if (worker && worker.exitCode === null) {
    const exited = new Promise<number | null>((resolve) => worker.once('exit', resolve));
    worker.kill('SIGTERM');
    await exited;
  }
  await home?.remove();
  rmSync(root, { recursive: true, force: true });
});

interface HostOutcome {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs a host in its own home and process group; the group (the host and the servers it
 * started) is killed when the command outlives its limit (HOST_COMMAND), and the test fails.
 */
async function host(bin: string, args: string[], project: string): Promise<HostOutcome> {
  hostCommandLimit ??= calibrate('a bare Node start-up', nodeStartUp, HOST_COMMAND);
  const budget = await hostCommandLimit;
  return new Promise((resolve, reject) => {
    const child = spawn(bin, args, {
      cwd: project,
      env: home.env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const limit = setTimeout(() => {
      if (child.pid) killGroup(child.pid);
      reject(new Error(`${bin} ${args.join(' ')} ran past ${budget.formula}:\n${stderr}`));
    }, budget.boundMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(limit);
      resolve({ code, stdout, stderr });
    });
  });
}

/**
 * A folder for one test's host commands to run in. Claude Code keeps the servers it adds per
 * folder (its local scope): each test lists its own entries, not the ones before it.
 */
function projectFolder(name: string): string {
  const folder = join(home.path, 'projects', name);
  mkdirSync(folder, { recursive: true });
  return folder;
}

/** Runs `bin` in a project folder of its own; each run must exit 0, and gives its stdout. */
function hostIn(bin: string, name: string): (args: string[]) => Promise<string> {
  const project = projectFolder(name);
  return async (args) => {
    const outcome = await host(bin, args, project);
    expect(outcome.code, `${args.join(' ')}:\n${outcome.stdout}\n${outcome.stderr}`).toBe(0);
    return outcome.stdout;
  };
}

/** `-e NAME=value` for each variable deputy needs (a host's own flag for a server's env). */
const envFlags = (): string[] =>
  Object.entries(deputyVariables).flatMap(([name, value]) => ['-e', `${name}=${value}`]);

/**
 * The line `mcp list` prints for a server, colours removed: Claude Code writes
 * `name: command - ✔ Connected`, Qwen Code `✓ name: command (stdio) - Connected`.
 */
function listed(output: string, server: string): string {
  // eslint-disable-next-line no-control-regex
  const lines = output.replace(/\u001b\[[0-9;]*m/g, '').split('\n');
  const line = lines.find((text) => text.replace(/^\W+/, '').startsWith(`${server}: `));
  if (line === undefined) throw new Error(`no line for ${server} in:\n${output}`);
  return line.trim();
}

const connected = (line: string): boolean => /- (✔ )?Connected$/.test(line);

describe('real MCP hosts see deputy', () => {
  it('Claude Code connects to `deputy mcp serve` over stdio', async () => {
    const claude = hostIn(hosts.claude, 'claude-stdio');
    await claude(['mcp', 'add', 'deputy', ...envFlags(), '--', ...serveCommand]);
    await claude(['mcp', 'add', 'deputy-broken', ...envFlags(), '--', ...brokenCommand]);
    const list = await claude(['mcp', 'list']);
    expect(connected(listed(list, 'deputy')), list).toBe(true);
    expect(connected(listed(list, 'deputy-broken')), list).toBe(false);
  });

  it('Qwen Code connects to `deputy mcp serve` over stdio', async () => {
    const qwen = hostIn(hosts.qwen, 'qwen-stdio');
    // Qwen Code's `-e` takes every value after it: the flags go last.
    await qwen(['mcp', 'add', 'deputy', ...serveCommand, ...envFlags()]);
    await qwen(['mcp', 'add', 'deputy-broken', ...brokenCommand, ...envFlags()]);
    const list = await qwen(['mcp', 'list']);
    expect(connected(listed(list, 'deputy')), list).toBe(true);
    expect(connected(listed(list, 'deputy-broken')), list).toBe(false);
  });

  it('Claude Code connects to the API’s /mcp over Streamable HTTP with a bearer token', async () => {
    const api = spawnCaptured(process.execPath, [DEPUTY_BIN, 'api', '--port', '0'], {
      env: deputyEnv,
      cwd: workspace,
      detached: true,
    });
    running.push(api);
    const url = await eventually(
      async () => {
        if (api.child.exitCode !== null) throw new Error(`it exited with ${api.child.exitCode}`);
        return /deputy API on (http:\/\/127\.0\.0\.1:\d+)/.exec(api.output())?.[1];
      },
      'deputy api to print its URL',
      60_000,
      250,
    ).catch((error: Error) => {
      throw new Error(`${error.message}; deputy api printed:\n${api.output().slice(-3000)}`);
    });
    const claude = hostIn(hosts.claude, 'claude-http');
    const add = (name: string, token: string) =>
      claude([
        'mcp',
        'add',
        '--transport',
        'http',
        name,
        `${url}/mcp`,
        '--header',
        `Authorization: Bearer ${token}`,
      ]);
    await add('deputy-http', TOKEN);
    await add('deputy-http-wrong-token', `${TOKEN}-not`);
    const list = await claude(['mcp', 'list']);
    expect(connected(listed(list, 'deputy-http')), list).toBe(true);
    expect(connected(listed(list, 'deputy-http-wrong-token')), list).toBe(false);
  });

  it('the Inspector lists the agent tool, calls it, and prints the delegation’s answer', async () => {
    const cli = hostIn(hosts.inspector, 'inspector');
    const inspector = (method: string[]) =>
      cli(['--cli', ...envFlags(), ...serveCommand, '--method', ...method]);

    const tools = JSON.parse(await inspector(['tools/list'])) as {
      tools: Array<{ name: string; inputSchema: { properties?: Record<string, unknown> } }>;
    };
    const tool = tools.tools.find((candidate) => candidate.name === AGENT);
    expect(tool, JSON.stringify(tools.tools.map((t) => t.name))).toBeDefined();
    expect(Object.keys(tool!.inputSchema.properties ?? {})).toContain('task');

    const task = 'greet the Inspector';
    const called = JSON.parse(
      await inspector(['tools/call', '--tool-name', AGENT, '--tool-arg', `task=${task}`]),
    ) as {
      content: Array<{ type: string; text: string }>;
      structuredContent?: { delegationId?: string; status?: string };
      isError?: boolean;
    };
    const answer = `[scripted model] ${AGENT} answered: ${task}`;
    expect(called.isError ?? false, JSON.stringify(called)).toBe(false);
    expect(called.content[0]?.text).toContain(answer);
    const delegationId = called.structuredContent?.delegationId;
    expect(delegationId, JSON.stringify(called)).toMatch(/^d-[0-9a-z]{12}$/);
    expect(called.structuredContent?.status).toBe('completed');

    // The delegation is Temporal's, as any other: `deputy status` reads the same answer back.
    const status = await runDeputy(['status', delegationId!, '--json'], {
      env: deputyEnv,
      cwd: workspace,
    });
    expect(status.code, status.stderr).toBe(0);
    const state = JSON.parse(status.stdout) as DelegationState;
    expect(state).toMatchObject({ agent: AGENT, status: 'completed' });
    expect(JSON.stringify(state.result)).toContain(answer);
  });
});

/**
 * The stdio transport that runs an MCP server in a watched process group, against real servers:
 * the fixture (which ends with its stdin) and the stubborn one (which ignores its stdin's end and
 * SIGTERM, as does the child it starts). Closing leaves no process of either behind; a process
 * running the transport that is SIGKILLed takes the server's whole group along.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../../src/config/load.js';
import { StdioGroupClientTransport } from '../../src/mcp-client/stdio-group-transport.js';
import { stdioFixtureCommand, stubbornStdioCommand } from '../fixtures/mcp/start.js';
import { eventually } from '../support/eventually.js';
import { groupMembers, isRunning, killGroup } from '../support/processes.js';

const scratch = mkdtempSync(join(tmpdir(), 'deputy-stdio-group-'));
/** Process groups a test started, SIGKILLed afterwards whatever happened. */
const groups: number[] = [];
afterEach(() => {
  while (groups.length > 0) killGroup(groups.pop()!);
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function text(result: unknown): string {
  const block = (result as CallToolResult).content[0];
  return block?.type === 'text' ? block.text : '';
}

async function connected(transport: StdioGroupClientTransport): Promise<Client> {
  const client = new Client({ name: 'deputy-test', version: '0.0.0' });
  await client.connect(transport);
  groups.push(transport.pid!);
  return client;
}

/** The stubborn server's `<pid> <child pid>` line, once it serves. */
async function stubbornPids(pidFile: string): Promise<{ pid: number; child: number }> {
  return eventually(async () => {
    const line = readFileSync(pidFile, 'utf8').trim().split('\n').at(-1) ?? '';
    const [pid, child] = line.split(' ').map(Number);
    return pid && child ? { pid, child } : undefined;
  }, `a line in ${pidFile}`);
}

describe('StdioGroupClientTransport', () => {
  it('speaks MCP with the fixture, and close ends it and its group', async () => {
    const transport = new StdioGroupClientTransport({
      ...stdioFixtureCommand(),
      env: { FIXTURE_VISIBLE: 'yes' },
      stderr: 'ignore',
      cwd: scratch,
    });
    const client = await connected(transport);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain('echo');
    expect(text(await client.callTool({ name: 'echo', arguments: { text: 'hi' } }))).toBe('hi');
    const { pid } = JSON.parse(text(await client.callTool({ name: 'whoami' }))) as { pid: number };
    // The server itself leads the group: the watchdog's shell exec'd it.
    expect(transport.pid).toBe(pid);
    expect(groupMembers(pid)).toContain(pid);

    await client.close();
    expect(isRunning(pid)).toBe(false);
    expect(transport.pid).toBeNull();
    // The watchdog ends itself once the server has gone (SIGKILL after its grace).
    await eventually(
      async () => (groupMembers(pid).length === 0 ? true : undefined),
      'the group to be empty',
      10_000,
    );
  });

  it("passes the SDK's default environment plus the entry's env, nothing else", async () => {
    process.env.DEPUTY_TEST_NOT_FOR_SERVERS = 'worker-only';
    const transport = new StdioGroupClientTransport({
      ...stdioFixtureCommand(),
      env: { FIXTURE_VISIBLE: 'yes' },
      stderr: 'ignore',
    });
    const client = await connected(transport);
    try {
      const check = async (name: string, value: string) =>
        JSON.parse(
          text(
            await client.callTool({
              name: 'env-check',
              arguments: { name, sha256: createHash('sha256').update(value).digest('hex') },
            }),
          ),
        ) as { received: boolean; matches: boolean };
      expect(await check('FIXTURE_VISIBLE', 'yes')).toMatchObject({ matches: true });
      expect(await check('PATH', process.env.PATH!)).toMatchObject({ matches: true });
      expect(await check('DEPUTY_TEST_NOT_FOR_SERVERS', 'worker-only')).toMatchObject({
        received: false,
      });
    } finally {
      delete process.env.DEPUTY_TEST_NOT_FOR_SERVERS;
      await client.close();
    }
  });

  it('ends a server that ignores its stdin and SIGTERM, and its child, on close', async () => {
    const pidFile = join(scratch, 'stubborn-close.pids');
    const transport = new StdioGroupClientTransport({
      ...stubbornStdioCommand(),
      env: { FIXTURE_PID_FILE: pidFile },
      stderr: 'ignore',
      graceMs: 300,
    });
    const client = await connected(transport);
    const { pid, child } = await stubbornPids(pidFile);
    expect(JSON.parse(text(await client.callTool({ name: 'whoami' })))).toEqual({ pid, child });

    await client.close();
    expect(isRunning(pid)).toBe(false);
    await eventually(
      async () => (isRunning(child) || groupMembers(pid).length > 0 ? undefined : true),
      'the stubborn child and the group to end',
      10_000,
    );
  });

  it('fails the start with spawn’s own error for a command that is not there', async () => {
    const missing = join(scratch, 'no-such-server');
    const transport = new StdioGroupClientTransport({ command: missing, stderr: 'ignore' });
    await expect(transport.start()).rejects.toThrow(`spawn ${missing} ENOENT`);
    expect(transport.pid).toBeNull();
    const bare = new StdioGroupClientTransport({ command: 'no-such-server-anywhere-6f1c' });
    await expect(bare.start()).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('dies with the process that started it, even SIGKILLed', async () => {
    const pidFile = join(scratch, 'stubborn-orphan.pids');
    // A separate Node process runs the transport, so the test can SIGKILL it: no exit handler or
    // finally of its own runs, as when `kill -9` or the OOM killer takes a worker.
    const runner = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        '--input-type=module',
        '-e',
        `const { StdioGroupClientTransport } = await import(${JSON.stringify(join(PROJECT_ROOT, 'src/mcp-client/stdio-group-transport.ts'))});
        const { Client } = await import('@modelcontextprotocol/sdk/client/index.js');
        const transport = new StdioGroupClientTransport(${JSON.stringify({
          ...stubbornStdioCommand(),
          env: { FIXTURE_PID_FILE: pidFile },
          stderr: 'ignore',
          graceMs: 500,
        })});
        await new Client({ name: 'runner', version: '0' }).connect(transport);
        setInterval(() => {}, 60_000);`,
      ],
      { cwd: PROJECT_ROOT, stdio: 'inherit' },
    );
    const runnerExited = new Promise((resolve) => runner.once('exit', resolve));
    try {
      const { pid, child } = await stubbornPids(pidFile);
      groups.push(pid);
      expect(isRunning(pid) && isRunning(child)).toBe(true);

      runner.kill('SIGKILL');
      await runnerExited;
      // Hang guard, not a speed claim: SIGTERM at once, SIGKILL after the 0.5 s grace.
      await eventually(
        async () =>
          isRunning(pid) || isRunning(child) || groupMembers(pid).length > 0 ? undefined : true,
        `the stubborn server ${pid} and its child ${child} to end`,
        10_000,
      );
    } finally {
      runner.kill('SIGKILL');
    }
  });
});

/**
 * The MCP pool against a real stdio server (the fixture) that dies in the middle of a call: the
 * call in flight fails at once with the SDK's ConnectionClosed (it used to hang until its
 * timeout, because the pool replaced the client's own close handler on the transport), and a
 * call made while the reconnect is pending waits for it and reaches the new process.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createMcpPool } from '../../src/mcp-client/pool.js';
import { fromConfigured } from '../../src/mcp-client/server-spec.js';
import { readPids, stdioFixtureCommand } from '../fixtures/mcp/start.js';
import { eventually } from '../support/eventually.js';
import { isRunning } from '../support/processes.js';
import { calibrate, timed } from '../support/calibration.js';

const scratch = mkdtempSync(join(tmpdir(), 'deputy-mcp-pool-'));
const pidFile = join(scratch, 'pids');
const pool = createMcpPool({ reconnectMs: 300, cwd: scratch });
afterAll(async () => {
  await pool.close();
  for (const pid of readPids(pidFile)) {
    await eventually(async () => (isRunning(pid) ? undefined : true), `server ${pid} to exit`);
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** Spawns the command that is not there and waits for the spawn to fail. */
const failedSpawn = () =>
  new Promise<void>((resolve) => {
    spawn(join(scratch, 'no-such-server'), [], { stdio: 'ignore' }).on('error', () => resolve());
  });

const server = pool.server(
  fromConfigured('flaky', {
    transport: 'stdio',
    ...stdioFixtureCommand(),
    env: { FIXTURE_PID_FILE: pidFile },
    headers: {},
    approve: [],
    enabled: true,
  }),
);

const whoami = async () => {
  const result = await server.call('whoami', {}, { timeoutMs: 10_000 });
  const block = (result as CallToolResult).content[0];
  return JSON.parse(block?.type === 'text' ? block.text : 'null') as { pid: number };
};

describe('the MCP pool when a stdio server dies mid-call', () => {
  it('fails the call in flight at once, and the next call waits for the reconnect', async () => {
    const first = await whoami();
    // ConnectionClosed, not the RequestTimeout a call left hanging until its timeout gets.
    const crash = await server.call('crash', {}, { timeoutMs: 30_000 }).catch((error) => error);
    expect(crash).toBeInstanceOf(McpError);
    expect((crash as McpError).code).toBe(ErrorCode.ConnectionClosed);
    // Made while the pool waits to reconnect: not refused, answered by the new process.
    expect(server.status()).not.toBe('connected');
    const second = await whoami();
    expect(second.pid).not.toBe(first.pid);
    expect(readPids(pidFile)).toEqual([first.pid, second.pid]);
    expect(server.pid()).toBe(second.pid);
  });

  it('gives up on a server that stays down after the one attempt it waited for', async () => {
    const gone = pool.server(
      fromConfigured('gone', {
        transport: 'stdio',
        command: join(scratch, 'no-such-server'),
        args: [],
        env: {},
        headers: {},
        approve: [],
        enabled: true,
      }),
    );
    await eventually(async () => (gone.status() === 'failed' ? true : undefined), 'a failure');
    // One backoff (300 ms, or the second's 600 ms when the first retry has already failed) and
    // one failed spawn, not the 10 s a call may wait to connect: a failed spawn of the same
    // missing command is the baseline, and 20 of them or 3 s leave that 10 s well outside.
    const budget = await calibrate('a failed spawn of the missing command', failedSpawn, {
      factor: 20,
      floorMs: 3_000,
      plusMs: 600,
    });
    const { value: refusal, ms } = await timed(() =>
      gone.call('anything', {}, { timeoutMs: 30_000 }).catch((error: unknown) => error),
    );
    expect(String(refusal)).toMatch(
      /MCP server 'gone' is not connected: .*ENOENT.* \(retrying in the background\)/,
    );
    budget.expectWithin(ms, 'the refused call');
  });
});

describe('servers the pool lets go', () => {
  it('ends the process of a server no longer configured or declared (retain)', async () => {
    const retainedFile = join(scratch, 'retained-pids');
    const spec = (marker: string) =>
      fromConfigured('kept', {
        transport: 'stdio',
        ...stdioFixtureCommand(),
        env: { FIXTURE_PID_FILE: retainedFile, MARKER: marker },
        headers: {},
        approve: [],
        enabled: true,
      });
    const own = createMcpPool({ reconnectMs: 300, cwd: scratch });
    try {
      const old = own.server(spec('a'));
      await old.connected(10_000);
      const oldPid = old.pid()!;
      // An edit changed the server (its env): only the new one is kept.
      const edited = own.server(spec('b'));
      await edited.connected(10_000);
      await own.retain([spec('b')]);
      await eventually(async () => (isRunning(oldPid) ? undefined : true), 'the old server to end');
      expect(isRunning(edited.pid()!)).toBe(true);
      expect(own.list()).toEqual([edited]);
      expect(old.status()).toBe('failed');
      expect(old.lastError()).toBe('no longer configured or declared');
    } finally {
      await own.close();
    }
  });

  it('closes a server still in its handshake, so its process does not outlive the pool', async () => {
    // Writes its pid, then never answers initialize: connecting until the pool closes.
    const silentFile = join(scratch, 'silent-pids');
    const own = createMcpPool({ reconnectMs: 300, cwd: scratch });
    const silent = own.server(
      fromConfigured('silent', {
        transport: 'stdio',
        command: 'sh',
        args: ['-c', `echo $$ >> ${silentFile}; exec sleep 60`],
        env: {},
        headers: {},
        approve: [],
        enabled: true,
      }),
    );
    const [pid] = await eventually(
      async () => (readPids(silentFile).length > 0 ? readPids(silentFile) : undefined),
      'the silent server to start',
    );
    expect(silent.status()).toBe('connecting');
    await own.close();
    expect(silent.status()).toBe('failed');
    expect(silent.lastError()).toBe('the pool was closed');
    await eventually(async () => (isRunning(pid!) ? undefined : true), 'the silent server to end');
  });
});

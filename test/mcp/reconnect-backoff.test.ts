/**
 * The pool's reconnect backoff and its connect queue against real child processes: a stdio
 * server that fails its first attempts (a shell that exits at once, then execs the fixture
 * server) is connected once it comes up, its attempts spaced as the backoff says (doubling up to
 * the cap, each 75-100 % of its nominal wait), and the sequence starts over once it connected.
 * Silent servers (they never answer the handshake) show that at most `maxConnecting` handshakes
 * run ahead of use, and that a caller who waits is not queued behind them.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { createConnectQueue } from '../../src/mcp-client/connect-queue.js';
import { createMcpPool } from '../../src/mcp-client/pool.js';
import {
  nominalReconnectMs,
  reconnectDelayMs,
  type ReconnectPolicy,
} from '../../src/mcp-client/reconnect-backoff.js';
import { fromConfigured } from '../../src/mcp-client/server-spec.js';
import { readPids, stdioFixtureCommand } from '../fixtures/mcp/start.js';
import { eventually } from '../support/eventually.js';
import { isRunning } from '../support/processes.js';
import { budgetFrom, calibrate, timed } from '../support/calibration.js';

const scratch = mkdtempSync(join(tmpdir(), 'deputy-mcp-backoff-'));
const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  rmSync(scratch, { recursive: true, force: true });
});

const stdio = (name: string, command: string, args: string[], env: Record<string, string> = {}) =>
  fromConfigured(name, {
    transport: 'stdio',
    command,
    args,
    env,
    headers: {},
    approve: [],
    enabled: true,
  });

/**
 * A shell that appends the time (ms) of each start to `attempts`, exits at once for its first
 * `failures` starts (the handshake sees the connection close), then becomes the fixture server.
 */
function failingThenUp(name: string, failures: number) {
  const attempts = join(scratch, `${name}.attempts`);
  const fixture = stdioFixtureCommand();
  const exec = [fixture.command, ...fixture.args].map((part) => JSON.stringify(part)).join(' ');
  const script = [
    'date +%s%3N >> "$ATTEMPTS"',
    'n=$(wc -l < "$ATTEMPTS")',
    `if [ "$n" -le ${failures} ]; then exit 1; fi`,
    `exec ${exec}`,
  ].join('\n');
  return { spec: stdio(name, 'sh', ['-c', script], { ATTEMPTS: attempts }), attempts };
}

const startsIn = (file: string): number[] => {
  try {
    return readFileSync(file, 'utf8').trim().split('\n').filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/**
 * The baseline for every upper bound here: a shell like the failing attempts (it records the time
 * with `date`, counts its starts, exits 1), from its spawn to its exit as seen here. A gap between
 * attempts is the wait plus about one of those; up to 5 of them, or 400 ms (a start from the
 * first wait, 200 ms, then still falls short of the cap's 800 on a quiet machine), is the room.
 */
function shellRoundTrip(): Promise<void> {
  const file = join(scratch, 'calibration.attempts');
  const script = 'date +%s%3N >> "$ATTEMPTS"; n=$(wc -l < "$ATTEMPTS"); exit 1';
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', script], {
      env: { ...process.env, ATTEMPTS: file },
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    child.on('error', reject);
    child.on('exit', () => resolve());
  });
}
const slack = () =>
  calibrate('a failing shell attempt, spawn to exit', shellRoundTrip, { factor: 5, floorMs: 400 });

describe('the backoff between reconnect attempts', () => {
  it('doubles from the first wait to the cap, each wait 75-100 % of its nominal', () => {
    const policy: ReconnectPolicy = { firstMs: 250, maxMs: 30_000 };
    expect(
      [1, 2, 3, 4, 5, 6, 7, 8, 9, 50].map((retry) => nominalReconnectMs(retry, policy)),
    ).toEqual([250, 500, 1000, 2000, 4000, 8000, 16_000, 30_000, 30_000, 30_000]);
    expect(reconnectDelayMs(3, policy, () => 0)).toBe(1000);
    expect(reconnectDelayMs(3, policy, () => 0.999_999)).toBe(750);
    // A first wait above the cap is the wait: the cap never makes a setting shorter.
    expect(nominalReconnectMs(4, { firstMs: 600_000, maxMs: 30_000 })).toBe(600_000);
  });

  it('connects a server that fails 4 times, its attempts spaced 200, 400, 800, 800 ms', async () => {
    const policy = { reconnectMs: 200, maxReconnectMs: 800 };
    const pool = createMcpPool({ ...policy, cwd: scratch });
    cleanups.push(() => pool.close());
    const { spec, attempts } = failingThenUp('late', 4);
    const room = await slack();
    const asked = Date.now();
    const server = pool.server(spec);
    await eventually(
      async () => (server.status() === 'connected' ? true : undefined),
      'the server to connect after its failures',
      30_000,
      20,
    );
    const starts = startsIn(attempts);
    expect(starts).toHaveLength(5);
    const gaps = starts.slice(1).map((start, index) => start - starts[index]!);
    const nominal = [200, 400, 800, 800];
    gaps.forEach((gap, index) => {
      // Never before 75 % of the nominal wait (jitter only shortens); a constant 200 ms backoff
      // fails the third and fourth; no backoff at all fails every one.
      expect(gap).toBeGreaterThanOrEqual(0.75 * nominal[index]! - 5);
      room.plus(nominal[index]!).expectWithin(gap, `the wait before attempt ${index + 2}`);
    });
    // The first attempt was not held back, and the fifth came when the policy says.
    room.expectWithin(starts[0]! - asked, 'the first attempt');
    budgetFrom(room.baseline, room.baselineMs, {
      factor: 4 * 5,
      floorMs: 4 * 400,
      plusMs: 2200,
    }).expectWithin(starts[4]! - starts[0]!, 'the first to the fifth attempt');
    expect(server.lastError()).toBeNull();

    // A good connection starts the sequence over: after a crash, the retry comes after the
    // first wait (150-200 ms), not the cap's 800.
    const crashed = Date.now();
    await server.call('crash', {}, { timeoutMs: 10_000 }).catch(() => undefined);
    const result = (await server.call('whoami', {}, { timeoutMs: 10_000 })) as CallToolResult;
    expect(result.isError).toBeFalsy();
    const restart = startsIn(attempts)[5]!;
    expect(startsIn(attempts)).toHaveLength(6);
    expect(restart - crashed).toBeGreaterThanOrEqual(150 - 5);
    room
      .plus(200)
      .expectWithin(restart - crashed, 'the crash to the next attempt (the cap would be 800 ms)');
  });

  it('fails a call at once when the next attempt is further off than the call may wait', async () => {
    const pool = createMcpPool({ reconnectMs: 60_000, cwd: scratch });
    cleanups.push(() => pool.close());
    const { spec, attempts } = failingThenUp('down', 100);
    const server = pool.server(spec);
    await eventually(async () => (server.status() === 'failed' ? true : undefined), 'a failure');
    // The call may wait 5 s; refused at once, it takes about a shell attempt's time, not that.
    const room = await slack();
    const { value: refusal, ms } = await timed(() =>
      server.call('echo', { text: 'x' }, { timeoutMs: 5000 }).catch((error: unknown) => error),
    );
    expect(String(refusal)).toMatch(
      /MCP server 'down' is not connected: .* \(retrying in the background\)/,
    );
    room.expectWithin(ms, 'the refused call');
    expect(startsIn(attempts)).toHaveLength(1);
  });
});

describe('handshakes ahead of use', () => {
  it('runs at most maxConnecting at once; a caller who waits goes first', async () => {
    const pidFile = join(scratch, 'silent.pids');
    // Writes its pid, then never answers initialize: its handshake holds a slot until closed.
    const silent = (name: string) =>
      stdio(name, 'sh', ['-c', `echo $$ >> "$PIDS"; exec sleep 60`], { PIDS: pidFile });
    const pool = createMcpPool({ maxConnecting: 2, cwd: scratch });
    cleanups.push(async () => {
      await pool.close();
      for (const pid of readPids(pidFile)) {
        await eventually(async () => (isRunning(pid) ? undefined : true), `server ${pid} to end`);
      }
    });
    const servers = ['s1', 's2', 's3', 's4'].map((name) => pool.server(silent(name)));
    // Asking never spawns anything inside the call: a worker's start is not held up.
    expect(readPids(pidFile)).toHaveLength(0);
    await eventually(
      async () => (readPids(pidFile).length >= 2 ? true : undefined),
      'two handshakes to start',
    );
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readPids(pidFile)).toHaveLength(2);
    expect(servers.every((server) => server.status() === 'connecting')).toBe(true);

    // A call for the fourth does not wait for a slot: its handshake starts now.
    const waiting = servers[3]!.connected(300).catch((error: unknown) => error);
    await eventually(
      async () => (readPids(pidFile).length === 3 ? true : undefined),
      'the awaited handshake to start',
      5000,
      20,
    );
    expect(String(await waiting)).toMatch(/MCP server 's4' is still connecting/);
  });

  it('lets the next one go when a handshake holds its turn past slotMs', async () => {
    const queue = createConnectQueue(1, 150);
    const started: string[] = [];
    const began = Date.now();
    queue.enqueue(() => {
      started.push('never answers');
      return new Promise<void>(() => {});
    });
    let secondAt = 0;
    queue.enqueue(async () => {
      started.push('next');
      secondAt = Date.now() - began;
    });
    await eventually(
      async () => (started.length === 2 ? true : undefined),
      'the next turn',
      5000,
      10,
    );
    expect(started).toEqual(['never answers', 'next']);
    expect(secondAt).toBeGreaterThanOrEqual(145);
  });
});

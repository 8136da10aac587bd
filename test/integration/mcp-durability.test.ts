/**
 * The MCP gateway when things die, with real processes on a real dev
 * server: a stdio server that crashes in the middle of a call, one SIGKILLed from outside during
 * a slow call, and a worker SIGKILLed while its delegation is parked on a card for an MCP call.
 * The model is told what happened (never a hang, never a retry), the pool reconnects on its
 * backoff (`mcpReconnectSeconds: 1`), and the pid files say which server process answered.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readPids, stdioFixtureCommand } from '../fixtures/mcp/start.js';
import { useCleanups } from '../support/cleanups.js';
import { isRunning } from '../support/processes.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import {
  delegate,
  delegationsOn,
  finished,
  pendingCard,
  toolActivities,
  turnTexts,
  whoamiIn,
} from './support/mcp-delegations.js';
import { spawnWorker } from './support/worker-process.js';

const fixture = stdioFixtureCommand();
const cleanups = useCleanups();

const serverEntry = (name: string, pidFile: string, approve: string) => `
  ${name}:
    transport: stdio
    command: ${JSON.stringify(fixture.command)}
    args: ${JSON.stringify(fixture.args)}
    env: { FIXTURE_PID_FILE: ${JSON.stringify(pidFile)} }
    approve: ${approve}
`;

const agent = (name: string, server: string) => `---
name: ${name}
description: MCP durability test agent ${name}
model: scripted:scripts/${name}.yaml
tools: [read]
mcpServers: [${server}]
---
You call MCP tools.
`;

const call = (server: string, tool: string, args = '{}') =>
  `[{ name: mcp_call, arguments: { server: ${server}, tool: ${tool}, arguments: ${args} } }]`;

let scratch: string;
const everyPidFile: string[] = [];

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'deputy-mcp-durability-'));
});

afterAll(async () => {
  // Every server process any worker of this file started has exited (no orphans).
  for (const pid of everyPidFile.flatMap(readPids)) {
    await eventually(async () => (isRunning(pid) ? undefined : true), `server ${pid} to exit`);
  }
});

describe('MCP servers that die', () => {
  let harness: Harness;
  let pidFile: string;

  beforeAll(async () => {
    pidFile = join(scratch, 'flaky.pids');
    everyPidFile.push(pidFile);
    harness = await createHarness(
      {
        '.subagents/config.yaml': `mcpReconnectSeconds: 1\nmcpServers:${serverEntry('flaky', pidFile, '[whoami, crash, echo, slow]')}`,
        '.subagents/agents/crasher.md': agent('crasher', 'flaky'),
        'scripts/crasher.yaml': `turns:
  - text: Who is there?
    toolCalls: ${call('flaky', 'whoami')}
  - text: "first: \${lastToolResult}"
    toolCalls: ${call('flaky', 'crash')}
  - text: "crash: \${lastToolResult}"
    toolCalls: ${call('flaky', 'echo', '{ text: still here }')}
  - text: "echo: \${lastToolResult}"
    toolCalls: ${call('flaky', 'whoami')}
  - text: "second: \${lastToolResult}"
`,
        '.subagents/agents/sleeper.md': agent('sleeper', 'flaky'),
        'scripts/sleeper.yaml': `turns:
  - text: A long one.
    toolCalls: ${call('flaky', 'slow', '{ ms: 300000 }')}
  - text: "slow: \${lastToolResult}"
`,
        '.subagents/agents/prober.md': agent('prober', 'flaky'),
        'scripts/prober.yaml': `turns:
  - text: Who is there?
    toolCalls: ${call('flaky', 'whoami')}
  - text: "whoami: \${lastToolResult}"
`,
      },
      { mcp: true },
    );
    await eventually(
      async () => (harness.mcp?.pool.list()[0]?.status() === 'connected' ? true : undefined),
      'the flaky server to connect',
    );
  });

  afterAll(async () => {
    await harness?.close();
  });

  it('tells the model a server crashed mid-call; the next round reaches a new process', async () => {
    const delegations = delegationsOn(harness.client, harness.taskQueue);
    const { delegationId } = await delegate(delegations, 'crasher', 'Crash and carry on');
    const state = await finished(delegations, delegationId);
    expect(state.result).toMatchObject({ status: 'completed', deniedCalls: [] });
    const texts = await turnTexts(delegations, delegationId);
    expect(texts[2]).toBe(
      "crash: [tool 'flaky/crash' failed] server 'flaky' closed the connection during the call " +
        '(did it crash?); deputy reconnects in the background',
    );
    // The very next call waited for the reconnect (1 s) and reached the new process.
    expect(texts[3]).toBe('echo: still here');
    const before = whoamiIn(texts[1]!, 'first: ');
    const after = whoamiIn(texts[4]!, 'second: ');
    const pids = readPids(pidFile);
    expect(pids).toHaveLength(2);
    expect([before.pid, after.pid]).toEqual(pids);
    expect(after.calls).toBe(2);
    expect(isRunning(before.pid)).toBe(false);
  });

  it('fails a call at once when its server is SIGKILLed under it; the next delegation works', async () => {
    const delegations = delegationsOn(harness.client, harness.taskQueue);
    const running = readPids(pidFile).at(-1)!;
    expect(harness.mcp?.pool.list()[0]?.pid()).toBe(running);
    const { delegationId, workflowId } = await delegate(delegations, 'sleeper', 'Sleep long');
    // The slow call is in flight: its activity started, and a second later it surely has sent
    // its request (the activity does nothing else first).
    await eventually(
      async () => {
        const { raw } = await harness.client.workflow.getHandle(workflowId).describe();
        const [activity] = raw.pendingActivities ?? [];
        return activity?.activityType?.name === 'runTool' && activity.lastStartedTime
          ? true
          : undefined;
      },
      'the slow call to start',
      20_000,
      50,
    );
    await new Promise((resolve) => setTimeout(resolve, 1000));
    process.kill(running, 'SIGKILL');

    const state = await finished(delegations, delegationId);
    const texts = await turnTexts(delegations, delegationId);
    expect(texts[1]).toBe(
      "slow: [tool 'flaky/slow' failed] server 'flaky' closed the connection during the call " +
        '(did it crash?); deputy reconnects in the background',
    );
    // One attempt, failed by the closed connection (a call ended by its timeout says so instead):
    // the tool wanted 300 s, past the test's own timeout, so one left waiting fails the test.
    const [slow] = await toolActivities(harness.client, workflowId);
    expect(slow).toMatchObject({ summary: 'mcp_call flaky/slow', attempts: [1] });
    expect(state.result.status).toBe('completed');

    const probe = await delegate(delegations, 'prober', 'Who is there now?');
    expect((await finished(delegations, probe.delegationId)).result.status).toBe('completed');
    const now = whoamiIn((await turnTexts(delegations, probe.delegationId))[1]!, 'whoami: ');
    const pids = readPids(pidFile);
    expect(pids).toHaveLength(3);
    expect(now.pid).toBe(pids[2]);
    expect(now.pid).not.toBe(running);
  });
});

describe('a card on an MCP call across a worker restart', () => {
  /** A worker process with MCP clients; resolves once it polls and its server is connected. */
  const spawnMcpWorker = (harness: Harness): Promise<ChildProcess> =>
    spawnWorker(harness, cleanups, {
      script: 'test/fixtures/mcp-worker-process.ts',
      ready: (output) =>
        output.includes('worker ready') && output.includes("MCP server 'vault' connected"),
    });

  it('keeps the card through a SIGKILLed worker; approved, the call runs on the new pool', async () => {
    const pidFile = join(scratch, 'vault.pids');
    everyPidFile.push(pidFile);
    const harness = await createHarness(
      {
        '.subagents/config.yaml': `mcpReconnectSeconds: 1\nmcpServers:${serverEntry('vault', pidFile, '[whoami]')}`,
        '.subagents/agents/keeper.md': agent('keeper', 'vault'),
        'scripts/keeper.yaml': `turns:
  - text: Who is there?
    toolCalls: ${call('vault', 'whoami')}
  - text: "first: \${lastToolResult}"
    toolCalls: ${call('vault', 'echo', '{ text: approved after a restart }')}
  - text: "echo: \${lastToolResult}"
    toolCalls: ${call('vault', 'whoami')}
  - text: "second: \${lastToolResult}"
`,
      },
      { startWorker: false },
    );
    cleanups.push(() => harness.close());
    // The killed worker still looks like a poller for a while: a query to it waits out this
    // timeout before the facade reads the card from the memo instead.
    const delegations = delegationsOn(harness.client, harness.taskQueue, { queryTimeoutMs: 2000 });

    const first = await spawnMcpWorker(harness);
    const { delegationId } = await delegate(delegations, 'keeper', 'Echo, with a card');
    const card = await pendingCard(delegations, delegationId);
    expect(card).toMatchObject({
      tool: 'mcp_call',
      arguments: { server: 'vault', tool: 'echo' },
      reason: "MCP tool 'vault/echo' needs approval under approvalMode confirm",
    });
    const [oldServer] = readPids(pidFile);

    const exited = new Promise((resolve) => first.once('exit', resolve));
    first.kill('SIGKILL');
    await exited;
    // Its stdio server ends with it (its stdin closed): nothing is left of the first worker.
    await eventually(
      async () => (isRunning(oldServer!) ? undefined : true),
      'the dead worker’s MCP server to exit',
    );
    // With no worker at all, the card is still listed.
    expect((await delegations.cards({ session: 'mcp' })).map((listed) => listed.id)).toEqual([
      card.id,
    ]);

    await spawnMcpWorker(harness);
    await delegations.decide(card.id, { decision: 'approve' });
    const state = await finished(delegations, delegationId);
    expect(state.result).toMatchObject({ status: 'completed', deniedCalls: [] });
    expect(state.decidedCards).toMatchObject([{ id: card.id, state: { status: 'approved' } }]);
    const texts = await turnTexts(delegations, delegationId);
    expect(texts[2]).toBe('echo: approved after a restart');
    const before = whoamiIn(texts[1]!, 'first: ');
    const after = whoamiIn(texts[3]!, 'second: ');
    const pids = readPids(pidFile);
    expect(pids).toHaveLength(2);
    expect(before.pid).toBe(pids[0]);
    // The echo and the whoami after it ran on the new worker's server process.
    expect(after).toMatchObject({ pid: pids[1], calls: 2 });
  });
});

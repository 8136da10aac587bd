/**
 * The scoped MCP gateway with real servers: the reference
 * `@modelcontextprotocol/server-everything` over stdio, and the fixture server over stdio and over
 * Streamable HTTP on loopback, on a real dev server and a worker whose MCP clients are built as
 * `deputy worker` builds them. Only the model is scripted; each script repeats what it read
 * (`${lastToolResult}`) in its turns' text, so the assertions read what a user sees: the
 * delegation's state and result, its events, its cards, and the server processes started.
 */
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Delegations } from '../../src/temporal/delegations/facade.js';
import {
  everythingStdioCommand,
  readPids,
  startHttpFixture,
  stdioFixtureCommand,
  type RunningServer,
} from '../fixtures/mcp/start.js';
import { isRunning } from '../support/processes.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import {
  allEvents,
  delegate,
  delegationsOn,
  finished,
  pendingCard,
  toolActivities,
  turnTexts,
  whoamiIn,
} from './support/mcp-delegations.js';

const everything = everythingStdioCommand();
const fixture = stdioFixtureCommand();
/** Tools only the fixture server has: none may show in a listing of server-everything's. */
const FIXTURE_ONLY_TOOLS = ['whoami', 'slow', 'crash', 'env-check', 'fail', 'image', 'resource'];

const agent = (name: string, servers: string, script = name) => `---
name: ${name}
description: MCP gateway test agent ${name}
model: scripted:scripts/${script}.yaml
tools: [read]
mcpServers: ${servers}
---
You call MCP tools.
`;

/** Calls whoami, then a tool that needs a card, then whoami again; says what each answered. */
const CARD_SCRIPT = `turns:
  - text: Who is there?
    toolCalls: [{ name: mcp_call, arguments: { server: remote, tool: whoami } }]
  - text: "before: \${lastToolResult}"
    toolCalls: [{ name: mcp_call, arguments: { server: remote, tool: echo, arguments: { text: carded-echo } } }]
  - text: "echo: \${lastToolResult}"
    toolCalls: [{ name: mcp_call, arguments: { server: remote, tool: whoami } }]
  - text: "after: \${lastToolResult}"
`;

const WHOAMI_SCRIPT = (server: string) => `turns:
  - text: Counting.
    toolCalls: [{ name: mcp_call, arguments: { server: ${server}, tool: whoami } }]
  - text: "whoami: \${lastToolResult}"
`;

let http: RunningServer;
let harness: Harness;
let delegations: Delegations;
let scratch: string;

beforeAll(async () => {
  scratch = await mkdtemp(join(tmpdir(), 'deputy-mcp-gateway-'));
  http = await startHttpFixture();
  harness = await createHarness(
    {
      '.subagents/config.yaml': `
mcpReconnectSeconds: 1
mcpServers:
  everything:
    transport: stdio
    command: ${JSON.stringify(everything.command)}
    args: ${JSON.stringify(everything.args)}
    approve: [echo]
  remote:
    transport: http
    endpoint: ${http.url}
    approve: [whoami]
  sluggish:
    transport: http
    endpoint: ${http.url}
    toolTimeoutSeconds: 1
    approve: [slow, whoami]
  counter:
    transport: stdio
    command: ${JSON.stringify(fixture.command)}
    args: ${JSON.stringify(fixture.args)}
    env: { FIXTURE_PID_FILE: ${JSON.stringify(join(scratch, 'counter.pids'))} }
    approve: [whoami]
`,
      '.subagents/agents/echoer.md': agent('echoer', '[everything]'),
      'scripts/echoer.yaml': `turns:
  - text: Echoing.
    toolCalls: [{ name: mcp_call, arguments: { server: everything, tool: echo, arguments: { message: hello from deputy } } }]
  - text: "Echo said: \${lastToolResult}"
`,
      '.subagents/agents/carded.md': agent('carded', '[remote]'),
      'scripts/carded.yaml': CARD_SCRIPT,
      '.subagents/agents/scoped.md': agent('scoped', '[everything, ghost]'),
      'scripts/scoped.yaml': `turns:
  - text: Trying a server I did not declare.
    toolCalls: [{ name: mcp_call, arguments: { server: counter, tool: whoami } }]
  - text: "undeclared: \${lastToolResult}"
    toolCalls: [{ name: mcp_search, arguments: { query: "" } }]
  - text: "search: \${lastToolResult}"
    toolCalls: [{ name: mcp_search, arguments: { query: "", server: counter } }]
  - text: "search counter: \${lastToolResult}"
    toolCalls: [{ name: mcp_describe, arguments: { server: counter, tool: whoami } }]
  - text: "describe counter: \${lastToolResult}"
`,
      '.subagents/agents/patient.md': agent('patient', '[sluggish]'),
      'scripts/patient.yaml': `turns:
  - text: This will take a while.
    toolCalls: [{ name: mcp_call, arguments: { server: sluggish, tool: slow, arguments: { ms: 300000 } } }]
  - text: "slow: \${lastToolResult}"
    toolCalls: [{ name: mcp_call, arguments: { server: sluggish, tool: whoami } }]
  - text: "whoami: \${lastToolResult}"
`,
      '.subagents/agents/tally-a.md': agent('tally-a', '[counter]', 'tally'),
      '.subagents/agents/tally-b.md': agent('tally-b', '[counter]', 'tally'),
      'scripts/tally.yaml': WHOAMI_SCRIPT('counter'),
    },
    { mcp: true },
  );
  delegations = delegationsOn(harness.client, harness.taskQueue);
});

afterAll(async () => {
  const pids = [
    ...readPids(join(scratch, 'counter.pids')),
    ...(harness?.mcp?.pool.list().map((server) => server.pid()) ?? []),
  ].filter((pid): pid is number => pid !== null);
  await harness?.close();
  await http?.stop();
  // The worker's stdio servers end with its MCP clients: nothing outlives the suite.
  for (const pid of pids) {
    await eventually(async () => (isRunning(pid) ? undefined : true), `server ${pid} to exit`);
  }
});

describe('the scoped MCP gateway on real servers', () => {
  it('runs a declared, approve-listed tool of server-everything (stdio) without a card', async () => {
    const { delegationId } = await delegate(delegations, 'echoer', 'Echo something');
    const state = await finished(delegations, delegationId);
    expect(state.result).toMatchObject({
      status: 'completed',
      text: 'Echo said: Echo: hello from deputy',
      deniedCalls: [],
    });
    expect(state.decidedCards).toEqual([]);
    const events = await allEvents(delegations, delegationId);
    expect(events.filter((event) => event.type.startsWith('card'))).toEqual([]);
    expect(events.find((event) => event.type === 'tool-call')).toMatchObject({
      tool: 'mcp_call',
      verdict: 'allow',
      summary: 'Echo: hello from deputy',
    });
  });

  it('opens a card for a tool outside approve (http): approved it runs, denied it does not', async () => {
    // Approved.
    const approved = await delegate(delegations, 'carded', 'Echo with approval');
    const card = await pendingCard(delegations, approved.delegationId);
    expect(card).toMatchObject({
      tool: 'mcp_call',
      agent: 'carded',
      arguments: { server: 'remote', tool: 'echo', arguments: { text: 'carded-echo' } },
      reason: "MCP tool 'remote/echo' needs approval under approvalMode confirm",
    });
    expect((await delegations.cards({ session: 'mcp' })).map((listed) => listed.id)).toContain(
      card.id,
    );
    await delegations.decide(card.id, { decision: 'approve' });
    const done = await finished(delegations, approved.delegationId);
    expect(done.result.status).toBe('completed');
    expect(done.decidedCards).toMatchObject([{ id: card.id, state: { status: 'approved' } }]);
    const texts = await turnTexts(delegations, approved.delegationId);
    expect(texts[2]).toBe('echo: carded-echo');
    // whoami, echo, whoami: the echo ran in between, on the same server process.
    const before = whoamiIn(texts[1]!, 'before: ');
    const after = whoamiIn(texts[3]!, 'after: ');
    expect(after.pid).toBe(before.pid);
    expect(after.calls - before.calls).toBe(2);

    // Denied, with a reason the model reads.
    const denied = await delegate(delegations, 'carded', 'Echo, to be denied');
    const second = await pendingCard(delegations, denied.delegationId);
    await delegations.decide(second.id, { decision: 'deny', reason: 'not today' });
    const refused = await finished(delegations, denied.delegationId);
    expect(refused.result).toMatchObject({
      status: 'completed',
      deniedCalls: [{ tool: 'mcp_call', by: 'human', reason: 'not today' }],
    });
    const deniedTexts = await turnTexts(delegations, denied.delegationId);
    expect(deniedTexts[2]).toBe("echo: [tool 'mcp_call' denied] not today");
    // Only the two whoami calls reached the server: the denied echo never ran.
    const first = whoamiIn(deniedTexts[1]!, 'before: ');
    const last = whoamiIn(deniedTexts[3]!, 'after: ');
    expect(last.calls - first.calls).toBe(1);
  });

  it('refuses an undeclared (but configured) server at once and never lists its tools', async () => {
    const { delegationId, workflowId } = await delegate(delegations, 'scoped', 'Reach further');
    const state = await finished(delegations, delegationId);
    expect(state.result.status).toBe('completed');
    expect(state.decidedCards).toEqual([]);
    const events = await allEvents(delegations, delegationId);
    expect(events.filter((event) => event.type.startsWith('card'))).toEqual([]);
    const [, undeclared, search, searchCounter, describeCounter] = await turnTexts(
      delegations,
      delegationId,
    );
    expect(undeclared).toBe(
      "undeclared: [tool 'mcp_call' denied] 'counter' is not one of your MCP servers; you may use: everything, ghost",
    );
    expect(state.result.deniedCalls).toMatchObject([{ tool: 'mcp_call', by: 'policy' }]);
    // Refused in the workflow: no activity ever asked the counter server.
    const summaries = (await toolActivities(harness.client, workflowId)).map((a) => a.summary);
    expect(summaries.some((summary) => summary.includes('counter/whoami'))).toBe(false);

    // The listing: server-everything's tools, a note for the declared server that is not in
    // place, and nothing of the fixture servers configured for the workspace.
    const lines = search!.replace(/^search: /, '').split('\n');
    const listed = lines.filter((line) => !line.startsWith('['));
    expect(listed).toEqual(expect.arrayContaining([expect.stringMatching(/^everything\/echo: /)]));
    expect(listed.length).toBeGreaterThan(5);
    expect(listed.every((line) => line.startsWith('everything/'))).toBe(true);
    for (const name of FIXTURE_ONLY_TOOLS) {
      expect(listed.some((line) => line.startsWith(`everything/${name}:`))).toBe(false);
    }
    expect(search).not.toMatch(/counter|remote|sluggish/);
    expect(lines).toContain(
      "[ghost: not in place yet: MCP server 'ghost' is not configured in this workspace]",
    );
    const refusal = "'counter' is not one of your MCP servers; you may use: everything, ghost";
    expect(searchCounter).toBe(`search counter: [tool 'mcp_search' failed] ${refusal}`);
    expect(describeCounter).toBe(`describe counter: [tool 'mcp_describe' failed] ${refusal}`);
  });

  it('abandons a slow tool at its toolTimeoutSeconds, once, and tells the model', async () => {
    const { delegationId, workflowId } = await delegate(delegations, 'patient', 'Wait for it');
    const state = await finished(delegations, delegationId);
    expect(state.result.status).toBe('completed');
    const texts = await turnTexts(delegations, delegationId);
    expect(texts[1]).toBe(
      "slow: [tool 'sluggish/slow' failed] no answer within 1 s (toolTimeoutSeconds); the call was abandoned",
    );
    // The server saw the cancellation (its abort signal fired); it is up for the next call.
    const after = whoamiIn(texts[2]!, 'whoami: ');
    expect(after.cancelled).toBe(1);
    // One attempt, ended by the timeout: the tool wanted 300 s, past the test's own timeout, so
    // a call left to run would fail the test rather than pass slowly.
    const [slow] = await toolActivities(harness.client, workflowId);
    expect(slow).toMatchObject({ summary: 'mcp_call sluggish/slow', attempts: [1] });
  });

  it('shares one client (one server process) between two delegations on one worker', async () => {
    const pidFile = join(scratch, 'counter.pids');
    const [a, b] = await Promise.all([
      delegate(delegations, 'tally-a', 'Count'),
      delegate(delegations, 'tally-b', 'Count'),
    ]);
    const answers = await Promise.all(
      [a, b].map(async ({ delegationId }) => {
        expect((await finished(delegations, delegationId)).result.status).toBe('completed');
        return whoamiIn((await turnTexts(delegations, delegationId))[1]!, 'whoami: ');
      }),
    );
    const pids = readPids(pidFile);
    expect(pids).toHaveLength(1);
    expect(answers.map((answer) => answer.pid)).toEqual([pids[0], pids[0]]);
    expect(answers.map((answer) => answer.calls).sort()).toEqual([1, 2]);
    expect(
      harness.mcp?.pool
        .list()
        .find((server) => server.name === 'counter')
        ?.pid(),
    ).toBe(pids[0]);
  });
});

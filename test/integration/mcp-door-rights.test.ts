/**
 * The MCP door's rights with auth on: `/mcp` answers only a bearer token, an MCP
 * session belongs to the caller who opened it, and the door applies the same rules as the HTTP
 * API (src/rights): a task (delegation) is its owner's or an admin's, a write card is decided by
 * its owner or an admin, and a stop likewise. Real Temporal, a real worker, the scripted `demo`
 * agent (it parks on a write card), real HTTP on loopback and the MCP SDK's client.
 */
import { randomUUID } from 'node:crypto';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateTaskResultSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createAuth } from '../../src/api/http/auth.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

const TOKENS = { alice: 'tok-door-alice', bob: 'tok-door-bob', root: 'tok-door-root' } as const;
type Who = keyof typeof TOKENS;

const auth = createAuth(
  {
    auth: {
      tokens: {
        T_ALICE: { user: 'alice', roles: ['admin'] },
        T_BOB: { user: 'bob', roles: ['dev'] },
        T_ROOT: { user: 'root', roles: ['admin'] },
      },
    },
  },
  { T_ALICE: TOKENS.alice, T_BOB: TOKENS.bob, T_ROOT: TOKENS.root },
);

let harness: Harness;
let server: ApiServer;
const clients: Client[] = [];

beforeAll(async () => {
  harness = await createHarness({ 'README.md': '# MCP door rights workspace\n' });
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    { delegations: harness.delegations, definitions: harness.registry, auth, localSocket: false },
  );
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await server?.close();
  await harness?.close();
});

async function connectAs(
  who: Who,
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', server.url), {
    requestInit: { headers: { Authorization: `Bearer ${TOKENS[who]}` } },
  });
  const client = new Client({ name: `host-of-${who}`, version: '1.0.0' });
  await client.connect(transport);
  clients.push(client);
  return { client, transport };
}

async function parkedTaskOf(client: Client): Promise<string> {
  const created = await client.request(
    {
      method: 'tools/call',
      params: { name: 'demo', arguments: { task: `Greet ${randomUUID().slice(0, 6)}` }, task: {} },
    },
    CreateTaskResultSchema,
  );
  const taskId = created.task.taskId;
  await eventually(async () => {
    const task = await client.experimental.tasks.getTask(taskId);
    return task.status === 'input_required' ? task : undefined;
  }, `task ${taskId} parked`);
  return taskId;
}

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

it("runs a delegate with the caller's roles: no tool the caller lacks", async () => {
  // `write` needs the admin role: Bob's delegation of the same agent never gets it.
  const bob = await connectAs('bob');
  const result = (await bob.client.callTool({
    name: 'demo',
    arguments: { task: 'Greet, as bob' },
  })) as CallToolResult;
  expect(result.structuredContent).toMatchObject({ status: 'completed', pendingCards: [] });
  expect(result.structuredContent?.deniedCalls).toEqual([
    expect.objectContaining({ tool: 'write' }),
  ]);
});

it('answers 401 without a token, before any MCP', async () => {
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
  });
  expect(response.status).toBe(401);
});

it("keeps one user's tasks from another: not found, not listed, not stopped, not decided, not read", async () => {
  const alice = await connectAs('alice');
  const bob = await connectAs('bob');
  const taskId = await parkedTaskOf(alice.client);

  await expect(bob.client.experimental.tasks.getTask(taskId)).rejects.toThrow(/not found/i);
  const listed = await bob.client.experimental.tasks.listTasks();
  expect(listed.tasks.map((task) => task.taskId)).not.toContain(taskId);
  await expect(bob.client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/not found/i);

  for (const [name, args] of [
    ['deputy_stop', { delegationId: taskId }],
    ['deputy_result', { delegationId: taskId }],
    ['deputy_decide', { cardId: `${taskId}.1`, decision: 'approve' }],
  ] as const) {
    const refused = (await bob.client.callTool({ name, arguments: args })) as CallToolResult;
    expect(refused.isError, name).toBe(true);
    expect(text(refused), name).toMatch(/admin|started/);
  }
  // Bob's inbox leaves Alice's write card out.
  const cards = (await bob.client.callTool({
    name: 'deputy_cards',
    arguments: {},
  })) as CallToolResult;
  expect(JSON.stringify(cards.structuredContent)).not.toContain(taskId);

  // Still parked, untouched; Alice's own door and an admin's see and settle it.
  expect((await alice.client.experimental.tasks.getTask(taskId)).status).toBe('input_required');
  const root = await connectAs('root');
  expect((await root.client.experimental.tasks.getTask(taskId)).status).toBe('input_required');
  const stopped = (await alice.client.callTool({
    name: 'deputy_stop',
    arguments: { delegationId: taskId },
  })) as CallToolResult;
  expect(stopped.isError).toBeFalsy();
  const state = await harness.delegations.get(taskId);
  expect(state.decidedCards[0]?.state.status).toBe('denied');
});

it("refuses one user's MCP session to another user's token, as if it did not exist", async () => {
  const alice = await connectAs('alice');
  const sessionId = alice.transport.sessionId;
  expect(sessionId).toBeTruthy();
  const response = await fetch(`${server.url}/mcp`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      authorization: `Bearer ${TOKENS.bob}`,
      'mcp-session-id': sessionId!,
      'mcp-protocol-version': alice.transport.protocolVersion ?? '2025-06-18',
    },
    body: JSON.stringify({ jsonrpc: '2.0', id: 9, method: 'tools/list' }),
  });
  expect(response.status).toBe(404);
  // Alice's session is unharmed.
  expect((await alice.client.listTools()).tools.length).toBeGreaterThan(0);
});

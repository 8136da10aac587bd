/**
 * deputy as an MCP server, driven by the MCP SDK's own client over both doors:
 * stdio (a real `deputy mcp serve` child process) and Streamable HTTP (the API's `/mcp`), on the
 * global Temporal dev server with a real worker. The `demo` agent runs on the scripted model (it
 * writes hello.txt, which parks on a write card): the model is scripted, the rest is real.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  CallToolResultSchema,
  CreateTaskResultSchema,
  ToolListChangedNotificationSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localOperatorId } from '../../src/local-operator.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';
import {
  connectDoor,
  type DoorClientOptions,
  type DoorTransport,
} from './support/mcp-door-clients.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

let harness: Harness;
let server: ApiServer;
const clients: Client[] = [];

beforeAll(async () => {
  harness = await createHarness({ 'README.md': '# MCP door workspace\n' });
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    { delegations: harness.delegations, definitions: harness.registry, localSocket: false },
  );
});

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close().catch(() => undefined)));
  await server?.close();
  await harness?.close();
});

async function connect(transport: DoorTransport, options: DoorClientOptions = {}): Promise<Client> {
  const client = await connectDoor(transport, harness, { apiUrl: server.url, ...options });
  clients.push(client);
  return client;
}

/** Starts `demo` as an MCP task (the client's own tools/call with a task) and returns its id. */
async function startTask(
  client: Client,
  task = `Greet ${randomUUID().slice(0, 8)}`,
): Promise<string> {
  const created = await client.request(
    { method: 'tools/call', params: { name: 'demo', arguments: { task }, task: { ttl: 600_000 } } },
    CreateTaskResultSchema,
  );
  expect(created.task.taskId).toMatch(/^d-/);
  return created.task.taskId;
}

async function untilStatus(client: Client, taskId: string, status: string) {
  return eventually(async () => {
    const task = await client.experimental.tasks.getTask(taskId);
    return task.status === status ? task : undefined;
  }, `task ${taskId} ${status}`);
}

async function pendingCard(delegationId: string): Promise<ApprovalCard> {
  return eventually(async () => {
    const state = await harness.delegations.get(delegationId);
    return state.pendingCards[0];
  }, `a pending card on ${delegationId}`);
}

function structured(result: CallToolResult): Record<string, unknown> {
  return (result.structuredContent ?? {}) as Record<string, unknown>;
}

function text(result: CallToolResult): string {
  const first = result.content[0];
  return first?.type === 'text' ? first.text : '';
}

describe.each<DoorTransport>(['stdio', 'http'])('the MCP door over %s', (transport) => {
  it('lists one tool per agent, with its description, and the deputy tools', async () => {
    const client = await connect(transport);
    const { tools } = await client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'demo',
        'deputy_status',
        'deputy_result',
        'deputy_cards',
        'deputy_decide',
        'deputy_stop',
        'deputy_list',
      ]),
    );
    const demo = tools.find((tool) => tool.name === 'demo');
    expect(demo?.description).toBe(harness.registry.get('demo')?.definition.description);
    expect(demo?.execution?.taskSupport).toBe('optional');
    expect(demo?.inputSchema.required).toEqual(['task']);
  });

  it('runs an agent as a task: input_required while parked, decided with deputy_decide, then its result', async () => {
    const client = await connect(transport);
    const taskId = await startTask(client);
    const parked = await untilStatus(client, taskId, 'input_required');
    expect(parked.statusMessage).toContain(`${taskId}.1 (write)`);
    const card = await pendingCard(taskId);

    const decided = await client.callTool({
      name: 'deputy_decide',
      arguments: { cardId: card.id, decision: 'approve' },
    });
    expect(decided.isError).toBeFalsy();
    await untilStatus(client, taskId, 'completed');
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(structured(result)).toMatchObject({
      delegationId: taskId,
      status: 'completed',
      agent: 'demo',
    });
    expect(text(result)).toContain('hello.txt');
    expect(existsSync(join(harness.workspace, 'hello.txt'))).toBe(true);
    const state = await harness.delegations.get(taskId);
    expect(state.decidedCards[0]?.state).toMatchObject({
      status: 'approved',
      decidedBy: transport === 'stdio' ? localOperatorId() : null,
    });
    // The same task is listed, for the same caller, from a new connection.
    const again = await connect(transport);
    const { tasks } = await again.experimental.tasks.listTasks();
    expect(tasks.find((task) => task.taskId === taskId)?.status).toBe('completed');
  });

  it('asks the host by elicitation and goes on with its answer (a blocking call)', async () => {
    const asked: string[] = [];
    const client = await connect(transport, {
      elicit: async (request) => {
        asked.push(request.params.message);
        return { action: 'accept', content: { decision: 'approve' } };
      },
    });
    const progress: string[] = [];
    const result = (await client.callTool(
      { name: 'demo', arguments: { task: 'Greet by elicitation' } },
      undefined,
      { onprogress: (update) => progress.push(update.message ?? '') },
    )) as CallToolResult;
    expect(structured(result)).toMatchObject({ status: 'completed' });
    expect(asked).toHaveLength(1);
    expect(asked[0]).toMatch(/asks to run write/);
    // A blocking call says where it stands: started, then waiting on the card it asked about.
    const delegationId = structured(result).delegationId as string;
    expect(progress[0]).toBe(`delegation ${delegationId} started`);
    expect(progress).toContainEqual(expect.stringContaining(`${delegationId}.1 (write)`));
  });

  it('takes a richer answer by elicitation: a person’s text in the tool’s place', async () => {
    const client = await connect(transport, {
      elicit: async () => ({
        action: 'accept',
        content: { decision: 'answer', answer: 'hello.txt already says hi' },
      }),
    });
    const result = (await client.callTool({
      name: 'demo',
      arguments: { task: 'Greet, answered by a person' },
    })) as CallToolResult;
    expect(structured(result)).toMatchObject({ status: 'completed' });
    const state = await harness.delegations.get(structured(result).delegationId as string);
    expect(state.decidedCards[0]?.state).toMatchObject({
      status: 'answered',
      answer: 'hello.txt already says hi',
    });
  });

  it('asks by elicitation within a task, and a denial reaches the agent', async () => {
    const client = await connect(transport, {
      elicit: async () => ({
        action: 'accept',
        content: { decision: 'deny', reason: 'not today' },
      }),
    });
    let result: CallToolResult | undefined;
    let taskId: string | undefined;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'demo', arguments: { task: 'Greet, then be denied' } },
      CallToolResultSchema,
      { task: { ttl: 600_000 } },
    )) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      if (message.type === 'result') result = message.result as CallToolResult;
      if (message.type === 'error') throw message.error;
    }
    expect(taskId).toMatch(/^d-/);
    expect(structured(result!)).toMatchObject({ delegationId: taskId, status: 'completed' });
    expect(structured(result!).deniedCalls).toEqual([expect.objectContaining({ tool: 'write' })]);
    const state = await harness.delegations.get(taskId!);
    expect(state.decidedCards[0]?.state).toMatchObject({ status: 'denied', reason: 'not today' });
  });

  it('a card decided through the HTTP API first wins: the host’s question closes, deputy_decide is refused', async () => {
    let asked: (message: string) => void = () => {};
    const question = new Promise<string>((resolve) => (asked = resolve));
    let closed: (reason: unknown) => void = () => {};
    const questionClosed = new Promise((resolve) => (closed = resolve));
    const client = await connect(transport, {
      // Never answers: the card is decided elsewhere while the host still shows the question.
      elicit: (request, extra) =>
        new Promise((_resolve, reject) => {
          extra.signal.addEventListener('abort', () => {
            closed(extra.signal.reason);
            reject(new Error('closed'));
          });
          asked(request.params.message);
        }),
    });
    const call = client.callTool({ name: 'demo', arguments: { task: 'Greet, decided elsewhere' } });
    const cardId = /Card (d-[a-z0-9]+\.\d+)/.exec(await question)?.[1];
    expect(cardId).toBeDefined();
    const response = await fetch(`${server.url}/cards/${cardId}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'approve' }),
    });
    expect(response.status).toBe(200);
    await questionClosed;
    const result = (await call) as CallToolResult;
    expect(structured(result)).toMatchObject({ status: 'completed' });
    const late = (await client.callTool({
      name: 'deputy_decide',
      arguments: { cardId, decision: 'deny' },
    })) as CallToolResult;
    expect(late.isError).toBe(true);
    expect(text(late)).toMatch(/already/);
    const state = await harness.delegations.get(result.structuredContent!.delegationId as string);
    expect(state.decidedCards).toHaveLength(1);
    expect(state.decidedCards[0]?.state.status).toBe('approved');
  });

  it('answers at once in the background, and deputy_result waits for the end', async () => {
    const client = await connect(transport);
    const started = (await client.callTool({
      name: 'demo',
      arguments: { task: 'Greet in the background', background: true },
    })) as CallToolResult;
    const delegationId = structured(started).delegationId as string;
    expect(delegationId).toMatch(/^d-/);
    expect(structured(started).status).not.toBe('completed');
    // Without elicitation a waiting deputy_result answers with the card, to be decided here.
    const parked = (await client.callTool({
      name: 'deputy_result',
      arguments: { delegationId, wait: true },
    })) as CallToolResult;
    expect(structured(parked)).toMatchObject({
      status: 'parked',
      pendingCards: [expect.objectContaining({ id: `${delegationId}.1`, tool: 'write' })],
    });
    await client.callTool({
      name: 'deputy_decide',
      arguments: { cardId: `${delegationId}.1`, decision: 'deny', reason: 'no greetings' },
    });
    const done = (await client.callTool({
      name: 'deputy_result',
      arguments: { delegationId, wait: true },
    })) as CallToolResult;
    expect(structured(done)).toMatchObject({ delegationId, status: 'completed' });
    expect(structured(done).deniedCalls).toEqual([
      expect.objectContaining({ tool: 'write', reason: expect.stringContaining('no greetings') }),
    ]);
  });

  it('runs at the caller’s mode when it is stricter, and says so in the answer', async () => {
    const client = await connect(transport);
    const result = (await client.callTool({
      name: 'demo',
      arguments: { task: 'Greet, in plan mode', mode: 'plan' },
    })) as CallToolResult;
    // Plan mode denies the write at once: no card, and the model hears why.
    expect(structured(result)).toMatchObject({
      status: 'completed',
      pendingCards: [],
      permission: { callerMode: 'plan', capped: true, policyFlags: { readOnly: true } },
    });
    expect(structured(result).deniedCalls).toEqual([
      expect.objectContaining({ tool: 'write', reason: expect.stringMatching(/plan mode/) }),
    ]);
    expect(text(result)).toMatch(/\[ran at .*plan/);
  });

  it('tells the host when the agent list changes (tools/list_changed)', async () => {
    const client = await connect(transport);
    let changed: () => void = () => {};
    const notified = new Promise<void>((resolve) => (changed = resolve));
    client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
    const name = `extra-${randomUUID().slice(0, 8)}`;
    await mkdir(join(harness.workspace, '.subagents/agents'), { recursive: true });
    await writeFile(
      join(harness.workspace, `.subagents/agents/${name}.md`),
      `---\nname: ${name}\ndescription: an agent added while the host was connected\nmodel: scripted:scripts/${name}.yaml\ntools: [read]\n---\nYou help.\n`,
    );
    // `deputy mcp serve` watches the files itself; the API's registry is the harness's, which
    // does not watch, so it is told (as the API's own watcher would).
    if (transport === 'http') await harness.registry.reload();
    await notified;
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === name)?.description).toBe(
      'an agent added while the host was connected',
    );
  });

  it('cancelling a task stops the delegation and denies its pending card', async () => {
    const client = await connect(transport);
    const taskId = await startTask(client);
    await untilStatus(client, taskId, 'input_required');
    const cancelled = await client.experimental.tasks.cancelTask(taskId);
    expect(cancelled.status).toBe('cancelled');
    const state = await eventually(async () => {
      const current = await harness.delegations.get(taskId);
      return current.status === 'stopped' && current.partial === undefined ? current : undefined;
    }, 'the stopped delegation');
    expect(state.pendingCards).toEqual([]);
    expect(state.decidedCards[0]?.state.status).toBe('denied');
  });

  it('a parked task survives the worker and the door restarting, and its result is fetched afterwards', async () => {
    const first = await connect(transport);
    const taskId = await startTask(first);
    await untilStatus(first, taskId, 'input_required');
    // Read while a worker answers: without one, the state comes from visibility, which holds no cards.
    const card = await pendingCard(taskId);
    await first.close();
    await harness.stopWorker();
    try {
      // A new door process (stdio) or session (HTTP) with no worker running finds the same task.
      const second = await connect(transport);
      expect((await second.experimental.tasks.getTask(taskId)).status).toBe('input_required');
      const decided = (await second.callTool({
        name: 'deputy_decide',
        arguments: { cardId: card.id, decision: 'approve' },
      })) as CallToolResult;
      expect(decided.isError).toBeFalsy();
    } finally {
      await harness.startWorker();
    }
    const third = await connect(transport);
    await untilStatus(third, taskId, 'completed');
    const result = await third.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(structured(result)).toMatchObject({ delegationId: taskId, status: 'completed' });
  });
});

describe('deputy mcp serve --mode', () => {
  it('is a ceiling over every call: a call asking for more still runs at the ceiling', async () => {
    const client = await connect('stdio', { serveArgs: ['--mode', 'plan'] });
    const result = (await client.callTool({
      name: 'demo',
      arguments: { task: 'Greet, asking for everything', mode: 'bypassPermissions' },
    })) as CallToolResult;
    expect(structured(result)).toMatchObject({
      status: 'completed',
      permission: { callerMode: 'plan', capped: true },
    });
    expect(structured(result).deniedCalls).toEqual([expect.objectContaining({ tool: 'write' })]);
  });
});

describe('/mcp behind the API’s guards', () => {
  it('refuses a cross-site request before MCP sees it', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        origin: 'http://evil.example',
      },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'x', version: '1' },
        },
      }),
    });
    expect(response.status).toBe(403);
  });

  it('answers a request in an unknown session 404, so the host initializes again', async () => {
    const response = await fetch(`${server.url}/mcp`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': randomUUID(),
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
  });
});

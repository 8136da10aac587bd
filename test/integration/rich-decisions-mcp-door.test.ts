/**
 * Richer decisions through the MCP door: deputy_decide's schema offers answer, allow
 * and arguments, and an answer given there stands in for the tool, as through every other door.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { connectDoor } from './support/mcp-door-clients.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

let harness: Harness;
let server: ApiServer;
let client: Client | null = null;

beforeAll(async () => {
  harness = await createHarness({ 'README.md': '# MCP door workspace\n' });
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    { delegations: harness.delegations, definitions: harness.registry, localSocket: false },
  );
  client = await connectDoor('http', harness, { apiUrl: server.url });
}, 60_000);

afterAll(async () => {
  await client?.close().catch(() => undefined);
  await server?.close();
  await harness?.close();
});

describe('deputy_decide with the richer decisions', () => {
  it('offers answer, allow and arguments, and answers a card in the tool’s place', async () => {
    const door = client!;
    const { tools } = await door.listTools();
    const decide = tools.find((tool) => tool.name === 'deputy_decide');
    expect(Object.keys(decide?.inputSchema.properties ?? {})).toEqual(
      expect.arrayContaining(['cardId', 'decision', 'reason', 'answer', 'allow', 'arguments']),
    );

    const created = await door.request(
      {
        method: 'tools/call',
        params: {
          name: 'demo',
          arguments: { task: `Greet ${randomUUID().slice(0, 8)}` },
          task: { ttl: 600_000 },
        },
      },
      CreateTaskResultSchema,
    );
    const taskId = created.task.taskId;
    const card = await eventually(async () => {
      const state = await harness.delegations.get(taskId);
      return state.pendingCards[0];
    }, `a pending card on ${taskId}`);

    const decided = await door.callTool({
      name: 'deputy_decide',
      arguments: { cardId: card.id, decision: 'answer', answer: 'no greeting today' },
    });
    expect(decided.isError).toBeFalsy();
    const state = await eventually(async () => {
      const current = await harness.delegations.get(taskId);
      return current.result ? current : undefined;
    }, `task ${taskId} to finish`);
    expect(state.decidedCards[0]?.state).toMatchObject({
      status: 'answered',
      answer: 'no greeting today',
    });
    expect(existsSync(join(harness.workspace, 'hello.txt'))).toBe(false);

    // A malformed decision is the tool's error, not a decision.
    const malformed = await door.callTool({
      name: 'deputy_decide',
      arguments: { cardId: card.id, decision: 'deny', answer: 'x' },
    });
    expect(malformed.isError).toBe(true);
    expect(JSON.stringify(malformed.content)).toContain("answer goes with decision 'answer'");
  }, 120_000);
});

/**
 * Richer decisions on an MCP call, with the real fixture MCP server over stdio on the
 * dev server: an edit may change the call's arguments, never its server or tool (422, the card
 * stays pending); an accepted edit reaches the server; approving for the rest covers the same
 * tool of the same server without a card.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import type { DelegationState } from '../../src/shared/delegation.js';
import { stdioFixtureCommand } from '../fixtures/mcp/start.js';
import { timedRequest } from './support/app-request.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

const fixture = stdioFixtureCommand();

let harness: Harness;
let app: ReturnType<typeof createApp>;

beforeAll(async () => {
  harness = await createHarness(
    {
      '.subagents/config.yaml': `mcpServers:
  fixture:
    transport: stdio
    command: ${JSON.stringify(fixture.command)}
    args: ${JSON.stringify(fixture.args)}
    approve: [whoami]
`,
      '.subagents/agents/caller.md': `---
name: caller
description: calls an MCP tool twice
model: scripted:scripts/caller.yaml
tools: [read]
mcpServers: [fixture]
---
Call.
`,
      'scripts/caller.yaml': `turns:
  - text: Echoing.
    toolCalls: [{ name: mcp_call, arguments: { server: fixture, tool: echo, arguments: { text: first } } }]
  - text: "first: \${lastToolResult}"
    toolCalls: [{ name: mcp_call, arguments: { server: fixture, tool: echo, arguments: { text: second } } }]
  - text: "second: \${lastToolResult}"
`,
    },
    { mcp: true },
  );
  app = createApp({
    delegations: harness.delegations,
    config: harness.config,
    auth: createAuth({}),
  });
}, 120_000);

afterAll(async () => {
  await harness?.close();
});

async function state(delegationId: string): Promise<DelegationState> {
  return (await timedRequest(app, 'GET', `/delegations/${delegationId}`))
    .body as unknown as DelegationState;
}

describe('richer decisions on an MCP call', () => {
  it('refuses an edit to another tool or server, runs an edit of its arguments, and a grant covers the next call', async () => {
    const started = await timedRequest(app, 'POST', '/delegations?wait=true', {
      agent: 'caller',
      task: 'Echo',
      session: `rdm-${randomUUID().slice(0, 8)}`,
    });
    expect(started.status, JSON.stringify(started.body)).toBe(202);
    const delegationId = started.body.delegationId as string;
    const card = (started.body.state as DelegationState).pendingCards[0]!;
    expect(card).toMatchObject({
      tool: 'mcp_call',
      arguments: { server: 'fixture', tool: 'echo' },
    });

    for (const widened of [
      { server: 'fixture', tool: 'whoami', arguments: {} },
      { server: 'other', tool: 'echo', arguments: { text: 'x' } },
    ]) {
      const refused = await timedRequest(app, 'POST', `/cards/${card.id}`, {
        decision: 'approve',
        arguments: widened,
      });
      expect(refused.status, JSON.stringify(refused.body)).toBe(422);
      expect(refused.body.message).toMatch(
        /cannot change the MCP tool: it must stay fixture\/echo/,
      );
    }
    expect((await state(delegationId)).pendingCards.map((pending) => pending.id)).toEqual([
      card.id,
    ]);

    const approved = await timedRequest(app, 'POST', `/cards/${card.id}`, {
      decision: 'approve',
      allow: 'delegation',
      arguments: { server: 'fixture', tool: 'echo', arguments: { text: 'edited by a person' } },
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ state: { status: 'approved', grant: 1 } });

    const done = await eventually(
      async () => {
        const current = await state(delegationId);
        return current.result ? current : undefined;
      },
      'the delegation to finish',
      90_000,
    );
    // The edit reached the server; the second call ran under the grant, without a card.
    expect(done.result!.text).toContain('second:');
    expect(done.result!.text).toBe('second: second');
    const calls = (await harness.delegations.events(delegationId, 0)).filter(
      (event) => event.type === 'tool-call',
    );
    // What ran: the edited arguments, told to the model before the server's own answer.
    expect(calls).toMatchObject([
      {
        verdict: 'ask:approved',
        arguments: expect.stringContaining('edited by a person'),
        summary: expect.stringMatching(/^\[tool 'mcp_call' ran with arguments edited by a person/),
      },
      { verdict: 'allow:grant-1', arguments: expect.stringContaining('second') },
    ]);
    expect(done.decidedCards).toHaveLength(1);
    expect(done.grants).toMatchObject([
      { n: 1, tool: 'mcp_call', scope: { kind: 'mcp', target: 'fixture/echo' } },
    ]);
  }, 180_000);
});

/**
 * A door's ceiling caps its decisions as it caps its runs. A run started elsewhere (through the
 * facade the API and the CLI use, with no ceiling) parks on a read card outside the workspace,
 * a write card and a bash card; an MCP door serving under each permission mode decides them with
 * deputy_decide. Under `plan` it may approve the read but neither approve, answer, edit nor grant
 * the write or the bash, and may deny both; under `dontAsk` it may approve nothing; under
 * `default` and `acceptEdits` it decides as any door does. The real `deputy mcp serve --mode
 * plan` is held to the same rule. Real Temporal, a real worker, real files, the MCP SDK's client.
 */
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localOperator } from '../../src/local-operator.js';
import { createMcpDoor, type McpDoor } from '../../src/mcp-door/door.js';
import { createSecretMasker } from '../../src/secrets/masker.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';
import type { PermissionMode } from '../../src/shared/policy-contract.js';
import { connectDoor } from './support/mcp-door-clients.js';
import { pendingCard } from './support/mcp-delegations.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

const outside = mkdtempSync(join(tmpdir(), 'deputy-ceiling-outside-'));
const OUTSIDE_FILE = join(outside, 'notes.txt');
writeFileSync(OUTSIDE_FILE, 'notes from outside the workspace\n');

const files = {
  '.subagents/agents/changer.md': `---
name: changer
description: reads outside, writes and runs
model: scripted:scripts/changer.yaml
tools: [read, write, bash]
approvalMode: confirm
maxTurns: 8
---
Changer.
`,
  'scripts/changer.yaml': `turns:
  - text: Reading outside.
    toolCalls: [{ name: read, arguments: { path: ${JSON.stringify(OUTSIDE_FILE)} } }]
  - text: Writing.
    toolCalls: [{ name: write, arguments: { path: out/changed.txt, content: "changed\\n" } }]
  - text: Running.
    toolCalls: [{ name: bash, arguments: { command: "echo ran > out/ran.txt" } }]
  - text: "Last: \${lastToolResult}"
`,
};

let harness: Harness;
const opened: Array<{ client: Client; door?: McpDoor }> = [];

beforeAll(async () => {
  harness = await createHarness(files);
}, 60_000);

afterAll(async () => {
  for (const { client, door } of opened) {
    await client.close().catch(() => undefined);
    await door?.close().catch(() => undefined);
  }
  await harness?.close();
});

/** An MCP door in this process serving under `mode`, as the local operator (an admin). */
async function doorUnder(mode: PermissionMode): Promise<Client> {
  const door = createMcpDoor(
    {
      delegations: harness.delegations,
      definitions: harness.registry,
      secrets: createSecretMasker([]),
      callerMode: mode,
      pollMs: 100,
    },
    localOperator(),
  );
  const [hostSide, doorSide] = InMemoryTransport.createLinkedPair();
  await door.server.connect(doorSide);
  const client = new Client({ name: `host-under-${mode}`, version: '1.0.0' });
  await client.connect(hostSide);
  opened.push({ client, door });
  return client;
}

/** A run started elsewhere, with no ceiling: the door did not start it. */
async function startedElsewhere(session: string): Promise<string> {
  const handle = await harness.start('changer', 'Read, change and run', { session });
  return handle.workflowId.split('/').at(-1)!;
}

async function decide(
  client: Client,
  card: ApprovalCard,
  decision: Record<string, unknown>,
): Promise<CallToolResult> {
  return (await client.callTool({
    name: 'deputy_decide',
    arguments: { cardId: card.id, ...decision },
  })) as CallToolResult;
}

function text(result: CallToolResult): string {
  return result.content.map((part) => (part.type === 'text' ? part.text : '')).join('\n');
}

/** The next card after `previous` was settled. */
function nextCard(id: string, previous: ApprovalCard): Promise<ApprovalCard> {
  return eventually(async () => {
    const state = await harness.delegations.get(id);
    const card = state.pendingCards[0];
    return card !== undefined && card.id !== previous.id ? card : undefined;
  }, `the card after ${previous.id}`);
}

/** Each decision is refused with the door's reason, and the card is still pending after it. */
async function refusedAll(
  client: Client,
  id: string,
  card: ApprovalCard,
  mode: PermissionMode,
  decisions: Array<Record<string, unknown>>,
): Promise<void> {
  for (const decision of decisions) {
    const answer = await decide(client, card, decision);
    expect(answer.isError, JSON.stringify(decision)).toBe(true);
    expect(text(answer)).toContain(`this door serves under permission mode ${mode}`);
    expect(text(answer)).toContain('it may only deny it');
  }
  const state = await harness.delegations.get(id);
  expect(state.pendingCards.map((pending) => pending.id)).toEqual([card.id]);
  expect(state.grants ?? []).toEqual([]);
}

const BEYOND_PLAN = [
  { decision: 'approve' },
  { decision: 'approve', allow: 'delegation' },
  { decision: 'approve', allow: 'session' },
  { decision: 'answer', answer: 'pretend it ran' },
];

async function finished(id: string) {
  return eventually(async () => {
    const state = await harness.delegations.get(id);
    return state.result === null ? undefined : state;
  }, `delegation ${id} to finish`);
}

describe("an MCP door's ceiling caps its decisions", () => {
  it('plan: approves the read, refuses every approval, answer, edit and grant of the write and bash, denies both', async () => {
    const door = await doorUnder('plan');
    const id = await startedElsewhere('ceiling-plan');
    const read = await pendingCard(harness.delegations, id);
    expect(read.tool).toBe('read');
    const readApproved = await decide(door, read, { decision: 'approve' });
    expect(readApproved.isError, text(readApproved)).toBeFalsy();

    const write = await nextCard(id, read);
    expect(write.tool).toBe('write');
    await refusedAll(door, id, write, 'plan', [
      ...BEYOND_PLAN,
      {
        decision: 'approve',
        arguments: { path: 'out/changed.txt', content: 'edited\n' },
      },
    ]);
    expect(text(await decide(door, write, { decision: 'approve' }))).toContain(
      "'write' is a tool of class write",
    );
    const writeDenied = await decide(door, write, { decision: 'deny', reason: 'plan only' });
    expect(writeDenied.isError, text(writeDenied)).toBeFalsy();

    const bash = await nextCard(id, write);
    expect(bash.tool).toBe('bash');
    await refusedAll(door, id, bash, 'plan', BEYOND_PLAN);
    const bashDenied = await decide(door, bash, { decision: 'deny', reason: 'plan only' });
    expect(bashDenied.isError, text(bashDenied)).toBeFalsy();

    const state = await finished(id);
    expect(state.decidedCards.map((card) => [card.tool, card.state.status])).toEqual([
      ['read', 'approved'],
      ['write', 'denied'],
      ['bash', 'denied'],
    ]);
    expect(state.grants ?? []).toEqual([]);
    expect(existsSync(join(harness.workspace, 'out/changed.txt'))).toBe(false);
    expect(existsSync(join(harness.workspace, 'out/ran.txt'))).toBe(false);
  }, 120_000);

  it('dontAsk: approves nothing, not even the read, and denies', async () => {
    const door = await doorUnder('dontAsk');
    const id = await startedElsewhere('ceiling-dont-ask');
    const read = await pendingCard(harness.delegations, id);
    await refusedAll(door, id, read, 'dontAsk', BEYOND_PLAN);
    expect(text(await decide(door, read, { decision: 'approve' }))).toContain(
      'it denies every call that would ask a person',
    );
    expect((await decide(door, read, { decision: 'deny' })).isError).toBeFalsy();
    const write = await nextCard(id, read);
    await refusedAll(door, id, write, 'dontAsk', BEYOND_PLAN);
    expect((await decide(door, write, { decision: 'deny' })).isError).toBeFalsy();
    const bash = await nextCard(id, write);
    await refusedAll(door, id, bash, 'dontAsk', BEYOND_PLAN);
    expect((await decide(door, bash, { decision: 'deny' })).isError).toBeFalsy();
    const state = await finished(id);
    expect(state.decidedCards.map((card) => card.state.status)).toEqual([
      'denied',
      'denied',
      'denied',
    ]);
    expect(existsSync(join(harness.workspace, 'out/changed.txt'))).toBe(false);
  }, 120_000);

  for (const mode of ['default', 'acceptEdits'] as const) {
    it(`${mode}: approves, grants and runs as any door does`, async () => {
      const door = await doorUnder(mode);
      const id = await startedElsewhere(`ceiling-${mode}`);
      const read = await pendingCard(harness.delegations, id);
      expect((await decide(door, read, { decision: 'approve' })).isError).toBeFalsy();
      const write = await nextCard(id, read);
      const granted = await decide(door, write, { decision: 'approve', allow: 'delegation' });
      expect(granted.isError, text(granted)).toBeFalsy();
      const bash = await nextCard(id, write);
      const ran = await decide(door, bash, { decision: 'approve' });
      expect(ran.isError, text(ran)).toBeFalsy();
      const state = await finished(id);
      expect(state.decidedCards.map((card) => card.state.status)).toEqual([
        'approved',
        'approved',
        'approved',
      ]);
      expect(state.grants?.map((grant) => grant.tool)).toEqual(['write']);
      expect(existsSync(join(harness.workspace, 'out/ran.txt'))).toBe(true);
    }, 120_000);
  }

  it('`deputy mcp serve --mode plan` refuses to approve a write of a run started elsewhere, and denies it', async () => {
    const client = await connectDoor('stdio', harness, { serveArgs: ['--mode', 'plan'] });
    opened.push({ client });
    const id = await startedElsewhere('ceiling-serve-plan');
    const read = await pendingCard(harness.delegations, id);
    await harness.delegations.decide(read.id, { decision: 'approve' });
    const write = await nextCard(id, read);
    await refusedAll(client, id, write, 'plan', [
      { decision: 'approve' },
      { decision: 'approve', allow: 'session' },
    ]);
    expect((await decide(client, write, { decision: 'deny' })).isError).toBeFalsy();
    const bash = await nextCard(id, write);
    await refusedAll(client, id, bash, 'plan', [{ decision: 'approve', allow: 'delegation' }]);
    await harness.delegations.stop(id);
  }, 120_000);
});

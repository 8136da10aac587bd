/**
 * What a person writes into a decision is masked before it reaches the run: a configured secret
 * typed into a deny reason, an answer in the tool's place or edited arguments, through the HTTP
 * API, its MCP door and the CLI, shows in neither the workflow's history nor the model's next
 * input (the scripted model repeats `${lastToolResult}`) nor the file the edited call wrote. The
 * facades are composed as `deputy dev` composes them (facadesFor with the API's masker); the CLI
 * is the real `deputy deny` child process. Real Temporal, a real worker, real HTTP on loopback.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixedConfig } from '../../src/config/live-config.js';
import { definitionSecretSource } from '../../src/secrets/definition-secrets.js';
import { liveSecretMasker } from '../../src/secrets/live-masker.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import type { DelegationState } from '../../src/shared/delegation.js';
import { facadesFor } from '../../src/temporal/facades.js';
import type { Delegations } from '../../src/temporal/delegations/types.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { connectDoor, serveEnv } from './support/mcp-door-clients.js';
import { pendingCard } from './support/mcp-delegations.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

/** Random and shaped like no token format: only the configured-value masker can catch it. */
const SECRET = `decision-secret-${randomBytes(9).toString('hex')}`;
const VARIABLE = `DEPUTY_DECISION_SECRET_${randomUUID().slice(0, 8).toUpperCase()}`;

const files = {
  '.subagents/config.yaml': `models:
  catalog:
    keyed/remote:
      provider: openai
      model: keyed-model
      baseUrl: http://127.0.0.1:9/v1
      apiKeyEnv: ${VARIABLE}
`,
  '.subagents/agents/writer.md': `---
name: writer
description: asks to write one file
model: scripted:scripts/writer.yaml
tools: [write]
approvalMode: confirm
maxTurns: 4
---
Writer.
`,
  'scripts/writer.yaml': `turns:
  - text: Writing.
    toolCalls: [{ name: write, arguments: { path: out/note.txt, content: "plain\\n" } }]
  - text: "Last: \${lastToolResult}"
`,
};

let harness: Harness;
let api: ApiServer;
let delegations: Delegations;

beforeAll(async () => {
  process.env[VARIABLE] = SECRET;
  harness = await createHarness(files);
  // As `deputy dev` composes them: the facades get the masker the API masks its answers with.
  const secrets = liveSecretMasker(
    fixedConfig(harness.config),
    process.env,
    definitionSecretSource(harness.registry),
  );
  delegations = facadesFor(
    harness.client,
    { ...harness.config.temporal, taskQueue: harness.taskQueue },
    secrets,
  ).delegations;
  api = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    { delegations, definitions: harness.registry, localSocket: false },
  );
}, 60_000);

afterAll(async () => {
  await api?.close();
  await harness?.close();
  delete process.env[VARIABLE];
});

async function parked(
  session: string,
): Promise<{ id: string; workflowId: string; cardId: string }> {
  const handle = await harness.start('writer', 'Write the note', { session });
  const id = handle.workflowId.split('/').at(-1)!;
  const card = await pendingCard(harness.delegations, id);
  return { id, workflowId: handle.workflowId, cardId: card.id };
}

async function decideOverHttp(cardId: string, body: Record<string, unknown>): Promise<number> {
  const response = await fetch(`${api.url}/cards/${encodeURIComponent(cardId)}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  await response.text();
  return response.status;
}

/** Every string and byte payload of the run's history, as one text. */
async function historyText(workflowId: string): Promise<string> {
  const parts: string[] = [];
  const collect = (value: unknown, seen: Set<object>): void => {
    if (typeof value === 'string') parts.push(value);
    else if (value instanceof Uint8Array) parts.push(Buffer.from(value).toString('utf8'));
    else if (typeof value === 'object' && value !== null && !seen.has(value)) {
      seen.add(value);
      for (const item of Object.values(value)) collect(item, seen);
    }
  };
  collect(await harness.client.workflow.getHandle(workflowId).fetchHistory(), new Set());
  return parts.join('\n');
}

function finished(id: string): Promise<DelegationState> {
  return eventually(async () => {
    const state = await harness.delegations.get(id);
    return state.result === null ? undefined : state;
  }, `delegation ${id} to finish`);
}

/** The run's history and its model's last input hold the masked text, never the secret. */
async function expectMasked(run: { id: string; workflowId: string }): Promise<DelegationState> {
  const state = await finished(run.id);
  expect(state.result?.text).not.toContain(SECRET);
  const history = await historyText(run.workflowId);
  expect(history).not.toContain(SECRET);
  expect(history).toContain('__redacted__');
  return state;
}

describe('a secret typed into a decision', () => {
  it('is masked in a deny reason sent through the HTTP API', async () => {
    const run = await parked('mask-deny');
    expect(await decideOverHttp(run.cardId, { decision: 'deny', reason: `key is ${SECRET}` })).toBe(
      200,
    );
    const state = await expectMasked(run);
    expect(state.result?.text).toContain('key is __redacted__');
  }, 60_000);

  it("is masked in an answer in the tool's place sent through the HTTP API", async () => {
    const run = await parked('mask-answer');
    expect(await decideOverHttp(run.cardId, { decision: 'answer', answer: `took ${SECRET}` })).toBe(
      200,
    );
    const state = await expectMasked(run);
    expect(state.result?.text).toContain('took __redacted__');
  }, 60_000);

  it('is masked in edited arguments: the call runs with the masked text', async () => {
    const run = await parked('mask-edit');
    const status = await decideOverHttp(run.cardId, {
      decision: 'approve',
      arguments: { path: 'out/note.txt', content: `token=${SECRET}\n` },
    });
    expect(status).toBe(200);
    await expectMasked(run);
    expect(readFileSync(join(harness.workspace, 'out/note.txt'), 'utf8')).toBe(
      'token=__redacted__\n',
    );
  }, 60_000);

  it("is masked in a reason given to the API's MCP door (deputy_decide)", async () => {
    const client = await connectDoor('http', harness, { apiUrl: api.url });
    try {
      const run = await parked('mask-mcp');
      const decided = (await client.callTool({
        name: 'deputy_decide',
        arguments: { cardId: run.cardId, decision: 'deny', reason: `mcp ${SECRET}` },
      })) as CallToolResult;
      expect(decided.isError).toBeFalsy();
      const state = await expectMasked(run);
      expect(state.result?.text).toContain('mcp __redacted__');
    } finally {
      await client.close();
    }
  }, 60_000);

  it('is masked in a reason given to `deputy deny` (the CLI, straight to Temporal)', async () => {
    const run = await parked('mask-cli');
    const denied = await runDeputy(['deny', run.cardId, '--reason', `cli ${SECRET}`], {
      env: { ...serveEnv(harness), [VARIABLE]: SECRET },
      cwd: harness.workspace,
    });
    expect(denied.code, denied.stderr).toBe(0);
    const state = await expectMasked(run);
    expect(state.result?.text).toContain('cli __redacted__');
  }, 60_000);
});

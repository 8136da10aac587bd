/**
 * Richer card decisions (issue 30, POL-2) on the real dev server: answer in the tool's place,
 * through the API, the typed client and the CLI. The scripted agent echoes the result it got,
 * so each test reads back what the model was told.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeputyClient } from '../../src/client/deputy-client.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { freePort } from '../../src/servers/dev/dev-server.js';
import type { ApprovalCard, DelegationState } from '../../src/shared/delegation.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import { jsonCaller } from './support/app-request.js';
import { echoAgent } from './support/rich-decision-agents.js';

let harness: Harness;
let server: ApiServer;
let baseUrl = '';
const call = jsonCaller(() => baseUrl);

beforeAll(async () => {
  harness = await createHarness(echoAgent);
  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port } },
    { delegations: harness.delegations, definitions: harness.registry },
  );
}, 60_000);

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

/** Starts the echo agent and returns its first pending card once it parks. */
async function parked(): Promise<{ delegationId: string; card: ApprovalCard }> {
  const started = await call('POST', '/delegations?wait=true', {
    agent: 'echo',
    task: 'Write the note',
    session: `rd-${randomUUID().slice(0, 8)}`,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const [card] = (started.body.state as DelegationState).pendingCards;
  expect(card).toMatchObject({ tool: 'write', arguments: { path: 'note.txt' } });
  return { delegationId: started.body.delegationId as string, card: card! };
}

async function finished(delegationId: string): Promise<DelegationState> {
  return eventually(
    async () => {
      const { body } = await call('GET', `/delegations/${delegationId}`);
      const state = body as unknown as DelegationState;
      return state.result ? state : undefined;
    },
    `delegation ${delegationId} to finish`,
    60_000,
  );
}

function cli(args: string[]) {
  return runDeputy(args, {
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: harness.address,
      DEPUTY_TASK_QUEUE: harness.taskQueue,
      DEPUTY_WORKSPACE: harness.workspace,
      DEPUTY_USER_DIR: join(harness.workspace, '.user-config'),
    },
    cwd: harness.workspace,
  });
}

/** The answer reached the model as the call's result, and the write never ran. */
async function expectAnswered(delegationId: string, cardId: string, text: string): Promise<void> {
  const state = await finished(delegationId);
  expect(state.result).toMatchObject({ status: 'completed', deniedCalls: [] });
  expect(state.result!.text).toContain("[tool 'write' did not run: a person");
  expect(state.result!.text).toContain(text);
  expect(state.decidedCards).toMatchObject([
    { id: cardId, state: { status: 'answered', answer: text, reason: null } },
  ]);
  expect(existsSync(join(harness.workspace, 'note.txt'))).toBe(false);
}

describe('answer in the tool’s place', () => {
  it('through the API: the text is the result, the tool does not run', async () => {
    const { delegationId, card } = await parked();
    const decided = await call('POST', `/cards/${card.id}`, {
      decision: 'answer',
      answer: 'The note exists already; skip it.',
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body).toMatchObject({
      id: card.id,
      state: { status: 'answered', answer: 'The note exists already; skip it.' },
    });
    await expectAnswered(delegationId, card.id, 'The note exists already; skip it.');
    // Decided once: a second decision meets the answer.
    const again = await call('POST', `/cards/${card.id}`, { decision: 'approve' });
    expect(again).toMatchObject({ status: 409, body: { error: 'conflict' } });
  }, 90_000);

  it('refuses a malformed answer (422) and leaves the card pending', async () => {
    const { delegationId, card } = await parked();
    for (const body of [
      { decision: 'answer' },
      { decision: 'answer', answer: '   ' },
      { decision: 'deny', answer: 'text' },
      { decision: 'answer', answer: 'x', allow: 'delegation' },
    ]) {
      const refused = await call('POST', `/cards/${card.id}`, body);
      expect(refused.status, JSON.stringify(body)).toBe(422);
    }
    const pending = await call('GET', `/delegations/${delegationId}`);
    expect((pending.body as unknown as DelegationState).pendingCards.map((c) => c.id)).toEqual([
      card.id,
    ]);
    await call('POST', `/delegations/${delegationId}/stop`);
  }, 90_000);

  it('through the typed client', async () => {
    const { delegationId, card } = await parked();
    const client = createDeputyClient({ url: baseUrl });
    const decided = await client.cards.decide(card.id, 'answer', { answer: 'from the client' });
    expect(decided).toMatchObject({ state: { status: 'answered', answer: 'from the client' } });
    await expectAnswered(delegationId, card.id, 'from the client');
  }, 90_000);

  it('through the CLI: deputy answer <card> <text>', async () => {
    const { delegationId, card } = await parked();
    const answered = await cli(['answer', card.id, 'from the shell']);
    expect(answered.code, answered.stderr).toBe(0);
    expect(answered.stdout).toContain(`card ${card.id} answered`);
    await expectAnswered(delegationId, card.id, 'from the shell');
  }, 90_000);
});

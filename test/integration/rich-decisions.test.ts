/**
 * Richer card decisions on the real dev server: answer in the tool's place,
 * through the API, the typed client and the CLI. The scripted agent echoes the result it got,
 * so each test reads back what the model was told.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDeputyClient } from '../../src/client/deputy-client.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { freePort } from '../../src/servers/dev/dev-server.js';
import type { ApprovalCard, DelegationState } from '../../src/shared/delegation.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import { jsonCaller } from './support/app-request.js';
import { echoAgent, listerAgent, repeatAgent } from './support/rich-decision-agents.js';

let harness: Harness;
let server: ApiServer;
let baseUrl = '';
const call = jsonCaller(() => baseUrl);

beforeAll(async () => {
  harness = await createHarness({ ...echoAgent, ...repeatAgent, ...listerAgent });
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

/** Starts an agent and returns its first pending card once it parks. */
async function parked(agent = 'echo'): Promise<{ delegationId: string; card: ApprovalCard }> {
  const started = await call('POST', '/delegations?wait=true', {
    agent,
    task: 'Write the note',
    session: `rd-${randomUUID().slice(0, 8)}`,
  });
  expect(started.status, JSON.stringify(started.body)).toBe(202);
  const [card] = (started.body.state as DelegationState).pendingCards;
  expect(card).toBeDefined();
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
  // The echo agent's own content never reached the file (other agents may write note.txt).
  expect(await noteContent()).not.toBe('noted\n');
}

async function noteContent(): Promise<string | null> {
  const path = join(harness.workspace, 'note.txt');
  return existsSync(path) ? readFile(path, 'utf8') : null;
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

/** The delegation's pending cards, once it has `count` of them (it parked again). */
async function pendingOf(delegationId: string, count = 1): Promise<DelegationState> {
  return eventually(
    async () => {
      const { body } = await call('GET', `/delegations/${delegationId}`);
      const state = body as unknown as DelegationState;
      return state.pendingCards.length >= count ? state : undefined;
    },
    `delegation ${delegationId} to park on a card`,
    60_000,
  );
}

describe('allow for the rest of the delegation', () => {
  it('covers the same tool on the same file, not another file; shown, revoked, then asks again', async () => {
    const { delegationId, card } = await parked('repeat');
    const approved = await call('POST', `/cards/${card.id}`, {
      decision: 'approve',
      allow: 'delegation',
    });
    expect(approved.status, JSON.stringify(approved.body)).toBe(200);
    expect(approved.body).toMatchObject({ state: { status: 'approved', grant: 1 } });

    // The second write of note.txt runs without a card; other.txt asks.
    const second = await pendingOf(delegationId);
    expect(second.pendingCards).toMatchObject([
      { tool: 'write', arguments: { path: 'other.txt' } },
    ]);
    expect(second.grants).toMatchObject([
      {
        n: 1,
        tool: 'write',
        scope: { kind: 'paths', paths: [join(harness.workspace, 'note.txt')] },
        cardId: card.id,
      },
    ]);
    const status = await cli(['status', delegationId]);
    expect(status.code, status.stderr).toBe(0);
    expect(status.stdout).toContain(`1. write ${join(harness.workspace, 'note.txt')}`);

    // Revoked through the CLI; the third write of note.txt asks again.
    const revoked = await cli(['revoke', delegationId, '1']);
    expect(revoked.code, revoked.stderr).toBe(0);
    expect(revoked.stdout).toContain(`grant 1 of ${delegationId} revoked`);
    const again = await call('DELETE', `/delegations/${delegationId}/grants/1`);
    expect(again.status).toBe(404);
    expect(await call('DELETE', `/delegations/${delegationId}/grants/9`)).toMatchObject({
      status: 404,
    });
    const otherCard = second.pendingCards[0]!;
    await call('POST', `/cards/${otherCard.id}`, { decision: 'approve' });
    const third = await eventually(
      async () => {
        const state = await pendingOf(delegationId);
        return state.pendingCards[0]?.id !== otherCard.id ? state : undefined;
      },
      'the third write to ask',
      60_000,
    );
    expect(third.pendingCards).toMatchObject([{ arguments: { path: 'note.txt' } }]);
    expect(third.grants).toMatchObject([{ n: 1, revoked: { by: expect.stringMatching(/^cli:/) } }]);
    await call('POST', `/cards/${third.pendingCards[0]!.id}`, { decision: 'approve' });
    const done = await finished(delegationId);
    expect(done.result).toMatchObject({ status: 'completed', text: 'Done.' });
    expect(done.decidedCards.map((decided) => decided.arguments.path)).toEqual([
      'note.txt',
      'other.txt',
      'note.txt',
    ]);
  }, 120_000);

  it('through the typed client, and revoked by it', async () => {
    const { delegationId, card } = await parked('repeat');
    const client = createDeputyClient({ url: baseUrl });
    const decided = await client.cards.decide(card.id, 'approve', { allow: 'delegation' });
    expect(decided).toMatchObject({ state: { status: 'approved', grant: 1 } });
    await pendingOf(delegationId);
    expect(await client.delegations.revokeGrant(delegationId, 1)).toMatchObject({
      n: 1,
      revoked: {},
    });
    await client.delegations.stop(delegationId);
  }, 120_000);

  it('through the CLI: deputy approve <card> --allow-rest', async () => {
    const { delegationId, card } = await parked('repeat');
    const approved = await cli(['approve', card.id, '--allow-rest', '--json']);
    expect(approved.code, approved.stderr).toBe(0);
    expect(JSON.parse(approved.stdout)).toMatchObject({ state: { status: 'approved', grant: 1 } });
    const state = await pendingOf(delegationId);
    expect(state.pendingCards).toMatchObject([{ arguments: { path: 'other.txt' } }]);
    await call('POST', `/delegations/${delegationId}/stop`);
  }, 120_000);
});

describe('approve with edited arguments', () => {
  it('through the API: the call runs with the edit, and the model is told', async () => {
    const { delegationId, card } = await parked();
    const decided = await call('POST', `/cards/${card.id}`, {
      decision: 'approve',
      arguments: { path: 'note.txt', content: 'edited\n' },
    });
    expect(decided.status, JSON.stringify(decided.body)).toBe(200);
    expect(decided.body).toMatchObject({
      state: { status: 'approved', editedArguments: { content: 'edited\n' } },
    });
    const state = await finished(delegationId);
    expect(state.result!.text).toContain("[tool 'write' ran with arguments edited by a person");
    expect(await readFile(join(harness.workspace, 'note.txt'), 'utf8')).toBe('edited\n');
    await rm(join(harness.workspace, 'note.txt'));
  }, 90_000);

  it('refuses an edit that changes the path or does not fit (422), and the card stays pending', async () => {
    const { delegationId, card } = await parked();
    const widened = await call('POST', `/cards/${card.id}`, {
      decision: 'approve',
      arguments: { path: '../outside.txt', content: 'x' },
    });
    expect(widened.status).toBe(422);
    expect(widened.body.message).toMatch(/cannot change 'path'.*still pending/);
    const misfit = await call('POST', `/cards/${card.id}`, {
      decision: 'approve',
      arguments: { path: 'note.txt' },
    });
    expect(misfit.status).toBe(422);
    expect(misfit.body.message).toMatch(/content is required/);
    const { body } = await call('GET', `/delegations/${delegationId}`);
    expect((body as unknown as DelegationState).pendingCards.map((c) => c.id)).toEqual([card.id]);
    // A plain decision still applies afterwards: the refused edits settled nothing.
    expect((await call('POST', `/cards/${card.id}`, { decision: 'deny' })).status).toBe(200);
  }, 90_000);

  it('bash: an edit inside the Bash(<prefix>:*) pattern runs, one that widens is refused', async () => {
    const { delegationId, card } = await parked('lister');
    expect(card).toMatchObject({ tool: 'bash', arguments: { command: 'ls -a' } });
    for (const command of ['ls -a; rm -rf .', 'rm -rf .', 'ls -a > x.txt']) {
      const refused = await call('POST', `/cards/${card.id}`, {
        decision: 'approve',
        arguments: { command },
      });
      expect(refused.status, command).toBe(422);
    }
    const client = createDeputyClient({ url: baseUrl });
    const decided = await client.cards.decide(card.id, 'approve', {
      arguments: { command: 'ls -a -1' },
    });
    expect(decided).toMatchObject({ state: { editedArguments: { command: 'ls -a -1' } } });
    const state = await finished(delegationId);
    expect(state.result!.text).toContain('ran with arguments edited by');
    expect(existsSync(join(harness.workspace, 'x.txt'))).toBe(false);
  }, 90_000);

  it('through the CLI: deputy approve <card> --args', async () => {
    const { delegationId, card } = await parked();
    const refused = await cli(['approve', card.id, '--args', '{"path":"x.txt","content":"y"}']);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/cannot change 'path'/);
    const approved = await cli([
      'approve',
      card.id,
      '--args',
      '{"path":"note.txt","content":"from the shell\\n"}',
    ]);
    expect(approved.code, approved.stderr).toBe(0);
    expect(approved.stdout).toContain(`card ${card.id} approved`);
    await finished(delegationId);
    expect(await readFile(join(harness.workspace, 'note.txt'), 'utf8')).toBe('from the shell\n');
    await rm(join(harness.workspace, 'note.txt'));
  }, 90_000);
});

describe('several decisions at once', () => {
  it('POST /cards/decisions: each applied once, an answer per card, never all-or-nothing', async () => {
    const first = await parked();
    const second = await parked('repeat');
    const client = createDeputyClient({ url: baseUrl });
    const results = await client.cards.decideMany([
      { cardId: first.card.id, decision: 'answer', answer: 'batched answer' },
      { cardId: second.card.id, decision: 'approve', allow: 'delegation' },
      { cardId: first.card.id, decision: 'deny' },
      { cardId: 'd-nosuch.1', decision: 'approve' },
      { cardId: second.card.id, decision: 'answer' },
    ]);
    expect(results.map((result) => [result.cardId, result.status])).toEqual([
      [first.card.id, 'decided'],
      [second.card.id, 'decided'],
      [first.card.id, 'refused'],
      ['d-nosuch.1', 'refused'],
      [second.card.id, 'refused'],
    ]);
    expect(results[0]!.card).toMatchObject({ state: { status: 'answered' } });
    expect(results[1]!.card).toMatchObject({ state: { status: 'approved', grant: 1 } });
    expect(results[2]).toMatchObject({ error: 'conflict', httpStatus: 409 });
    expect(results[3]).toMatchObject({ error: 'not-found', httpStatus: 404 });
    expect(results[4]).toMatchObject({ error: 'invalid', httpStatus: 422 });
    await expectAnswered(first.delegationId, first.card.id, 'batched answer');
    const next = await pendingOf(second.delegationId);
    expect(next.pendingCards).toMatchObject([{ arguments: { path: 'other.txt' } }]);
    expect(next.decidedCards).toHaveLength(1);
    await call('POST', `/delegations/${second.delegationId}/stop`);
    // A malformed request as a whole is refused as one.
    expect((await call('POST', '/cards/decisions', { decisions: [] })).status).toBe(422);
  }, 120_000);
});

describe('two doors deciding the same card at once', () => {
  it('an answer (the stored signal) and an edit (the update): one wins, the other is told', async () => {
    for (let round = 0; round < 2; round++) {
      await rm(join(harness.workspace, 'note.txt'), { force: true });
      const { delegationId, card } = await parked();
      const client = createDeputyClient({ url: baseUrl });
      const [answered, edited] = await Promise.allSettled([
        call('POST', `/cards/${card.id}`, { decision: 'answer', answer: 'the answer door' }),
        client.cards.decide(card.id, 'approve', {
          arguments: { path: 'note.txt', content: 'the edit door\n' },
        }),
      ]);
      const answerWon = answered.status === 'fulfilled' && answered.value.status === 200;
      const editWon = edited.status === 'fulfilled';
      expect([answerWon, editWon].filter(Boolean)).toHaveLength(1);
      if (answerWon) {
        expect(edited.status === 'rejected' && String(edited.reason)).toMatch(/answered|already/);
      } else {
        expect(answered.status === 'fulfilled' && answered.value).toMatchObject({
          status: 409,
          body: { error: 'conflict' },
        });
      }
      const state = await finished(delegationId);
      expect(state.decidedCards).toHaveLength(1);
      expect(state.decidedCards[0]!.state.status).toBe(answerWon ? 'answered' : 'approved');
      expect(await noteContent()).toBe(answerWon ? null : 'the edit door\n');
      await rm(join(harness.workspace, 'note.txt'), { force: true });
    }
  }, 180_000);
});

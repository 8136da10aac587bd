/**
 * The HTTP API on real Temporal: the global dev server, a real worker (own task queue), real
 * HTTP on loopback through startApiServer. The model is the scripted `demo` agent.
 */
import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {
  ApprovalCard,
  DelegationEvent,
  DelegationState,
} from '../../src/shared/delegation.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createDelegations } from '../../src/temporal/delegations/facade.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import { readEventStream } from '../support/event-stream.js';
import { jsonCaller } from './support/app-request.js';

let harness: Harness;
let server: ApiServer;

beforeAll(async () => {
  harness = await createHarness({ 'README.md': '# API test workspace\n' });
  const delegations = createDelegations(harness.client, {
    namespace: harness.config.temporal.namespace,
    taskQueue: harness.taskQueue,
  });
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    { delegations, events: { pollMs: 100 } },
  );
});

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

const session = () => `api-${randomUUID().slice(0, 8)}`;

const call = jsonCaller(() => server.url);

async function startDemo(s: string, extra: Record<string, unknown> = {}): Promise<string> {
  const started = await call('POST', '/delegations', {
    agent: 'demo',
    task: 'Greet the workspace',
    session: s,
    ...extra,
  });
  expect(started.status).toBe(201);
  return started.body.delegationId as string;
}

async function pendingCards(s: string): Promise<ApprovalCard[]> {
  const { body } = await call('GET', `/sessions/${s}/cards`);
  return body.cards as ApprovalCard[];
}

describe('delegations over HTTP', () => {
  it('starts the demo, lists its card, approves it, and reports the result', async () => {
    const s = session();
    const id = await startDemo(s);
    const [card] = await eventually(async () => {
      const cards = await pendingCards(s);
      return cards.length > 0 ? cards : undefined;
    }, 'a pending card');
    expect(card).toMatchObject({
      delegationId: id,
      session: s,
      agent: 'demo',
      tool: 'write',
      state: { status: 'pending' },
    });

    const parked = await call('GET', `/delegations/${id}`);
    expect(parked.body).toMatchObject({ status: 'parked', pendingCards: [{ id: card!.id }] });

    const decided = await call('POST', `/cards/${card!.id}`, {
      decision: 'approve',
      reason: 'fine',
    });
    expect(decided.status).toBe(200);
    expect(decided.body).toMatchObject({
      id: card!.id,
      state: { status: 'approved', reason: 'fine' },
    });

    const state = await eventually(async () => {
      const { body } = await call('GET', `/delegations/${id}`);
      return (body as unknown as DelegationState).result
        ? (body as unknown as DelegationState)
        : undefined;
    }, 'the result');
    expect(state.status).toBe('completed');
    expect(state.result?.text).toContain('hello.txt');
    expect(existsSync(join(harness.workspace, 'hello.txt'))).toBe(true);

    const again = await call('POST', `/cards/${card!.id}`, { decision: 'deny' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'conflict' });

    const listed = await eventually(async () => {
      const { body } = await call('GET', `/delegations?session=${s}&status=completed`);
      const rows = body.delegations as Array<{ delegationId: string }>;
      return rows.length > 0 ? rows : undefined;
    }, 'the listing');
    expect(listed).toMatchObject([
      {
        delegationId: id,
        agent: 'demo',
        session: s,
        status: 'completed',
        task: 'Greet the workspace',
      },
    ]);
    expect(await pendingCards(s)).toEqual([]);
  });

  it('streams the events in order, through a card, and ends after finished', async () => {
    const s = session();
    const id = await startDemo(s);
    const response = await fetch(`${server.url}/delegations/${id}/events`);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const seen: DelegationEvent[] = [];
    await readEventStream<DelegationEvent & { replayed?: boolean }>(
      response,
      async (event, name) => {
        expect(name).toBe(event.type);
        seen.push(event);
        if (event.type === 'card-opened') {
          expect(
            (await call('POST', `/cards/${event.card.id}`, { decision: 'approve' })).status,
          ).toBe(200);
        }
      },
    );
    expect(seen.map((event) => event.type)).toEqual([
      'started',
      'model-turn',
      'tool-call',
      'model-turn',
      'card-opened',
      'card-decided',
      'tool-call',
      'model-turn',
      'finished',
    ]);
    expect(seen.map((event) => event.seq)).toEqual(seen.map((_, index) => index + 1));
    // Each tool call says what it was called with (redacted JSON), for a timeline.
    const calls = seen.filter((event) => event.type === 'tool-call');
    expect(calls.map((event) => [event.tool, JSON.parse(event.arguments ?? 'null')])).toEqual([
      ['read', { path: 'README.md', limit: 5 }],
      ['write', expect.objectContaining({ path: 'hello.txt' })],
    ]);
  });

  it('replays a pending card on attach, and stop denies it and answers; a second stop is a no-op', async () => {
    const s = session();
    const id = await startDemo(s);
    await eventually(async () => ((await pendingCards(s)).length > 0 ? true : undefined), 'a card');
    // Resume after every event so far: the card-opened event is behind us, so it must be replayed.
    const response = await fetch(`${server.url}/delegations/${id}/events`, {
      headers: { 'Last-Event-ID': '5' },
    });
    const seen: Array<DelegationEvent & { replayed?: boolean }> = [];
    await readEventStream<DelegationEvent & { replayed?: boolean }>(response, async (event) => {
      seen.push(event);
      if (event.type === 'card-opened') {
        expect(event.replayed).toBe(true);
        expect(await call('POST', `/delegations/${id}/stop`)).toEqual({
          status: 200,
          body: { stopped: true },
        });
      }
    });
    expect(seen.map((event) => event.type)).toEqual(['card-opened', 'card-decided', 'finished']);
    expect(seen[1]).toMatchObject({ card: { state: { status: 'denied', reason: 'stopped' } } });
    expect(seen[2]).toMatchObject({ result: { status: 'stopped' } });
    expect(await call('POST', `/delegations/${id}/stop`)).toEqual({
      status: 200,
      body: { alreadyFinished: true, status: 'stopped' },
    });
  });

  it('waits for the result with ?wait=true (unattended: the write is denied at once)', async () => {
    const response = await call('POST', '/delegations?wait=true', {
      agent: 'demo',
      task: 'Greet, unattended',
      session: session(),
      unattended: true,
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({
      status: 'completed',
      result: { status: 'completed', roundsUsed: 3 },
    });
  });

  it('reports a failed delegation with its notice, through wait and GET', async () => {
    const response = await call('POST', '/delegations?wait=true', {
      agent: 'ghost',
      task: 'Nobody is called ghost',
      session: session(),
    });
    expect(response.status).toBe(201);
    expect(response.body).toMatchObject({ status: 'failed', result: { status: 'failed' } });
    const notice = (response.body.result as { notice: string }).notice;
    expect(notice).toContain('ghost');
    const state = await call('GET', `/delegations/${response.body.delegationId as string}`);
    expect(state.body).toMatchObject({ status: 'failed', result: { status: 'failed', notice } });
  });

  it('answers 404 for an unknown delegation or card, and 422 for a bad request', async () => {
    expect(await call('GET', '/delegations/d-doesnotexist')).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
    expect((await call('POST', '/delegations/d-doesnotexist/stop')).status).toBe(404);
    expect((await fetch(`${server.url}/delegations/d-doesnotexist/events`)).status).toBe(404);
    expect(await call('POST', '/cards/d-doesnotexist.1', { decision: 'approve' })).toMatchObject({
      status: 404,
      body: { error: 'not_found' },
    });
    expect((await call('POST', '/cards/not-a-card', { decision: 'approve' })).status).toBe(404);
    expect((await call('POST', '/delegations', { agent: 'demo' })).status).toBe(422);
  });

  it('refuses a duplicate delegation id with 409', async () => {
    const s = session();
    const delegationId = `d-dup${randomUUID().slice(0, 6)}`;
    await startDemo(s, { delegationId, unattended: true });
    const again = await call('POST', '/delegations', {
      agent: 'demo',
      task: 'x',
      session: s,
      delegationId,
    });
    expect(again.status).toBe(409);
  });

  it('answers from visibility, not a query, when no worker polls, and after a termination', async () => {
    const lonely = createDelegations(harness.client, {
      namespace: harness.config.temporal.namespace,
      taskQueue: `no-worker-${randomUUID()}`,
      // Longer than the test's timeout: if get() asked the workflow (a query nobody can answer)
      // instead of reading visibility, the test would time out. No speed is asserted.
      queryTimeoutMs: 600_000,
    });
    const { delegationId, workflowId } = await lonely.start({
      agent: 'demo',
      task: 'Nobody will run this',
      session: session(),
      caller: { id: null, roles: [] },
      options: {},
    });
    const state = await lonely.get(delegationId);
    expect(state).toMatchObject({
      delegationId,
      workflowId,
      agent: 'demo',
      status: 'running',
      result: null,
    });

    // The run publishes no pending card (no worker ever ran it): refused at once, no worker asked.
    await expect(lonely.decide(`${delegationId}.1`, { decision: 'approve' })).rejects.toMatchObject(
      { kind: 'not-found', message: expect.stringContaining('is not pending') },
    );

    await harness.client.workflow.getHandle(workflowId).terminate('test cleanup');
    const terminated = await lonely.get(delegationId);
    expect(terminated.status).toBe('stopped');
    expect(terminated.result).toMatchObject({ status: 'stopped' });
    expect(await lonely.stop(delegationId)).toEqual({ alreadyFinished: true, status: 'stopped' });
  });
});

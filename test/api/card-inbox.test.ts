/**
 * The approvals inbox over the stub facade: what only a stand-in can stage. Temporal going away
 * in the middle of a stream, a look failing with a message that must not leak, a hang-up that must
 * stop the polling, keep-alives, masking, and who sees which card with auth on. The same routes on
 * real Temporal: test/integration/cards-inbox.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import type { Logger } from '../../src/api/http/errors.js';
import {
  CardClosedEventSchema,
  CardOutcomeEventSchema,
  CardListSchema,
  CardOpenedEventSchema,
} from '../../src/api/cards/schemas.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';
import { DeputyError } from '../../src/errors.js';
import type { Delegations } from '../../src/temporal/delegations/facade.js';
import { TemporalUnreachableError } from '../../src/temporal/unreachable.js';
import { budgetFrom } from '../support/calibration.js';
import { eventually } from '../support/eventually.js';
import { followEventStream } from '../support/follow-event-stream.js';
import { AUTH_CONFIG, bearer, config, TOKEN_ENV } from './make-app.js';
import { card, decided, stateOf } from './inbox-fixtures.js';
import { stubDelegations } from './stub-delegations.js';

const POLL_MS = 20;

/** Follows the inbox stream until its first `card-outcome`, then hangs up. */
async function firstCardOutcome(app: { request(path: string): Response | Promise<Response> }) {
  const stream = followEventStream(await app.request('/cards/events'));
  const late = await eventually(async () => stream.named('card-outcome')[0], 'card-outcome', 6_000);
  await stream.close();
  return { stream, late };
}

/** Follows the inbox stream until its first `card-closed`; how long that took from attaching. */
async function closedAfter(app: { request(path: string): Response | Promise<Response> }) {
  const stream = followEventStream(await app.request('/cards/events'));
  const began = Date.now();
  const closed = await eventually(
    async () => stream.named('card-closed')[0],
    'card-closed',
    10_000,
  );
  await stream.close();
  return { closed, ms: closed.receivedAt - began };
}

function appOver(
  stubs: Partial<Delegations>,
  options: { auth?: boolean; keepAliveMs?: number } = {},
) {
  const stub = stubDelegations(stubs);
  const logged: { errors: unknown[]; warnings: string[] } = { errors: [], warnings: [] };
  const logger: Logger = {
    error: (message, error) => logged.errors.push([message, error]),
    warn: (message) => logged.warnings.push(message),
    info: () => {},
  };
  const app = createApp({
    delegations: stub.delegations,
    config,
    auth: createAuth({ auth: options.auth === true ? AUTH_CONFIG : undefined }, TOKEN_ENV),
    logger,
    events: {
      pollMs: POLL_MS,
      ...(options.keepAliveMs === undefined ? {} : { keepAliveMs: options.keepAliveMs }),
    },
  });
  const cardsCalls = () => stub.calls.filter((call) => call.method === 'cards').length;
  return { app, logged, cardsCalls };
}

/** A facade whose pending cards are whatever `answers` says at each look (the last one repeats). */
function listing(...answers: Array<ApprovalCard[] | Error>) {
  let look = 0;
  return async () => {
    const answer = answers[Math.min(look++, answers.length - 1)]!;
    if (answer instanceof Error) throw answer;
    return answer;
  };
}

describe('GET /cards (stub facade)', () => {
  it('lists every pending card, masks secret-looking values, and passes ?session on', async () => {
    const leaky = card('d-1.1', 'write', {
      arguments: { content: 'key sk-proj-abcdefghijklmnop1234' },
    });
    const seen: unknown[] = [];
    const { app } = appOver({
      cards: async (filter) => {
        seen.push(filter);
        return [leaky];
      },
    });
    const response = await app.request('/cards?session=s-1');
    expect(response.status).toBe(200);
    const body = (await response.json()) as { cards: ApprovalCard[] };
    expect(CardListSchema.parse(body)).toEqual(body);
    expect(body.cards[0]!.arguments).toEqual({ content: 'key __redacted__' });
    expect(seen).toEqual([{ session: 's-1' }]);
  });

  it('refuses a malformed session or an unknown query key with 422, before asking Temporal', async () => {
    const { app, cardsCalls } = appOver({ cards: async () => [] });
    for (const path of ['/cards?session=no%20spaces', '/cards?x=1', '/cards/events?session=..']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(422);
      expect(await response.json()).toMatchObject({ error: 'invalid_request' });
    }
    expect(cardsCalls()).toBe(0);
  });

  it('answers 503 when Temporal is down, the stream too (before it opens)', async () => {
    const { app } = appOver({ cards: listing(new TemporalUnreachableError('no server (test)')) });
    for (const path of ['/cards', '/cards/events']) {
      const response = await app.request(path);
      expect(response.status, path).toBe(503);
      expect(await response.json()).toMatchObject({ error: 'unavailable' });
    }
  });

  it('with auth, a non-admin sees read cards and their own; an admin sees all', async () => {
    // olga (owner token) started d-1; alice (admin) started d-2.
    const cards = [card('d-1.1', 'write'), card('d-2.1', 'write'), card('d-2.2', 'read')];
    const owners: Record<string, string> = { 'd-1': 'olga', 'd-2': 'alice' };
    const { app } = appOver(
      { cards: async () => cards, owner: async (id) => owners[id] ?? null },
      { auth: true },
    );
    const listed = async (who: 'admin' | 'owner' | 'reader') => {
      const response = await app.request('/cards', { headers: bearer(who) });
      expect(response.status).toBe(200);
      return ((await response.json()) as { cards: ApprovalCard[] }).cards.map(({ id }) => id);
    };
    expect(await listed('admin')).toEqual(['d-1.1', 'd-2.1', 'd-2.2']);
    expect(await listed('owner')).toEqual(['d-1.1', 'd-2.2']);
    expect(await listed('reader')).toEqual(['d-2.2']);
    expect((await app.request('/cards')).status).toBe(401);
  });
});

describe('GET /cards/events (stub facade)', () => {
  it('sends a snapshot, then card-opened and card-closed with the outcome, each masked', async () => {
    const first = card('d-1.1', 'write');
    const second = card('d-2.1', 'read', { arguments: { path: 'sk-proj-abcdefghijklmnop1234' } });
    const approved = decided(first, 'approved', 'alice', 'fine');
    const { app } = appOver({
      cards: listing([first], [first], [first, second], [second]),
      get: async (id) => stateOf(id, id === 'd-1' ? [approved] : []),
    });
    const response = await app.request('/cards/events');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const stream = followEventStream(response);
    await eventually(
      async () => (stream.named('card-closed').length > 0 ? true : undefined),
      'card-closed',
      5_000,
    );
    await stream.close();
    expect(stream.events.map(({ name }) => name)).toEqual([
      'snapshot',
      'card-opened',
      'card-closed',
    ]);
    const [snapshot, opened, closed] = stream.events;
    expect(snapshot!.data).toEqual({ cards: [first] });
    expect(CardOpenedEventSchema.parse(opened!.data)).toEqual(opened!.data);
    expect(opened!.data).toMatchObject({
      card: { id: 'd-2.1', arguments: { path: '__redacted__' } },
    });
    expect(CardClosedEventSchema.parse(closed!.data)).toEqual(closed!.data);
    expect(closed!.data).toEqual({
      cardId: 'd-1.1',
      delegationId: 'd-1',
      outcome: {
        decision: 'approve',
        decidedBy: 'alice',
        reason: 'fine',
        decidedAt: '2026-01-01T00:00:09.000Z',
      },
    });
  });

  it('closes a card decided through this API at once, with its outcome, though the listing still shows it', async () => {
    const pending = card('d-1.1', 'write');
    const approved = decided(pending, 'approved', 'alice', 'from the console');
    let looks = 0;
    const { app } = appOver({
      // Visibility lags: the listing shows the card pending for ever after the decision.
      cards: async () => {
        looks += 1;
        return [pending];
      },
      decide: async () => approved,
      get: async (id) => stateOf(id, [approved]),
    });
    const stream = followEventStream(await app.request('/cards/events'));
    await eventually(
      async () => (stream.named('snapshot').length > 0 ? true : undefined),
      'snapshot',
    );
    const decision = await app.request('/cards/d-1.1', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'approve', reason: 'from the console' }),
    });
    expect(decision.status).toBe(200);
    await eventually(
      async () => (stream.named('card-closed').length > 0 ? true : undefined),
      'card-closed',
      5_000,
    );
    // Several more looks still list it: it is not opened again.
    const looksAtClose = looks;
    await eventually(async () => (looks >= looksAtClose + 5 ? true : undefined), 'more looks');
    await stream.close();
    expect(stream.events.map(({ name }) => name)).toEqual(['snapshot', 'card-closed']);
    expect(stream.events[1]!.data).toEqual({
      cardId: 'd-1.1',
      delegationId: 'd-1',
      outcome: {
        decision: 'approve',
        decidedBy: 'alice',
        reason: 'from the console',
        decidedAt: '2026-01-01T00:00:09.000Z',
      },
    });
  });

  it('closes a card without an outcome when its delegation is gone, and keeps one its delegation still has pending', async () => {
    const gone = card('d-1.1', 'write');
    const missed = card('d-2.1', 'write');
    const { app } = appOver({
      // The second look misses d-2's card (a state query that failed inside cards()).
      cards: listing([gone, missed], [], [missed]),
      get: async (id) => {
        if (id === 'd-1') throw new DeputyError('not-found', 'no delegation d-1');
        return { ...stateOf(id, []), pendingCards: [missed] };
      },
    });
    const stream = followEventStream(await app.request('/cards/events'));
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 10));
    await stream.close();
    expect(stream.events.map(({ name, data }) => [name, data])).toEqual([
      ['snapshot', { cards: [gone, missed] }],
      ['card-closed', { cardId: 'd-1.1', delegationId: 'd-1' }],
    ]);
  });

  it('closes a card without an outcome when its delegation does not answer at once (0.3 s)', async () => {
    const slow = card('d-1.1', 'write');
    const { app } = appOver({
      cards: listing([slow], []),
      // A closed run whose worker is too busy to replay it: the state query hangs.
      get: () => new Promise(() => {}),
    });
    const { closed, ms } = await closedAfter(app);
    expect(closed.data).toEqual({ cardId: 'd-1.1', delegationId: 'd-1' });
    // The baseline: the same close with a delegation that answers at once. The close may wait
    // the 0.3 s it gives the state on purpose, and 10 of those closes or 1 s more, far short of
    // waiting on a state that never comes.
    let baselineMs = 0;
    for (let round = 0; round < 3; round += 1) {
      const prompt = appOver({
        cards: listing([card('d-1.1', 'write')], []),
        get: async (id) => stateOf(id, []),
      });
      baselineMs = Math.max(baselineMs, (await closedAfter(prompt.app)).ms);
    }
    budgetFrom('the close with a delegation that answers at once', baselineMs, {
      factor: 10,
      floorMs: 1_000,
      plusMs: 300,
    }).expectWithin(ms, 'the close with a delegation that does not answer');
  });

  it('sends the outcome as card-outcome when the delegation answers after the close', async () => {
    const slow = card('d-1.1', 'write');
    const denied = decided(slow, 'denied', 'olga', 'not now');
    const { app } = appOver({
      cards: listing([slow], []),
      // A busy worker: the state answers, but only after the close was sent without it.
      get: async (id) => {
        await new Promise((resolve) => setTimeout(resolve, 1_500));
        return stateOf(id, [denied]);
      },
    });
    const { stream, late } = await firstCardOutcome(app);
    expect(stream.events.map(({ name }) => name)).toEqual([
      'snapshot',
      'card-closed',
      'card-outcome',
    ]);
    expect(stream.named('card-closed')[0]!.data).toEqual({ cardId: 'd-1.1', delegationId: 'd-1' });
    expect(CardOutcomeEventSchema.parse(late.data)).toEqual(late.data);
    expect(late.data).toEqual({
      cardId: 'd-1.1',
      delegationId: 'd-1',
      outcome: {
        decision: 'deny',
        decidedBy: 'olga',
        reason: 'not now',
        decidedAt: '2026-01-01T00:00:09.000Z',
      },
    });
  });

  it('asks again when the late answer does not have the card decided yet, and then sends card-outcome', async () => {
    const slow = card('d-1.1', 'write');
    const approved = decided(slow, 'approved', 'olga', 'fine');
    let asked = 0;
    const { app } = appOver({
      cards: listing([slow], []),
      // The first answer comes after the close and still without the decision (read from
      // visibility, or before a recorded decision applied); a later one has it.
      get: async (id) => {
        asked += 1;
        if (asked === 1) {
          await new Promise((resolve) => setTimeout(resolve, 500));
          return stateOf(id, []);
        }
        return stateOf(id, [approved]);
      },
    });
    const { late } = await firstCardOutcome(app);
    expect(asked).toBeGreaterThanOrEqual(2);
    expect(late.data).toMatchObject({ cardId: 'd-1.1', outcome: { decision: 'approve' } });
  });

  it('says once that Temporal is unreachable, keeps trying, and sends a new snapshot when it answers', async () => {
    const before = card('d-1.1', 'write');
    const after = card('d-2.1', 'write');
    const down = new TemporalUnreachableError('connect ECONNREFUSED 10.1.2.3:7233 (test)');
    const { app, logged } = appOver({ cards: listing([before], down, down, down, [after]) });
    const stream = followEventStream(await app.request('/cards/events'));
    await eventually(
      async () => (stream.named('snapshot').length === 2 ? true : undefined),
      'a second snapshot',
      5_000,
    );
    const raw = await stream.close();
    expect(stream.events.map(({ name, data }) => [name, data])).toEqual([
      ['snapshot', { cards: [before] }],
      [
        'error',
        { error: 'unavailable', message: 'Temporal is not reachable; the stream keeps trying' },
      ],
      ['snapshot', { cards: [after] }],
    ]);
    expect(raw).not.toContain('10.1.2.3');
    expect(logged.warnings).toHaveLength(1);
    expect(logged.errors).toEqual([]);
  });

  it('answers any other failure of a look with a generic error, logged, and goes on', async () => {
    const secret = 'grpc dial 10.1.2.3:7233 failed token=abc';
    const { app, logged } = appOver({ cards: listing([], new Error(secret), []) });
    const stream = followEventStream(await app.request('/cards/events'));
    await eventually(
      async () => (stream.named('snapshot').length === 2 ? true : undefined),
      'a second snapshot',
      5_000,
    );
    const raw = await stream.close();
    expect(stream.events.map(({ name }) => name)).toEqual(['snapshot', 'error', 'snapshot']);
    expect(stream.events[1]!.data).toEqual({
      error: 'internal',
      message: 'reading the pending cards failed; the stream keeps trying',
    });
    expect(raw).not.toContain(secret);
    expect(logged.errors).toHaveLength(1);
  });

  it('sends keep-alive comments after silence, and stops polling when the client hangs up', async () => {
    const { app, cardsCalls } = appOver({ cards: async () => [] }, { keepAliveMs: 50 });
    const stream = followEventStream(await app.request('/cards/events'));
    await eventually(async () => (cardsCalls() > 5 ? true : undefined), 'a few looks', 5_000);
    await new Promise((resolve) => setTimeout(resolve, 120));
    const raw = await stream.close();
    expect(raw).toContain(': keep-alive\n\n');
    expect(stream.events.map(({ name }) => name)).toEqual(['snapshot']);
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 3));
    const afterHangUp = cardsCalls();
    await new Promise((resolve) => setTimeout(resolve, POLL_MS * 10));
    expect(cardsCalls()).toBe(afterHangUp);
  });

  it('answers HEAD without opening a stream', async () => {
    const { app, cardsCalls } = appOver({ cards: async () => [] });
    const response = await app.request('/cards/events', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    expect(cardsCalls()).toBe(0);
  });
});

/**
 * Rights on cards and stops, with auth on: the HTTP layer's rule over the stub facade,
 * which answers what the real one would (owner from the memo, cards from the state). The same
 * rules on real Temporal with a real worker: test/integration/api-rights.test.ts.
 */
import { describe, expect, it } from 'vitest';
import type { DelegationState } from '../../src/shared/delegation.js';
import { DeputyError } from '../../src/errors.js';
import { bearer, jsonPost, makeApp } from './make-app.js';
import { cardOfD1 } from './stub-delegations.js';

/** Delegation d-1, started by olga, with pending cards d-1.1 (write), d-1.2 (read), d-1.3 (an MCP tool). */
const state = {
  delegationId: 'd-1',
  pendingCards: [
    cardOfD1('d-1.1', 'write'),
    cardOfD1('d-1.2', 'read'),
    cardOfD1('d-1.3', 'mcp__gh__merge'),
  ],
  decidedCards: [cardOfD1('d-1.0', 'bash', 'approved')],
} as unknown as DelegationState;

const facade = {
  owner: async (id: string) => {
    if (id !== 'd-1') throw new DeputyError('not-found', `no delegation with id '${id}'`);
    return 'olga';
  },
  get: async () => state,
  decide: async (id: string) =>
    ({ ...cardOfD1(id, 'write'), state: { status: 'approved' } }) as never,
  stop: async () => ({ stopped: true as const }),
};

const decide = (id: string, decision: 'approve' | 'deny', who: Parameters<typeof bearer>[0]) =>
  [`/cards/${id}`, jsonPost({ decision }, bearer(who))] as const;

describe('deciding a card (auth on)', () => {
  it.each(['approve', 'deny'] as const)(
    'a reader cannot %s a write card: 403 with the reason, and decide() is never called',
    async (decision) => {
      const { app, calls } = makeApp({ auth: true, delegations: facade });
      const response = await app.request(...decide('d-1.1', decision, 'reader'));
      expect(response.status).toBe(403);
      expect(await response.json()).toEqual({
        error: 'forbidden',
        code: 'forbidden',
        message:
          "card d-1.1 is for 'write' (write tool): deciding it needs the 'admin' role or being the user who started delegation d-1",
      });
      expect(calls.map((call) => call.method)).not.toContain('decide');
    },
  );

  it('a reader cannot decide a card for a tool the catalog does not know (MCP)', async () => {
    const { app, calls } = makeApp({ auth: true, delegations: facade });
    const response = await app.request(...decide('d-1.3', 'approve', 'reader'));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ message: /unknown tool/ });
    expect(calls.map((call) => call.method)).not.toContain('decide');
  });

  it('a reader may decide a read card: reading needs no role', async () => {
    const { app, calls } = makeApp({ auth: true, delegations: facade });
    const response = await app.request(...decide('d-1.2', 'approve', 'reader'));
    expect(response.status).toBe(200);
    expect(calls.at(-1)).toMatchObject({
      method: 'decide',
      args: ['d-1.2', { decision: 'approve', decidedBy: 'rita' }],
    });
  });

  it('the owner may decide a write card of their delegation without the admin role', async () => {
    const { app, calls } = makeApp({ auth: true, delegations: facade });
    const response = await app.request(...decide('d-1.1', 'approve', 'owner'));
    expect(response.status).toBe(200);
    expect(calls.map((call) => call.method)).toEqual(['owner', 'decide']);
  });

  it('an admin decides any card, with no lookup at all', async () => {
    const { app, calls } = makeApp({ auth: true, delegations: facade });
    const response = await app.request(...decide('d-1.1', 'deny', 'admin'));
    expect(response.status).toBe(200);
    expect(calls.map((call) => call.method)).toEqual(['decide']);
  });

  it('a card that is not pending is refused to a reader (it could be the next write)', async () => {
    const { app, calls } = makeApp({ auth: true, delegations: facade });
    const response = await app.request(...decide('d-1.9', 'approve', 'reader'));
    expect(response.status).toBe(403);
    expect(await response.json()).toMatchObject({ message: /not pending/ });
    expect(calls.map((call) => call.method)).not.toContain('decide');
  });

  it('an already decided card goes on to decide(), which answers 409', async () => {
    const { app } = makeApp({
      auth: true,
      delegations: {
        ...facade,
        decide: async () => {
          throw new DeputyError('conflict', 'card d-1.0 was already approved');
        },
      },
    });
    const response = await app.request(...decide('d-1.0', 'deny', 'reader'));
    expect(response.status).toBe(409);
  });

  it('a card of an unknown delegation is 404', async () => {
    const { app } = makeApp({ auth: true, delegations: facade });
    const response = await app.request(...decide('d-2.1', 'approve', 'reader'));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: 'not_found',
      code: 'not_found',
      message: "no approval card with id 'd-2.1'",
    });
  });

  it('without auth nothing is looked up (the loopback guard protects)', async () => {
    const { app, calls } = makeApp({ delegations: facade });
    const response = await app.request('/cards/d-1.1', jsonPost({ decision: 'approve' }));
    expect(response.status).toBe(200);
    expect(calls.map((call) => call.method)).toEqual(['decide']);
  });
});

describe('stopping a delegation (auth on)', () => {
  const stop = (who: Parameters<typeof bearer>[0], id = 'd-1') =>
    [`/delegations/${id}/stop`, { method: 'POST', headers: bearer(who) }] as const;

  it('a caller who neither started it nor is admin gets 403', async () => {
    const { app, calls } = makeApp({ auth: true, delegations: facade });
    const response = await app.request(...stop('reader'));
    expect(response.status).toBe(403);
    expect(await response.json()).toEqual({
      error: 'forbidden',
      code: 'forbidden',
      message: "stopping delegation d-1 needs the 'admin' role or being the user who started it",
    });
    expect(calls.map((call) => call.method)).toEqual(['owner']);
  });

  it('its owner may stop it', async () => {
    const { app, calls } = makeApp({ auth: true, delegations: facade });
    expect((await app.request(...stop('owner'))).status).toBe(200);
    expect(calls.map((call) => call.method)).toEqual(['owner', 'stop']);
  });

  it('an admin may stop it', async () => {
    const { app, calls } = makeApp({ auth: true, delegations: facade });
    expect((await app.request(...stop('admin'))).status).toBe(200);
    expect(calls.map((call) => call.method)).toEqual(['stop']);
  });

  it('an unknown delegation is 404 for everyone', async () => {
    const { app } = makeApp({ auth: true, delegations: facade });
    expect((await app.request(...stop('reader', 'd-2'))).status).toBe(404);
  });

  it('a delegation started without auth has no owner: only an admin may stop it', async () => {
    const { app } = makeApp({ auth: true, delegations: { ...facade, owner: async () => null } });
    expect((await app.request(...stop('owner'))).status).toBe(403);
    expect((await app.request(...stop('admin'))).status).toBe(200);
  });
});

describe("reading a delegation's transcript", () => {
  /** d-1 finished: its transcript, a denied call and an answer, with olga's cards on it. */
  const finished = {
    ...state,
    status: 'completed',
    transcriptSummary: ['user: go', 'assistant: the plan is X'],
    deniedCalls: [{ tool: 'bash', by: 'policy', reason: "'bash' rm -rf / is not allowed" }],
    result: {
      status: 'completed',
      text: 'the plan is X',
      notice: null,
      roundsUsed: 2,
      deniedCalls: [{ tool: 'bash', by: 'policy', reason: "'bash' rm -rf / is not allowed" }],
    },
  } as unknown as DelegationState;
  const reading = { ...facade, get: async () => finished };
  const read = (path: string, who?: Parameters<typeof bearer>[0], method = 'GET') =>
    [path, { method, headers: who === undefined ? {} : bearer(who) }] as const;

  it('a reader gets a summary: no transcript, answer or denied calls, only the read cards', async () => {
    const { app } = makeApp({ auth: true, delegations: reading });
    const response = await app.request(...read('/delegations/d-1', 'reader'));
    expect(response.status).toBe(200);
    const body = (await response.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      delegationId: 'd-1',
      status: 'completed',
      transcriptSummary: [],
      deniedCalls: [],
      pendingCards: [cardOfD1('d-1.2', 'read')],
      decidedCards: [],
      result: { status: 'completed', text: '', deniedCalls: [], roundsUsed: 2 },
      withheld: {
        message:
          "reading the transcript, tool results, messages and answers of delegation d-1 needs the 'admin' role or being the user who started it; this answer is its summary",
      },
    });
    expect(JSON.stringify(body)).not.toContain('the plan is X');
  });

  it.each(['owner', 'admin'] as const)('the %s reads it in full', async (who) => {
    const { app, calls } = makeApp({ auth: true, delegations: reading });
    const response = await app.request(...read('/delegations/d-1', who));
    expect(await response.json()).toEqual(finished);
    // An admin is never looked up; the owner is, once.
    expect(calls.filter((call) => call.method === 'owner')).toHaveLength(who === 'owner' ? 1 : 0);
  });

  it('a delegation started without auth has no owner: only an admin reads it in full', async () => {
    const { app } = makeApp({ auth: true, delegations: { ...reading, owner: async () => null } });
    const owner = await app.request(...read('/delegations/d-1', 'owner'));
    expect(await owner.json()).toMatchObject({ transcriptSummary: [], withheld: {} });
    const admin = await app.request(...read('/delegations/d-1', 'admin'));
    expect(await admin.json()).toEqual(finished);
  });

  it('its event stream is 403 for a reader (GET and HEAD), before anything is read', async () => {
    for (const method of ['GET', 'HEAD']) {
      const { app, calls } = makeApp({ auth: true, delegations: reading });
      const response = await app.request(...read('/delegations/d-1/events', 'reader', method));
      expect(response.status).toBe(403);
      if (method === 'GET') {
        expect(await response.json()).toEqual({
          error: 'forbidden',
          code: 'forbidden',
          message:
            "reading the events of delegation d-1 (its transcript, tool results, messages and answers) needs the 'admin' role or being the user who started it",
        });
      }
      expect(calls.map((call) => call.method)).toEqual(['owner']);
    }
  });

  it('a session cards listing shows a reader only the cards it may decide', async () => {
    const cards = async () => [...state.pendingCards];
    const { app } = makeApp({ auth: true, delegations: { ...reading, cards } });
    const reader = await app.request(...read('/sessions/default/cards', 'reader'));
    expect(await reader.json()).toEqual({ session: 'default', cards: [cardOfD1('d-1.2', 'read')] });
    const owner = await app.request(...read('/sessions/default/cards', 'owner'));
    expect(((await owner.json()) as { cards: unknown[] }).cards).toHaveLength(3);
  });

  it('without auth nothing changes: the full state, the stream, and no owner lookup', async () => {
    const cards = async () => [...state.pendingCards];
    const { app, calls } = makeApp({ delegations: { ...reading, cards } });
    expect(await (await app.request('/delegations/d-1')).json()).toEqual(finished);
    const head = await app.request('/delegations/d-1/events', { method: 'HEAD' });
    expect(head.status).toBe(200);
    const listed = await app.request('/sessions/default/cards');
    expect(((await listed.json()) as { cards: unknown[] }).cards).toHaveLength(3);
    expect(calls.map((call) => call.method)).not.toContain('owner');
  });
});

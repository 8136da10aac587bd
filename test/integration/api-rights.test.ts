/**
 * Rights on cards and stops, with auth on, on real Temporal: the global dev server, a
 * real worker on its own task queue, real HTTP on loopback through startApiServer. The cards are
 * real: the scripted `demo` agent asks to write (a write card), `peeker` asks to read outside the
 * workspace (a read card). Who started a delegation is what the facade recorded at start.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../src/api/http/auth.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createDelegations } from '../../src/temporal/delegations/facade.js';
import { createSessions } from '../../src/temporal/sessions/facade.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

const TOKENS = {
  alice: 'tok-rights-alice', // admin
  dave: 'tok-rights-dave', // another admin
  erinAdmin: 'tok-rights-erin-admin', // erin, as she was when she started her delegation
  erin: 'tok-rights-erin', // erin, without the admin role now
  bob: 'tok-rights-bob', // ops, no admin
  carol: 'tok-rights-carol', // a reader: no roles
} as const;
type Who = keyof typeof TOKENS;

const auth = createAuth(
  {
    auth: {
      tokens: {
        T_ALICE: { user: 'alice', roles: ['admin'] },
        T_DAVE: { user: 'dave', roles: ['admin'] },
        T_ERIN_ADMIN: { user: 'erin', roles: ['admin'] },
        T_ERIN: { user: 'erin', roles: [] },
        T_BOB: { user: 'bob', roles: ['ops'] },
        T_CAROL: { user: 'carol', roles: [] },
      },
    },
  },
  {
    T_ALICE: TOKENS.alice,
    T_DAVE: TOKENS.dave,
    T_ERIN_ADMIN: TOKENS.erinAdmin,
    T_ERIN: TOKENS.erin,
    T_BOB: TOKENS.bob,
    T_CAROL: TOKENS.carol,
  },
);

let harness: Harness;
let server: ApiServer;

beforeAll(async () => {
  harness = await createHarness({
    'README.md': '# rights test workspace\n',
    '.subagents/agents/peeker.md':
      '---\nname: peeker\ndescription: reads outside the workspace\nmodel: scripted:scripts/peeker.yaml\ntools: [read]\n---\nYou peek.\n',
    'scripts/peeker.yaml': `turns:
  - text: Looking outside.
    toolCalls: [{ name: read, arguments: { path: ../outside.txt } }]
  - text: Done looking.
`,
  });
  const delegations = createDelegations(harness.client, {
    namespace: harness.config.temporal.namespace,
    taskQueue: harness.taskQueue,
  });
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    {
      delegations,
      sessions: createSessions(harness.client, delegations, { taskQueue: harness.taskQueue }),
      auth,
    },
  );
});

afterAll(async () => {
  await server?.close();
  await harness?.close();
});

async function call(who: Who, method: string, path: string, body?: unknown) {
  const response = await fetch(`${server.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${TOKENS[who]}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** Starts `agent` as `who` and waits for its first pending card. */
async function parkedOn(who: Who, agent: string): Promise<{ id: string; card: ApprovalCard }> {
  const session = `rights-${randomUUID().slice(0, 8)}`;
  const started = await call(who, 'POST', '/delegations', { agent, task: 'Go', session });
  expect(started.status).toBe(201);
  const card = await eventually(async () => {
    const { status, body } = await call(who, 'GET', `/sessions/${session}/cards`);
    if (status !== 200) throw new Error(`cards answered ${status} ${JSON.stringify(body)}`);
    return (body.cards as ApprovalCard[])[0];
  }, `a pending card of ${agent}`);
  return { id: started.body.delegationId as string, card };
}

const decide = (who: Who, cardId: string, decision: 'approve' | 'deny') =>
  call(who, 'POST', `/cards/${cardId}`, { decision });

async function stillPending(who: Who, delegationId: string, cardId: string): Promise<boolean> {
  const { body } = await call(who, 'GET', `/delegations/${delegationId}`);
  return (body.pendingCards as ApprovalCard[]).some((card) => card.id === cardId);
}

describe('deciding cards needs the rights the tool needs', () => {
  it("a reader and a non-admin can neither approve nor deny an admin's write card; another admin can", async () => {
    const { id, card } = await parkedOn('alice', 'demo');
    expect(card.tool).toBe('write');
    const refusal = {
      error: 'forbidden',
      code: 'forbidden',
      message: `card ${card.id} is for 'write' (write tool): deciding it needs the 'admin' role or being the user who started delegation ${id}`,
    };
    expect(await decide('carol', card.id, 'approve')).toEqual({ status: 403, body: refusal });
    expect(await decide('carol', card.id, 'deny')).toEqual({ status: 403, body: refusal });
    expect(await decide('bob', card.id, 'approve')).toEqual({ status: 403, body: refusal });
    expect(await stillPending('alice', id, card.id)).toBe(true);

    const approved = await decide('dave', card.id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ state: { status: 'approved', decidedBy: 'dave' } });
  });

  it('the user who started it may decide its write card without the admin role', async () => {
    const { card } = await parkedOn('erinAdmin', 'demo');
    expect(card.tool).toBe('write');
    const approved = await decide('erin', card.id, 'approve');
    expect(approved.status).toBe(200);
    expect(approved.body).toMatchObject({ state: { status: 'approved', decidedBy: 'erin' } });
  });

  it('any authenticated caller may decide a read card (reading needs no role)', async () => {
    const { card } = await parkedOn('bob', 'peeker');
    expect(card.tool).toBe('read');
    const denied = await decide('carol', card.id, 'deny');
    expect(denied.status).toBe(200);
    expect(denied.body).toMatchObject({ state: { status: 'denied', decidedBy: 'carol' } });
  });
});

describe('stopping a delegation needs its owner or an admin', () => {
  it('a non-owner without admin is refused; the owner (no admin role) may stop it', async () => {
    const { id } = await parkedOn('bob', 'peeker');
    const refused = await call('carol', 'POST', `/delegations/${id}/stop`);
    expect(refused).toEqual({
      status: 403,
      body: {
        error: 'forbidden',
        code: 'forbidden',
        message: `stopping delegation ${id} needs the 'admin' role or being the user who started it`,
      },
    });
    expect((await call('bob', 'GET', `/delegations/${id}`)).body.status).toBe('parked');
    expect(await call('bob', 'POST', `/delegations/${id}/stop`)).toEqual({
      status: 200,
      body: { stopped: true },
    });
  });

  it("an admin may stop someone else's delegation; a non-admin may not", async () => {
    const { id } = await parkedOn('alice', 'demo');
    expect((await call('bob', 'POST', `/delegations/${id}/stop`)).status).toBe(403);
    expect(await call('dave', 'POST', `/delegations/${id}/stop`)).toEqual({
      status: 200,
      body: { stopped: true },
    });
  });
});

describe('driving a session needs being its owner or an admin', () => {
  it('lets only its owner or an admin send it messages or stop it', async () => {
    const started = await call('bob', 'POST', '/sessions', {});
    expect(started.status).toBe(201);
    const sessionId = started.body.sessionId as string;

    // A message makes the agent act with bob's roles: carol may not send one, nor stop it.
    const carolSends = await call('carol', 'POST', `/sessions/${sessionId}/messages`, {
      text: 'hi',
    });
    expect(carolSends.status).toBe(403);
    expect(carolSends.body.message).toContain(
      `sending to session ${sessionId} needs the 'admin' role`,
    );
    expect((await call('carol', 'POST', `/sessions/${sessionId}/stop`)).status).toBe(403);
    // Nor can an id of no session be probed: 404, whoever asks.
    expect((await call('carol', 'POST', '/sessions/s-nosuchsession/stop')).status).toBe(404);

    expect(
      (await call('bob', 'POST', `/sessions/${sessionId}/messages`, { text: 'hi' })).status,
    ).toBe(202);
    const stopped = await call('alice', 'POST', `/sessions/${sessionId}/stop`);
    expect(stopped.body).toEqual({ stopped: true });
  }, 60_000);
});

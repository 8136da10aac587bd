/**
 * Rights on steering and reviving, with auth on, on real Temporal and real HTTP: as
 * for stopping and forking, only the user who started a delegation or an admin may send it a
 * message or resume it; anyone else gets 403, and reads its messages only as `withheld`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../src/api/http/auth.js';
import type { DelegationState } from '../../src/shared/delegation.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import { steeredAgent } from './support/steered-agent.js';

const TOKENS = {
  alice: 'tok-steer-alice', // admin
  erinAdmin: 'tok-steer-erin-admin', // erin as she starts (bash needs the admin role with auth)
  erin: 'tok-steer-erin', // erin without the admin role: the owner, nothing more
  bob: 'tok-steer-bob', // neither
} as const;
type Who = keyof typeof TOKENS;

const auth = createAuth(
  {
    auth: {
      tokens: {
        T_ALICE: { user: 'alice', roles: ['admin'] },
        T_ERIN_ADMIN: { user: 'erin', roles: ['admin'] },
        T_ERIN: { user: 'erin', roles: [] },
        T_BOB: { user: 'bob', roles: ['ops'] },
      },
    },
  },
  {
    T_ALICE: TOKENS.alice,
    T_ERIN_ADMIN: TOKENS.erinAdmin,
    T_ERIN: TOKENS.erin,
    T_BOB: TOKENS.bob,
  },
);

let harness: Harness;
let server: ApiServer;

beforeAll(async () => {
  harness = await createHarness(steeredAgent);
  server = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    { delegations: harness.delegations, definitions: harness.registry, auth },
  );
}, 60_000);

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

describe('rights on steering and reviving (auth on)', () => {
  it('lets the owner and an admin send and resume; anyone else gets 403', async () => {
    const started = await call('erinAdmin', 'POST', '/delegations', {
      agent: 'steered',
      task: 'Erin task',
      session: 'steer-rights',
    });
    expect(started.status).toBe(201);
    const id = started.body.delegationId as string;
    const parked = await eventually(async () => {
      const state = (await call('erin', 'GET', `/delegations/${id}`)).body as unknown;
      return (state as DelegationState).pendingCards?.length === 1
        ? (state as DelegationState)
        : undefined;
    }, 'a pending card');

    const refused = await call('bob', 'POST', `/delegations/${id}/messages`, { text: 'bob here' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toMatch(/sending a message to delegation/);
    expect(
      (await call('erin', 'POST', `/delegations/${id}/messages`, { text: 'erin note' })).status,
    ).toBe(202);
    expect(
      (await call('alice', 'POST', `/delegations/${id}/messages`, { text: 'admin note' })).status,
    ).toBe(202);
    // A reader who is not its owner sees that messages exist, not what they say.
    const summary = await call('bob', 'GET', `/delegations/${id}`);
    expect(summary.body.messages).toEqual([]);
    expect((summary.body.withheld as { fields: string[] }).fields).toContain('messages');

    expect(
      (await call('erin', 'POST', `/cards/${parked.pendingCards[0]!.id}`, { decision: 'approve' }))
        .status,
    ).toBe(200);
    await eventually(async () => {
      const state = (await call('erin', 'GET', `/delegations/${id}`))
        .body as unknown as DelegationState;
      return state.status === 'completed' ? state : undefined;
    }, 'the delegation to finish');
    const full = (await call('erin', 'GET', `/delegations/${id}`))
      .body as unknown as DelegationState;
    expect(full.result?.text).toBe('Heard: admin note');
    expect(full.messages?.map((message) => [message.text, message.from])).toEqual([
      ['erin note', 'erin'],
      ['admin note', 'alice'],
    ]);

    const notYours = await call('bob', 'POST', `/delegations/${id}/resume`, { text: 'mine now' });
    expect(notYours.status).toBe(403);
    expect(notYours.body.message).toMatch(/resuming delegation/);
    const resumed = await call('erinAdmin', 'POST', `/delegations/${id}/resume`, { text: 'go on' });
    expect(resumed.status).toBe(201);
    // The new delegation is its resumer's: bob may not steer it either.
    const next = resumed.body.delegationId as string;
    expect((await call('bob', 'POST', `/delegations/${next}/messages`, { text: 'x' })).status).toBe(
      403,
    );
  }, 90_000);
});

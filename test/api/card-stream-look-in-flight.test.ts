/**
 * The inbox stream over real HTTP while a look at the pending cards is still in flight: on a busy
 * machine the listing (visibility, then each delegation's state) takes seconds, and a decision
 * applied through this API must not wait for it. The look here is held on a promise the test
 * releases; the facade is the recording stub (real Temporal: test/integration/cards-inbox.test.ts,
 * and the console's test/browser/inbox.test.ts).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalCard } from '../../src/shared/delegation.js';
import { loadConfig } from '../../src/config/load.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { eventually } from '../support/eventually.js';
import { followEventStream } from '../support/follow-event-stream.js';
import { card, decided, stateOf } from './inbox-fixtures.js';
import { stubDelegations } from './stub-delegations.js';

const POLL_MS = 20;
const quiet = { error: () => {}, info: () => {}, warn: () => {} };
const servers: ApiServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

const PENDING = card('d-1.1', 'write');
const APPROVED = decided(PENDING, 'approved', 'alice', 'from the console');
const CLOSED = {
  cardId: 'd-1.1',
  delegationId: 'd-1',
  outcome: {
    decision: 'approve',
    decidedBy: 'alice',
    reason: 'from the console',
    decidedAt: '2026-01-01T00:00:09.000Z',
  },
};

/** A promise and its resolve, for a look the test lets finish when it says so. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * The API over real HTTP on a facade whose first listing (the snapshot) shows PENDING at once;
 * the second is taken, then held until the test releases it, and answers `held`; every later one
 * answers `later` at once. Deciding PENDING answers APPROVED.
 */
async function serveWithHeldLook(held: ApprovalCard[], later: ApprovalCard[]) {
  const release = gate();
  const lookBegan = gate();
  let looks = 0;
  const { delegations } = stubDelegations({
    cards: async () => {
      looks += 1;
      if (looks === 1) return [PENDING];
      if (looks > 2) return later;
      lookBegan.open();
      await release.opened;
      return held;
    },
    decide: async () => APPROVED,
    get: async (id) => stateOf(id, [APPROVED]),
  });
  const workspace = mkdtempSync(join(tmpdir(), 'deputy-inbox-race-'));
  const server = await startApiServer(loadConfig({ workspace, port: 0 }, {}), {
    delegations,
    logger: quiet,
    localSocket: false,
    events: { pollMs: POLL_MS },
  });
  servers.push(server);
  return { url: server.url, release, lookBegan, looks: () => looks };
}

/**
 * Opens the stream, approves PENDING through the API while the second look is held, and waits
 * for the close; then releases the look and lets five more run. Returns what the stream read,
 * the close, and when the look was released.
 */
async function decideDuringHeldLook(held: ApprovalCard[], later: ApprovalCard[]) {
  const staged = await serveWithHeldLook(held, later);
  const stream = followEventStream(await fetch(`${staged.url}/cards/events`));
  try {
    await eventually(async () => stream.named('snapshot')[0], 'snapshot');
    await staged.lookBegan.opened;
    const decision = await fetch(`${staged.url}/cards/d-1.1`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ decision: 'approve', reason: 'from the console' }),
    });
    expect(decision.status).toBe(200);
    const closed = await eventually(
      async () => stream.named('card-closed')[0],
      'card-closed while the look is held',
      3_000,
    );
    expect(staged.looks()).toBe(2); // still in flight: no look after it began
    const releasedAt = Date.now();
    staged.release.open();
    const landed = staged.looks();
    await eventually(async () => (staged.looks() >= landed + 5 ? true : undefined), 'more looks');
    return { stream, closed, releasedAt };
  } finally {
    staged.release.open();
    await stream.close();
  }
}

describe('GET /cards/events while a look is in flight (real HTTP)', () => {
  it('closes a card decided here at once, before the look in flight returns, and the look that lands does not reopen it', async () => {
    // The held look's listing was taken before the decision: it still shows the card, and so do
    // the next ones (visibility lags).
    const { stream, closed, releasedAt } = await decideDuringHeldLook([PENDING], [PENDING]);
    expect(closed.receivedAt).toBeLessThan(releasedAt);
    expect(closed.data).toEqual(CLOSED);
    expect(stream.events.map(({ name }) => name)).toEqual(['snapshot', 'card-closed']);
  });

  it('does not close the card twice when the look that lands no longer lists it', async () => {
    const { stream } = await decideDuringHeldLook([], []);
    expect(stream.events.map(({ name, data }) => [name, data])).toEqual([
      ['snapshot', { cards: [PENDING] }],
      ['card-closed', CLOSED],
    ]);
  });
});

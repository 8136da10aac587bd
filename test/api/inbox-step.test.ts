/**
 * The inbox stream's one step (src/api/cards/inbox-step.ts): which events the approvals stream
 * sends on attach, after a look, a failed look, a decision applied here, or a late outcome, and
 * the inbox it keeps. Pure: the listings, settlements and clock are arguments. The stream itself
 * over HTTP: card-inbox.test.ts and card-stream-look-in-flight.test.ts; on real Temporal:
 * test/integration/cards-inbox.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  emptyInbox,
  LATE_OUTCOME_GIVE_UP_MS,
  leftListing,
  stepInbox,
  type Inbox,
  type InboxStep,
  type Settlement,
} from '../../src/api/cards/inbox-step.js';
import type { CardOutcome } from '../../src/api/cards/stream-events.js';
import { cardVisibility } from '../../src/rights/card-visibility.js';
import type { ApprovalCard } from '../../src/shared/delegation.js';
import { card as cardFor, decided } from './inbox-fixtures.js';

const T0 = Date.parse('2026-01-01T00:00:10.000Z');
const card = (id: string) => cardFor(id, 'write');

const approved = (base: ApprovalCard) => decided(base, 'approved', 'alice', 'fine');

const OUTCOME: CardOutcome = {
  decision: 'approve',
  decidedBy: 'alice',
  reason: 'fine',
  decidedAt: '2026-01-01T00:00:09.000Z',
};

/** An inbox that has told its client `pending` (its last look answered). */
function inboxOf(pending: ApprovalCard[], closedHere: Array<[string, number]> = []): Inbox {
  return {
    pending: new Map(pending.map((c) => [c.id, c])),
    closedHere: new Map(closedHere),
    lastLook: 'answered',
  };
}

const settled = (...entries: Array<[string, Settlement]>) => new Map(entries);
const ids = (inbox: Inbox) => [...inbox.pending.keys()];

/** A look that answered with `listing`, its leavers settled as `settlements` say. */
function look(
  inbox: Inbox,
  listing: ApprovalCard[],
  settlements: Map<string, Settlement> = settled(),
  now = T0,
): InboxStep {
  return stepInbox(inbox, { kind: 'listed', listing, settlements }, now);
}

const decidedHere = (inbox: Inbox, cards: ApprovalCard[], now = T0) =>
  stepInbox(inbox, { kind: 'decided-here', cards }, now);

describe('the inbox step: what a client is told', () => {
  it('on attach, sends the listing as it is as a snapshot', () => {
    const [a, b] = [card('d-1.1'), card('d-2.1')];
    const step = look(emptyInbox(), [a, b]);
    expect(step.events).toEqual([{ event: 'snapshot', data: { cards: [a, b] } }]);
    expect(ids(step.next)).toEqual(['d-1.1', 'd-2.1']);
    expect(step.awaitingOutcome).toEqual([]);
  });

  it('opens the cards that joined the listing, in its order', () => {
    const [a, b, c] = [card('d-1.1'), card('d-2.1'), card('d-3.1')];
    const step = look(inboxOf([a]), [a, b, c]);
    expect(step.events).toEqual([
      { event: 'card-opened', data: { card: b } },
      { event: 'card-opened', data: { card: c } },
    ]);
    expect(ids(step.next)).toEqual(['d-1.1', 'd-2.1', 'd-3.1']);
    expect(step.awaitingOutcome).toEqual([]);
  });

  it('closes a card decided elsewhere with the outcome its delegation tells', () => {
    const [a, b] = [card('d-1.1'), card('d-2.1')];
    const step = look(
      inboxOf([a, b]),
      [b],
      settled(['d-1.1', { status: 'closed', outcome: OUTCOME }]),
    );
    expect(step.events).toEqual([
      { event: 'card-closed', data: { cardId: 'd-1.1', delegationId: 'd-1', outcome: OUTCOME } },
    ]);
    expect(ids(step.next)).toEqual(['d-2.1']);
  });

  it('closes a card whose delegation was stopped, denied by TaskStop', () => {
    const a = card('d-1.1');
    const stopped: CardOutcome = {
      decision: 'deny',
      decidedBy: 'TaskStop',
      reason: 'stopped',
      decidedAt: '2026-01-01T00:00:09.500Z',
    };
    const step = look(inboxOf([a]), [], settled(['d-1.1', { status: 'closed', outcome: stopped }]));
    expect(step.events).toEqual([
      { event: 'card-closed', data: { cardId: 'd-1.1', delegationId: 'd-1', outcome: stopped } },
    ]);
    expect(ids(step.next)).toEqual([]);
  });

  it('never tells a reader of a card they may not decide, even when it is decided here', async () => {
    // olga started d-1 (a write card) and d-2 (a read card); rita is a reader, no roles.
    const [write, read] = [cardFor('d-1.1', 'write'), cardFor('d-2.1', 'read')];
    const visible = cardVisibility({ owner: async () => 'olga' }, { id: 'rita', roles: [] });
    const attach = look(emptyInbox(), await visible([write, read]));
    expect(attach.events).toEqual([{ event: 'snapshot', data: { cards: [read] } }]);
    // Every stream of this process hears of a decision applied here: rita's is told nothing.
    const closing = decidedHere(attach.next, [approved(write)]);
    expect(closing.events).toEqual([]);
    // Nor when the listing drops it, nor while it still shows it.
    expect(look(closing.next, await visible([read]), settled(), T0 + 100).events).toEqual([]);
    expect(look(closing.next, await visible([write, read]), settled(), T0 + 100).events).toEqual(
      [],
    );
  });

  it('tells nothing when nothing changed', () => {
    const [a, b] = [card('d-1.1'), card('d-2.1')];
    const step = look(inboxOf([a, b]), [a, b]);
    expect(step.events).toEqual([]);
    expect(ids(step.next)).toEqual(['d-1.1', 'd-2.1']);
    expect(decidedHere(step.next, []).events).toEqual([]);
    expect(stepInbox(step.next, { kind: 'outcomes-learned', outcomes: [] }, T0).events).toEqual([]);
  });
});

describe('the inbox step after a look', () => {
  it('closes the cards that left it, oldest first, with their outcome when it is known, before any opened', () => {
    const [a, b, c, d] = [card('d-1.1'), card('d-2.1'), card('d-3.1'), card('d-4.1')];
    const step = look(
      inboxOf([a, b, c]),
      [d],
      // Answered in another order than the cards' own.
      settled(
        ['d-3.1', { status: 'unanswered' }],
        ['d-2.1', { status: 'closed' }],
        ['d-1.1', { status: 'closed', outcome: OUTCOME }],
      ),
    );
    expect(step.events).toEqual([
      { event: 'card-closed', data: { cardId: 'd-1.1', delegationId: 'd-1', outcome: OUTCOME } },
      { event: 'card-closed', data: { cardId: 'd-2.1', delegationId: 'd-2' } },
      { event: 'card-closed', data: { cardId: 'd-3.1', delegationId: 'd-3' } },
      { event: 'card-opened', data: { card: d } },
    ]);
    expect(ids(step.next)).toEqual(['d-4.1']);
    // Its outcome is followed, and told as card-outcome once learned.
    expect(step.awaitingOutcome).toEqual([c]);
  });

  it('keeps a card the listing missed while its live delegation still has it pending', () => {
    const [a, b] = [card('d-1.1'), card('d-2.1')];
    const step = look(inboxOf([a, b]), [b], settled(['d-1.1', { status: 'pending' }]));
    expect(step.events).toEqual([]);
    expect(ids(step.next)).toEqual(['d-2.1', 'd-1.1']);
  });

  it('asks about exactly the pending cards the listing no longer shows, and none for a snapshot', () => {
    const [a, b, c] = [card('d-1.1'), card('d-2.1'), card('d-3.1')];
    expect(leftListing(inboxOf([a, b]), [b, c])).toEqual([a]);
    expect(leftListing(emptyInbox(), [b, c])).toEqual([]);
    const failed = stepInbox(inboxOf([a, b]), { kind: 'look-failed', failure: 'internal' }, T0);
    expect(leftListing(failed.next, [b, c])).toEqual([]);
  });

  it('does not reopen a card closed here that a lagging listing still shows, nor close it again', () => {
    const [a, b] = [card('d-1.1'), card('d-2.1')];
    const closing = decidedHere(inboxOf([a, b]), [approved(a)]);
    expect(closing.events).toEqual([
      { event: 'card-closed', data: { cardId: 'd-1.1', delegationId: 'd-1', outcome: OUTCOME } },
    ]);
    // The look in flight took its listing before the decision; the next ones lag too.
    let inbox = closing.next;
    for (const at of [T0 + 100, T0 + 5_000, T0 + LATE_OUTCOME_GIVE_UP_MS]) {
      expect(leftListing(inbox, [a, b])).toEqual([]);
      const step = look(inbox, [a, b], settled(), at);
      expect(step.events).toEqual([]);
      expect(ids(step.next)).toEqual(['d-2.1']);
      inbox = step.next;
    }
    expect([...inbox.closedHere.keys()]).toEqual(['d-1.1']);
  });

  it('tells nothing of a card closed here that the look landing no longer lists, whatever it found', () => {
    const a = card('d-1.1');
    // The look began with the card pending, so it asked its delegation about it...
    const before = inboxOf([a]);
    expect(leftListing(before, [])).toEqual([a]);
    // ...and a decision applied here closed it while the look was in flight.
    const inbox = decidedHere(before, [approved(a)]).next;
    const step = look(
      inbox,
      [],
      settled(['d-1.1', { status: 'closed', outcome: OUTCOME }]),
      T0 + 50,
    );
    expect(step.events).toEqual([]);
    expect(step.awaitingOutcome).toEqual([]);
    expect(ids(step.next)).toEqual([]);
    // The listing caught up: nothing is held back any more.
    expect(step.next.closedHere.size).toBe(0);
  });

  it('believes a listing that still shows a card closed here after LATE_OUTCOME_GIVE_UP_MS, and opens it', () => {
    const a = card('d-1.1');
    const inbox = decidedHere(inboxOf([a]), [approved(a)]).next;
    const step = look(inbox, [a], settled(), T0 + LATE_OUTCOME_GIVE_UP_MS + 1);
    expect(step.events).toEqual([{ event: 'card-opened', data: { card: a } }]);
    expect(ids(step.next)).toEqual(['d-1.1']);
    expect(step.next.closedHere.size).toBe(0);
  });
});

describe('the inbox step on a decision applied here', () => {
  it('closes only pending cards, and keeps any decided one out of a lagging listing', () => {
    const [a, b, c] = [card('d-1.1'), card('d-2.1'), card('d-3.1')];
    // b is still pending as reported (no outcome); c was never told to this client.
    const step = decidedHere(inboxOf([a, b]), [approved(a), b, approved(c)]);
    expect(step.events).toEqual([
      { event: 'card-closed', data: { cardId: 'd-1.1', delegationId: 'd-1', outcome: OUTCOME } },
    ]);
    expect(ids(step.next)).toEqual(['d-2.1']);
    expect([...step.next.closedHere]).toEqual([
      ['d-1.1', T0],
      ['d-3.1', T0],
    ]);
    // A look whose listing was taken before c's decision does not open it.
    expect(look(step.next, [b, c], settled(), T0 + 10).events).toEqual([]);
  });

  it('closes a card once, however often its decision is told', () => {
    const a = card('d-1.1');
    const first = decidedHere(inboxOf([a]), [approved(a)]);
    expect(decidedHere(first.next, [approved(a)], T0 + 1).events).toEqual([]);
  });
});

describe('the inbox step on a failed look, and the snapshot after it', () => {
  it('tells an outage once, a different failure again, and sends the next listing as a snapshot', () => {
    const [a, b] = [card('d-1.1'), card('d-2.1')];
    const down = { kind: 'look-failed', failure: 'unavailable' } as const;
    const first = stepInbox(inboxOf([a]), down, T0);
    expect(first.events).toEqual([
      {
        event: 'error',
        data: {
          error: 'unavailable',
          message: 'Temporal is not reachable; the stream keeps trying',
        },
      },
    ]);
    const again = stepInbox(first.next, down, T0 + 300);
    expect(again.events).toEqual([]);
    const other = stepInbox(again.next, { kind: 'look-failed', failure: 'internal' }, T0 + 600);
    expect(other.events).toEqual([
      {
        event: 'error',
        data: {
          error: 'internal',
          message: 'reading the pending cards failed; the stream keeps trying',
        },
      },
    ]);
    // The pending cards are kept meanwhile: a decision applied here still closes them.
    expect(ids(other.next)).toEqual(['d-1.1']);
    const back = look(other.next, [b], settled(), T0 + 900);
    expect(back.events).toEqual([{ event: 'snapshot', data: { cards: [b] } }]);
    expect(ids(back.next)).toEqual(['d-2.1']);
    expect(look(back.next, [b], settled(), T0 + 1_200).events).toEqual([]);
  });

  it('leaves out of the snapshot the cards closed here that the listing still shows', () => {
    const [a, b, c] = [card('d-1.1'), card('d-2.1'), card('d-3.1')];
    const closing = decidedHere(inboxOf([a, b]), [approved(a)]);
    const failed = stepInbox(closing.next, { kind: 'look-failed', failure: 'internal' }, T0 + 1);
    const step = look(failed.next, [a, b, c], settled(), T0 + 2_000);
    expect(step.events).toEqual([{ event: 'snapshot', data: { cards: [b, c] } }]);
    expect(ids(step.next)).toEqual(['d-2.1', 'd-3.1']);
    expect([...step.next.closedHere.keys()]).toEqual(['d-1.1']);
    // And the outage outlasting the give-up: the listing is believed.
    const late = look(failed.next, [a, b], settled(), T0 + LATE_OUTCOME_GIVE_UP_MS + 1);
    expect(late.events).toEqual([{ event: 'snapshot', data: { cards: [a, b] } }]);
  });
});

describe('the inbox step on late outcomes', () => {
  it('tells each learned outcome as card-outcome, and changes nothing else', () => {
    const [a, b] = [card('d-1.1'), card('d-2.1')];
    const inbox = inboxOf([b]);
    const step = stepInbox(
      inbox,
      { kind: 'outcomes-learned', outcomes: [{ card: a, decided: approved(a) }] },
      T0,
    );
    expect(step.events).toEqual([
      { event: 'card-outcome', data: { cardId: 'd-1.1', delegationId: 'd-1', outcome: OUTCOME } },
    ]);
    expect(step.next).toEqual(inbox);
  });

  it('tells nothing of a card its delegation still reports pending', () => {
    const a = card('d-1.1');
    const outcomes = [{ card: a, decided: a }];
    expect(stepInbox(inboxOf([]), { kind: 'outcomes-learned', outcomes }, T0).events).toEqual([]);
  });
});

/**
 * The inbox diff (src/api/cards/inbox-diff.ts): which events the approvals stream sends after a
 * look, a decision applied here, or an outage. Pure: the listings, settlements and clock are
 * arguments. The stream itself over HTTP: card-inbox.test.ts and
 * card-stream-look-in-flight.test.ts.
 */
import { describe, expect, it } from 'vitest';
import {
  closeDecided,
  inboxChanges,
  inboxSnapshot,
  LATE_OUTCOME_GIVE_UP_MS,
  leftListing,
  type Inbox,
  type Settlement,
} from '../../src/api/cards/inbox-diff.js';
import type { CardOutcome } from '../../src/api/cards/stream-events.js';
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

function inboxOf(pending: ApprovalCard[], closedHere: Array<[string, number]> = []): Inbox {
  return {
    pending: new Map(pending.map((c) => [c.id, c])),
    closedHere: new Map(closedHere),
  };
}

const settled = (...entries: Array<[string, Settlement]>) => new Map(entries);
const ids = (inbox: Inbox) => [...inbox.pending.keys()];

describe('inboxChanges', () => {
  it('opens the cards that joined the listing, in its order', () => {
    const [a, b, c] = [card('d-1.1'), card('d-2.1'), card('d-3.1')];
    const step = inboxChanges(inboxOf([a]), [a, b, c], settled(), T0);
    expect(step.events).toEqual([
      { event: 'card-opened', data: { card: b } },
      { event: 'card-opened', data: { card: c } },
    ]);
    expect(ids(step.inbox)).toEqual(['d-1.1', 'd-2.1', 'd-3.1']);
    expect(step.unanswered).toEqual([]);
  });

  it('closes the cards that left it, oldest first, with their outcome when it is known, before any opened', () => {
    const [a, b, c, d] = [card('d-1.1'), card('d-2.1'), card('d-3.1'), card('d-4.1')];
    const step = inboxChanges(
      inboxOf([a, b, c]),
      [d],
      // Answered in another order than the cards' own.
      settled(
        ['d-3.1', { status: 'unanswered' }],
        ['d-2.1', { status: 'closed' }],
        ['d-1.1', { status: 'closed', outcome: OUTCOME }],
      ),
      T0,
    );
    expect(step.events).toEqual([
      { event: 'card-closed', data: { cardId: 'd-1.1', delegationId: 'd-1', outcome: OUTCOME } },
      { event: 'card-closed', data: { cardId: 'd-2.1', delegationId: 'd-2' } },
      { event: 'card-closed', data: { cardId: 'd-3.1', delegationId: 'd-3' } },
      { event: 'card-opened', data: { card: d } },
    ]);
    expect(ids(step.inbox)).toEqual(['d-4.1']);
    // Its outcome is followed as card-outcome (late-outcomes.ts).
    expect(step.unanswered).toEqual([c]);
  });

  it('keeps a card the listing missed while its live delegation still has it pending', () => {
    const [a, b] = [card('d-1.1'), card('d-2.1')];
    const step = inboxChanges(inboxOf([a, b]), [b], settled(['d-1.1', { status: 'pending' }]), T0);
    expect(step.events).toEqual([]);
    expect(ids(step.inbox)).toEqual(['d-2.1', 'd-1.1']);
  });

  it('asks about exactly the pending cards the listing no longer shows', () => {
    const [a, b, c] = [card('d-1.1'), card('d-2.1'), card('d-3.1')];
    expect(leftListing(inboxOf([a, b]), [b, c])).toEqual([a]);
  });

  it('does not reopen a card closed here that a lagging listing still shows, nor close it again', () => {
    const [a, b] = [card('d-1.1'), card('d-2.1')];
    const closing = closeDecided(inboxOf([a, b]), [approved(a)], T0);
    expect(closing.events).toEqual([
      { event: 'card-closed', data: { cardId: 'd-1.1', delegationId: 'd-1', outcome: OUTCOME } },
    ]);
    // The look in flight took its listing before the decision; the next ones lag too.
    let inbox = closing.inbox;
    for (const at of [T0 + 100, T0 + 5_000, T0 + LATE_OUTCOME_GIVE_UP_MS]) {
      expect(leftListing(inbox, [a, b])).toEqual([]);
      const step = inboxChanges(inbox, [a, b], settled(), at);
      expect(step.events).toEqual([]);
      expect(ids(step.inbox)).toEqual(['d-2.1']);
      inbox = step.inbox;
    }
    expect([...inbox.closedHere.keys()]).toEqual(['d-1.1']);
  });

  it('tells nothing of a card closed here that the look landing no longer lists, whatever it found', () => {
    const a = card('d-1.1');
    // The look began with the card pending, so it asked its delegation about it...
    const before = inboxOf([a]);
    expect(leftListing(before, [])).toEqual([a]);
    // ...and a decision applied here closed it while the look was in flight.
    const inbox = closeDecided(before, [approved(a)], T0).inbox;
    const step = inboxChanges(
      inbox,
      [],
      settled(['d-1.1', { status: 'closed', outcome: OUTCOME }]),
      T0 + 50,
    );
    expect(step.events).toEqual([]);
    expect(step.unanswered).toEqual([]);
    expect(ids(step.inbox)).toEqual([]);
    // The listing caught up: nothing is held back any more.
    expect(step.inbox.closedHere.size).toBe(0);
  });

  it('believes a listing that still shows a card closed here after LATE_OUTCOME_GIVE_UP_MS, and opens it', () => {
    const a = card('d-1.1');
    const inbox = closeDecided(inboxOf([a]), [approved(a)], T0).inbox;
    const step = inboxChanges(inbox, [a], settled(), T0 + LATE_OUTCOME_GIVE_UP_MS + 1);
    expect(step.events).toEqual([{ event: 'card-opened', data: { card: a } }]);
    expect(ids(step.inbox)).toEqual(['d-1.1']);
    expect(step.inbox.closedHere.size).toBe(0);
  });
});

describe('closeDecided', () => {
  it('closes only pending cards, and keeps any decided one out of a lagging listing', () => {
    const [a, b, c] = [card('d-1.1'), card('d-2.1'), card('d-3.1')];
    // b is still pending as reported (no outcome); c was never told to this client.
    const step = closeDecided(inboxOf([a, b]), [approved(a), b, approved(c)], T0);
    expect(step.events).toEqual([
      { event: 'card-closed', data: { cardId: 'd-1.1', delegationId: 'd-1', outcome: OUTCOME } },
    ]);
    expect(ids(step.inbox)).toEqual(['d-2.1']);
    expect([...step.inbox.closedHere]).toEqual([
      ['d-1.1', T0],
      ['d-3.1', T0],
    ]);
    // A look whose listing was taken before c's decision does not open it.
    expect(inboxChanges(step.inbox, [b, c], settled(), T0 + 10).events).toEqual([]);
  });

  it('closes a card once, however often its decision is told', () => {
    const a = card('d-1.1');
    const first = closeDecided(inboxOf([a]), [approved(a)], T0);
    expect(closeDecided(first.inbox, [approved(a)], T0 + 1).events).toEqual([]);
  });
});

describe('inboxSnapshot', () => {
  it('after an outage, leaves out the cards closed here that the listing still shows', () => {
    const [a, b, c] = [card('d-1.1'), card('d-2.1'), card('d-3.1')];
    const inbox = closeDecided(inboxOf([a, b]), [approved(a)], T0).inbox;
    const step = inboxSnapshot([a, b, c], inbox.closedHere, T0 + 2_000);
    expect(step.events).toEqual([{ event: 'snapshot', data: { cards: [b, c] } }]);
    expect(ids(step.inbox)).toEqual(['d-2.1', 'd-3.1']);
    expect([...step.inbox.closedHere.keys()]).toEqual(['d-1.1']);
    // And the outage outlasting the give-up: the listing is believed.
    const late = inboxSnapshot([a, b], inbox.closedHere, T0 + LATE_OUTCOME_GIVE_UP_MS + 1);
    expect(late.events).toEqual([{ event: 'snapshot', data: { cards: [a, b] } }]);
  });

  it('on attach, is the listing as it is', () => {
    const [a, b] = [card('d-1.1'), card('d-2.1')];
    const step = inboxSnapshot([a, b], new Map(), T0);
    expect(step.events).toEqual([{ event: 'snapshot', data: { cards: [a, b] } }]);
    expect(ids(step.inbox)).toEqual(['d-1.1', 'd-2.1']);
  });
});

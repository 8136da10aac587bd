/**
 * The approvals inbox as a pure diff: what `GET /cards/events` (stream.ts) sends, given what it
 * last told its client, a fresh listing of the pending cards, the cards this process closed
 * itself, and how the cards that left the listing were settled (settlements.ts asks their
 * delegations). No I/O, and the time is an argument, so every rule is unit-tested on its own.
 *
 * A decision applied through this API process closes its card at once (closeDecided), while the
 * listing follows visibility and lags (seconds on a loaded machine): a card closed here is not
 * opened again, kept pending or closed twice by a listing that still shows it, and a snapshot
 * leaves it out, until the listing drops it or LATE_OUTCOME_GIVE_UP_MS have passed (then the
 * listing is believed).
 */
import type { ApprovalCard } from '../../shared/delegation.js';
import { outcomeOf, type CardOutcome, type CardStreamEvent } from './stream-events.js';

/** What a stream has told its client, and the cards it closed on a decision applied here. */
export interface Inbox {
  /** The pending cards by id, oldest first. */
  pending: ReadonlyMap<string, ApprovalCard>;
  /** Card id -> when (epoch ms) a decision applied through this process closed it. */
  closedHere: ReadonlyMap<string, number>;
}

/** How a card that left the listing was settled, as its delegation told (settlements.ts). */
export type Settlement =
  /** Decided, expired, or its delegation ended or is gone; `outcome` when it is known. */
  | { status: 'closed'; outcome?: CardOutcome }
  /** Its live delegation still has it pending: the listing missed it (a state query failed). */
  | { status: 'pending' }
  /** Its delegation did not answer in time: closed now, the outcome follows as `card-outcome`. */
  | { status: 'unanswered' };

/** An inbox, and the events that tell the client how it got there. */
export interface InboxStep {
  inbox: Inbox;
  events: CardStreamEvent[];
}

export interface InboxChanges extends InboxStep {
  /** Cards closed without an outcome because their delegation did not answer in time. */
  unanswered: ApprovalCard[];
}

/**
 * How long a lagging listing is not believed about a card closed here, and how long a late
 * outcome is awaited (late-outcomes.ts), milliseconds.
 */
export const LATE_OUTCOME_GIVE_UP_MS = 30_000;

/** The inbox from a listing alone: on attach, and once Temporal answers again after an outage. */
export function inboxSnapshot(
  listing: ApprovalCard[],
  closedHere: Inbox['closedHere'],
  now: number,
): InboxStep {
  const believed = believedListing(listing, closedHere, now);
  return {
    inbox: { pending: believed.listed, closedHere: believed.closedHere },
    events: [{ event: 'snapshot', data: { cards: [...believed.listed.values()] } }],
  };
}

/** The pending cards `listing` no longer shows: their delegations are asked how they settled. */
export function leftListing(inbox: Inbox, listing: ApprovalCard[]): ApprovalCard[] {
  const listed = new Set(listing.map((card) => card.id));
  return [...inbox.pending.values()].filter((card) => !listed.has(card.id));
}

/**
 * The inbox after a look: the cards that left it (closed, oldest first), then those that joined.
 * `inbox` is the stream's as the look lands: a card a decision closed meanwhile is in neither
 * its pending cards nor (while listed) the listing, so nothing is told of it again.
 */
export function inboxChanges(
  inbox: Inbox,
  listing: ApprovalCard[],
  settlements: ReadonlyMap<string, Settlement>,
  now: number,
): InboxChanges {
  const { listed, closedHere } = believedListing(listing, inbox.closedHere, now);
  const pending = new Map(listed);
  const events: CardStreamEvent[] = [];
  const unanswered: ApprovalCard[] = [];
  for (const card of inbox.pending.values()) {
    if (listed.has(card.id)) continue;
    // Not asked about in this look (it cannot happen: pending cards only leave during one):
    // kept, and the next look asks.
    const settlement = settlements.get(card.id) ?? { status: 'pending' };
    if (settlement.status === 'pending') {
      pending.set(card.id, card);
      continue;
    }
    if (settlement.status === 'unanswered') unanswered.push(card);
    events.push(closed(card, settlement.status === 'closed' ? settlement.outcome : undefined));
  }
  for (const card of listed.values()) {
    if (!inbox.pending.has(card.id)) events.push({ event: 'card-opened', data: { card } });
  }
  return { inbox: { pending, closedHere }, events, unanswered };
}

/**
 * Closes the pending cards decided through this process, with the outcome it applied, and
 * remembers every decided one as closed here, so a lagging listing does not open it (again).
 */
export function closeDecided(inbox: Inbox, decided: ApprovalCard[], now: number): InboxStep {
  const pending = new Map(inbox.pending);
  const closedHere = new Map(inbox.closedHere);
  const events: CardStreamEvent[] = [];
  for (const card of decided) {
    const outcome = outcomeOf(card);
    if (outcome === undefined) continue;
    closedHere.set(card.id, now);
    if (pending.delete(card.id)) events.push(closed(card, outcome));
  }
  return { inbox: { pending, closedHere }, events };
}

/**
 * The listing by id without the cards closed here that it still shows; a card closed here that
 * it dropped, or still shows after LATE_OUTCOME_GIVE_UP_MS, is forgotten.
 */
function believedListing(
  listing: ApprovalCard[],
  closedHere: Inbox['closedHere'],
  now: number,
): { listed: Map<string, ApprovalCard>; closedHere: Map<string, number> } {
  const listed = new Map(listing.map((card) => [card.id, card]));
  const kept = new Map<string, number>();
  for (const [cardId, since] of closedHere) {
    if (!listed.has(cardId) || now - since > LATE_OUTCOME_GIVE_UP_MS) continue;
    kept.set(cardId, since);
    listed.delete(cardId);
  }
  return { listed, closedHere: kept };
}

function closed(card: ApprovalCard, outcome: CardOutcome | undefined): CardStreamEvent {
  return {
    event: 'card-closed',
    data: {
      cardId: card.id,
      delegationId: card.delegationId,
      ...(outcome === undefined ? {} : { outcome }),
    },
  };
}

/**
 * The approvals inbox stream's one step, pure: given what `GET /cards/events` (stream.ts) has
 * told its client and what it learned since (a look's listing with how the cards that left it
 * were settled, a look that failed, decisions applied through this process, late outcomes), the
 * events to send and the inbox to keep. Every event of the stream is shaped here. No I/O, and the
 * time is an argument, so every rule is unit-tested on its own; the loop around it looks, waits
 * and writes.
 *
 * A decision applied through this API process closes its card at once, while the listing follows
 * visibility and lags (seconds on a loaded machine): a card closed here is not opened again, kept
 * pending or closed twice by a listing that still shows it, and a snapshot leaves it out, until
 * the listing drops it or LATE_OUTCOME_GIVE_UP_MS have passed (then the listing is believed).
 */
import type { ApprovalCard } from '../../shared/delegation.js';
import { outcomeOf, type CardOutcome, type CardStreamEvent } from './stream-events.js';

/** Why a look failed: Temporal out of reach, or anything else (told without its message). */
export type LookFailure = 'unavailable' | 'internal';

/** What a stream has told its client, and the cards it closed on a decision applied here. */
export interface Inbox {
  /** The pending cards by id, oldest first. */
  pending: ReadonlyMap<string, ApprovalCard>;
  /** Card id -> when (epoch ms) a decision applied through this process closed it. */
  closedHere: ReadonlyMap<string, number>;
  /**
   * How the last look went: `none` before the first. A failure is told once per outage, and
   * after it (as after `none`) the next look that answers is sent as a snapshot, which the
   * client puts in place of its list.
   */
  lastLook: 'none' | 'answered' | LookFailure;
}

/** How a card that left the listing was settled, as its delegation told (settlements.ts). */
export type Settlement =
  /** Decided, expired, or its delegation ended or is gone; `outcome` when it is known. */
  | { status: 'closed'; outcome?: CardOutcome }
  /** Its live delegation still has it pending: the listing missed it (a state query failed). */
  | { status: 'pending' }
  /** Its delegation did not answer in time: closed now, the outcome follows as `card-outcome`. */
  | { status: 'unanswered' };

/** A card closed without its outcome, and the same card as its delegation later told it decided. */
export interface LearnedOutcome {
  card: ApprovalCard;
  decided: ApprovalCard;
}

/** What the stream learned since its last step. */
export type InboxInput =
  /** A look answered: the listing, and how the pending cards it no longer shows were settled. */
  | { kind: 'listed'; listing: ApprovalCard[]; settlements: ReadonlyMap<string, Settlement> }
  | { kind: 'look-failed'; failure: LookFailure }
  /** Decisions applied through this process: the cards as their delegations reported them. */
  | { kind: 'decided-here'; cards: ApprovalCard[] }
  /** Outcomes of cards closed without one, told by their delegations since (late-outcomes.ts). */
  | { kind: 'outcomes-learned'; outcomes: LearnedOutcome[] };

/** The inbox after a step, and the events that tell the client how it got there. */
export interface InboxStep {
  next: Inbox;
  events: CardStreamEvent[];
  /** Cards closed without an outcome because their delegation did not answer in time. */
  awaitingOutcome: ApprovalCard[];
}

/**
 * How long a lagging listing is not believed about a card closed here, and how long a late
 * outcome is awaited (late-outcomes.ts), milliseconds.
 */
export const LATE_OUTCOME_GIVE_UP_MS = 30_000;

/** A stream's inbox on attach: nothing told yet, so its first look is sent as a snapshot. */
export function emptyInbox(): Inbox {
  return { pending: new Map(), closedHere: new Map(), lastLook: 'none' };
}

/** The events `input` makes the stream send, and its inbox after them. */
export function stepInbox(inbox: Inbox, input: InboxInput, now: number): InboxStep {
  switch (input.kind) {
    case 'listed':
      return inbox.lastLook === 'answered'
        ? listingChanged(inbox, input.listing, input.settlements, now)
        : snapshot(inbox, input.listing, now);
    case 'look-failed':
      return {
        next: { ...inbox, lastLook: input.failure },
        events: inbox.lastLook === input.failure ? [] : [lookFailed(input.failure)],
        awaitingOutcome: [],
      };
    case 'decided-here':
      return closeDecided(inbox, input.cards, now);
    case 'outcomes-learned':
      return { next: inbox, events: input.outcomes.flatMap(outcomeLearned), awaitingOutcome: [] };
  }
}

/**
 * The pending cards `listing` no longer shows: a look asks their delegations how they settled
 * before its step. None when the look is sent as a snapshot, which needs no settlement.
 */
export function leftListing(inbox: Inbox, listing: ApprovalCard[]): ApprovalCard[] {
  if (inbox.lastLook !== 'answered') return [];
  const listed = new Set(listing.map((card) => card.id));
  return [...inbox.pending.values()].filter((card) => !listed.has(card.id));
}

/** The inbox from a listing alone: on attach, and once Temporal answers again after an outage. */
function snapshot(inbox: Inbox, listing: ApprovalCard[], now: number): InboxStep {
  const believed = believedListing(listing, inbox.closedHere, now);
  return {
    next: { pending: believed.listed, closedHere: believed.closedHere, lastLook: 'answered' },
    events: [{ event: 'snapshot', data: { cards: [...believed.listed.values()] } }],
    awaitingOutcome: [],
  };
}

/**
 * The inbox after a look: the cards that left it (closed, oldest first), then those that joined.
 * `inbox` is the stream's as the look lands: a card a decision closed meanwhile is in neither
 * its pending cards nor (while listed) the listing, so nothing is told of it again.
 */
function listingChanged(
  inbox: Inbox,
  listing: ApprovalCard[],
  settlements: ReadonlyMap<string, Settlement>,
  now: number,
): InboxStep {
  const { listed, closedHere } = believedListing(listing, inbox.closedHere, now);
  const pending = new Map(listed);
  const events: CardStreamEvent[] = [];
  const awaitingOutcome: ApprovalCard[] = [];
  for (const card of inbox.pending.values()) {
    if (listed.has(card.id)) continue;
    // Not asked about in this look (it cannot happen: pending cards only leave during one):
    // kept, and the next look asks.
    const settlement = settlements.get(card.id) ?? { status: 'pending' };
    if (settlement.status === 'pending') {
      pending.set(card.id, card);
      continue;
    }
    if (settlement.status === 'unanswered') awaitingOutcome.push(card);
    events.push(closed(card, settlement.status === 'closed' ? settlement.outcome : undefined));
  }
  for (const card of listed.values()) {
    if (!inbox.pending.has(card.id)) events.push({ event: 'card-opened', data: { card } });
  }
  return { next: { pending, closedHere, lastLook: 'answered' }, events, awaitingOutcome };
}

/**
 * Closes the pending cards decided through this process, with the outcome it applied, and
 * remembers every decided one as closed here, so a lagging listing does not open it (again).
 */
function closeDecided(inbox: Inbox, decided: ApprovalCard[], now: number): InboxStep {
  const pending = new Map(inbox.pending);
  const closedHere = new Map(inbox.closedHere);
  const events: CardStreamEvent[] = [];
  for (const card of decided) {
    const outcome = outcomeOf(card);
    if (outcome === undefined) continue;
    closedHere.set(card.id, now);
    if (pending.delete(card.id)) events.push(closed(card, outcome));
  }
  return { next: { ...inbox, pending, closedHere }, events, awaitingOutcome: [] };
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

function outcomeLearned({ card, decided }: LearnedOutcome): CardStreamEvent[] {
  const outcome = outcomeOf(decided);
  if (outcome === undefined) return [];
  return [
    { event: 'card-outcome', data: { cardId: card.id, delegationId: card.delegationId, outcome } },
  ];
}

function lookFailed(failure: LookFailure): CardStreamEvent {
  return {
    event: 'error',
    data: {
      error: failure,
      message:
        failure === 'unavailable'
          ? 'Temporal is not reachable; the stream keeps trying'
          : 'reading the pending cards failed; the stream keeps trying',
    },
  };
}

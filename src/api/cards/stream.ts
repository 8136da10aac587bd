/**
 * `GET /cards/events`: the approvals inbox as Server-Sent Events. Like the delegation stream
 * (api/http/event-stream.ts) it keeps nothing of its own: it polls the pending cards (visibility, then each
 * delegation's state) and tells the client what changed since its last look.
 *
 * - `snapshot` `{cards}`: every pending card the caller may decide, oldest first; sent on attach,
 *   and again once Temporal answers after an `error` (the client replaces its list).
 * - `card-opened` `{card}`: a card joined the set.
 * - `card-closed` `{cardId, delegationId, outcome?}`: a card left it (decided, expired, its
 *   delegation stopped or ended); `outcome` is how, from the delegation's decided cards, when its
 *   state could be read within OUTCOME_WAIT_MS.
 * - `card-outcome` `{cardId, delegationId, outcome}`: the outcome of a card closed without one,
 *   once its delegation answered (a busy worker, a closed run replayed first): the close is not
 *   held back for it, and the outcome is not lost either.
 * - `error` `{error: 'unavailable' | 'internal', message}`: a look failed; sent once per outage,
 *   and the stream goes on trying.
 */
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { ApprovalCard, DelegationState } from '../../shared/delegation.js';
import { isDeputyError } from '../../errors.js';
import type { SecretMasker } from '../../secrets/masker.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import type { CardDecisions } from './decisions.js';
import type { CardVisibility } from './inbox.js';
import type { Logger } from '../http/errors.js';
import type { EventStreamOptions } from '../http/event-stream.js';

/** How a card that left the pending set was settled (CardOutcomeSchema in response-schemas.ts). */
export interface CardOutcome {
  decision: 'approve' | 'deny';
  decidedBy: string | null;
  reason: string | null;
  decidedAt: string;
  /** Settled by its deadline, not by a person. */
  expired?: true;
}

export type CardStreamEvent =
  | { event: 'snapshot'; data: { cards: ApprovalCard[] } }
  | { event: 'card-opened'; data: { card: ApprovalCard } }
  | {
      event: 'card-closed';
      data: { cardId: string; delegationId: string; outcome?: CardOutcome };
    }
  | {
      event: 'card-outcome';
      data: { cardId: string; delegationId: string; outcome: CardOutcome };
    }
  | { event: 'error'; data: { error: 'unavailable' | 'internal'; message: string } };

/** A card closed without its outcome, whose delegation's answer is still awaited. */
interface LateOutcome {
  cardId: string;
  delegationId: string;
  since: number;
  /** When the delegation was last asked; an answer without the card decided asks again. */
  askedAt: number;
  /** Set when the delegation tells how the card was decided. */
  decided?: ApprovalCard;
}

export interface CardStreamDeps {
  delegations: Pick<Delegations, 'cards' | 'get'>;
  /** The caller's filter (inbox.ts). */
  visible: CardVisibility;
  secrets: SecretMasker;
  logger: Logger;
  /** Decisions this process applied: their cards close at once, not at the next look. */
  decisions?: CardDecisions;
  options?: EventStreamOptions;
}

/** What one look found, before anything is written (a failed write is not a failed look). */
type Look = { events: CardStreamEvent[]; pending: Map<string, ApprovalCard> };

export async function cardEventStream(
  c: Context,
  deps: CardStreamDeps,
  filter: { session?: string },
): Promise<Response> {
  const pollMs = deps.options?.pollMs ?? 300;
  const keepAliveMs = deps.options?.keepAliveMs ?? 15_000;
  const list = async () => deps.visible(await deps.delegations.cards(filter));
  const late = new Map<string, LateOutcome>();
  // Decided through this process, not yet processed by the loop; and closed that way, so a look
  // whose listing still shows them (visibility lags) does not open them again (id -> when).
  const decidedHere: ApprovalCard[] = [];
  const closedHere = new Map<string, number>();
  let wake: (() => void) | null = null;
  // The first look happens before the stream opens, so Temporal being down is a plain 503.
  const initial = await list();

  // Every failure is caught inside the callback: given an error, Hono's own handler would follow
  // ours with `event: error` carrying the raw message, unmasked, to the client.
  return streamSSE(c, async (stream) => {
    const unsubscribe =
      deps.decisions?.subscribe((card) => {
        decidedHere.push(card);
        wake?.();
      }) ?? (() => undefined);
    try {
      await follow(stream, initial);
    } catch (error) {
      deps.logger.error('card event stream failed', error);
      await stream
        .writeSSE({ event: 'error', data: JSON.stringify({ error: 'internal' }) })
        .catch(() => undefined);
    } finally {
      unsubscribe();
    }
  });

  async function follow(stream: SSEStreamingApi, first: ApprovalCard[]): Promise<void> {
    let pending = byId(first);
    await send(stream, { event: 'snapshot', data: { cards: first } });
    let quietSince = Date.now();
    // What the last look failed with, so an outage is told (and logged) once, not every poll.
    let failing: 'unavailable' | 'internal' | null = null;
    while (!stream.aborted) {
      // A decision that came in during the last look is handled now, not after another sleep.
      if (decidedHere.length === 0) {
        await Promise.race([
          stream.sleep(pollMs),
          new Promise<void>((resolve) => (wake = resolve)),
        ]);
        wake = null;
      }
      if (stream.aborted) return;
      for (const event of closedByThisProcess(pending)) await send(stream, event);
      let events: CardStreamEvent[];
      try {
        const look = failing === null ? await changes(pending) : await resnapshot();
        events = look.events;
        pending = look.pending;
        failing = null;
      } catch (error) {
        const kind = isDeputyError(error, 'unavailable') ? 'unavailable' : 'internal';
        events = failing === kind ? [] : [failure(kind, error)];
        failing = kind;
      }
      events.push(...lateOutcomes());
      for (const event of events) await send(stream, event);
      if (events.length > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= keepAliveMs) {
        await stream.write(': keep-alive\n\n');
        quietSince = Date.now();
      }
    }
  }

  async function resnapshot(): Promise<Look> {
    const cards = [...(await listed()).values()];
    return { events: [{ event: 'snapshot', data: { cards } }], pending: byId(cards) };
  }

  /** Closes the pending cards decided through this process, with the outcome it applied. */
  function closedByThisProcess(pending: Map<string, ApprovalCard>): CardStreamEvent[] {
    const events: CardStreamEvent[] = [];
    for (const card of decidedHere.splice(0)) {
      const outcome = outcomeOf(card);
      if (!pending.delete(card.id) || outcome === undefined) continue;
      closedHere.set(card.id, Date.now());
      events.push({
        event: 'card-closed',
        data: { cardId: card.id, delegationId: card.delegationId, outcome },
      });
    }
    return events;
  }

  /** The listing, without the cards closed here that it still shows (until it catches up). */
  async function listed(): Promise<Map<string, ApprovalCard>> {
    const now = byId(await list());
    for (const [cardId, since] of closedHere) {
      if (!now.has(cardId) || Date.now() - since > LATE_OUTCOME_GIVE_UP_MS)
        closedHere.delete(cardId);
      else now.delete(cardId);
    }
    return now;
  }

  /** The cards that left the set since `before`, then those that joined it. */
  async function changes(before: Map<string, ApprovalCard>): Promise<Look> {
    const now = await listed();
    const gone = [...before.values()].filter((card) => !now.has(card.id));
    const { closed, stillPending } = await settledCards(gone);
    for (const card of stillPending) now.set(card.id, card);
    const events: CardStreamEvent[] = closed.map((data) => ({ event: 'card-closed', data }));
    for (const card of now.values()) {
      if (!before.has(card.id)) events.push({ event: 'card-opened', data: { card } });
    }
    return { events, pending: now };
  }

  /**
   * Asks each delegation whose cards left the listing how they were settled. A card its live
   * delegation still reports pending stays (the listing missed it: a state query that failed in
   * cards()); a delegation Temporal cannot reach fails the look, to be retried. One that does not
   * answer within OUTCOME_WAIT_MS (a closed run its worker must replay first) is closed without
   * an outcome, so the close is not late.
   */
  async function settledCards(gone: ApprovalCard[]) {
    const closed: Array<Extract<CardStreamEvent, { event: 'card-closed' }>['data']> = [];
    const stillPending: ApprovalCard[] = [];
    const byDelegation = new Map<string, ApprovalCard[]>();
    for (const card of gone) {
      byDelegation.set(card.delegationId, [...(byDelegation.get(card.delegationId) ?? []), card]);
    }
    await Promise.all(
      [...byDelegation].map(async ([delegationId, cards]) => {
        const answer = deps.delegations.get(delegationId).catch((error: unknown) => {
          if (isDeputyError(error, 'unavailable')) throw error;
          return null; // gone, or its state unreadable: closed, outcome unknown
        });
        const state = await within(OUTCOME_WAIT_MS, answer);
        for (const card of cards) {
          if (state === TIMED_OUT) {
            // Closed now; its outcome follows as `card-outcome` when the delegation answers.
            const entry: LateOutcome = {
              cardId: card.id,
              delegationId,
              since: Date.now(),
              askedAt: Date.now(),
            };
            late.set(card.id, entry);
            learnOutcome(entry, answer);
            closed.push({ cardId: card.id, delegationId });
            continue;
          }
          if (state?.result === null && state.pendingCards.some(({ id }) => id === card.id)) {
            stillPending.push(card);
            continue;
          }
          const decided = state?.decidedCards.find(({ id }) => id === card.id);
          const outcome = decided === undefined ? undefined : outcomeOf(decided);
          closed.push({
            cardId: card.id,
            delegationId,
            ...(outcome === undefined ? {} : { outcome }),
          });
        }
      }),
    );
    // Oldest first, like the listing, whatever order the delegations answered in.
    const order = gone.map((card) => card.id);
    closed.sort((a, b) => order.indexOf(a.cardId) - order.indexOf(b.cardId));
    return { closed, stillPending };
  }

  /**
   * Records the decided card once `answer` includes it. An answer without it (the state read
   * from visibility, which has no decided cards, or read before the worker applied a recorded
   * decision) leaves the entry to be asked again by lateOutcomes().
   */
  function learnOutcome(entry: LateOutcome, answer: Promise<DelegationState | null>): void {
    answer.then(
      (state) => (entry.decided = state?.decidedCards.find(({ id }) => id === entry.cardId)),
      () => undefined,
    );
  }

  /**
   * The outcomes that came in since the last look. One not known yet is asked for again every
   * LATE_OUTCOME_ASK_MS, and given up after LATE_OUTCOME_GIVE_UP_MS.
   */
  function lateOutcomes(): CardStreamEvent[] {
    const events: CardStreamEvent[] = [];
    const now = Date.now();
    for (const [cardId, entry] of late) {
      if (entry.decided === undefined) {
        if (now - entry.since > LATE_OUTCOME_GIVE_UP_MS) {
          late.delete(cardId);
        } else if (now - entry.askedAt >= LATE_OUTCOME_ASK_MS) {
          entry.askedAt = now;
          learnOutcome(entry, deps.delegations.get(entry.delegationId));
        }
        continue;
      }
      late.delete(cardId);
      const outcome = outcomeOf(entry.decided);
      if (outcome !== undefined) {
        events.push({
          event: 'card-outcome',
          data: { cardId, delegationId: entry.delegationId, outcome },
        });
      }
    }
    return events;
  }

  function failure(kind: 'unavailable' | 'internal', error: unknown): CardStreamEvent {
    if (kind === 'unavailable') {
      deps.logger.warn(`card event stream: Temporal is not reachable, retrying (${String(error)})`);
      return {
        event: 'error',
        data: { error: kind, message: 'Temporal is not reachable; the stream keeps trying' },
      };
    }
    deps.logger.error('card event stream: a look at the pending cards failed', error);
    return {
      event: 'error',
      data: { error: kind, message: 'reading the pending cards failed; the stream keeps trying' },
    };
  }

  async function send(stream: SSEStreamingApi, event: CardStreamEvent): Promise<void> {
    // Cards come from workflows whose activities masked them; this catches the rest on its way out.
    await stream.writeSSE({
      event: event.event,
      data: JSON.stringify(deps.secrets.value(event.data)),
    });
  }
}

/**
 * How long a close waits for its outcome, milliseconds (the state query's own bound is 5 s).
 * Short: an outcome that takes longer follows as `card-outcome`, so waiting only delays the
 * close, which a loaded machine pushed past the inbox's second (issue 12).
 */
const OUTCOME_WAIT_MS = 300;

/** How long a late outcome is waited for before the stream stops looking for it. */
const LATE_OUTCOME_GIVE_UP_MS = 30_000;

/** How often a delegation whose answer did not include the card decided is asked again. */
const LATE_OUTCOME_ASK_MS = 1_000;

const TIMED_OUT = Symbol('timed out');

/** `pending`'s value, or TIMED_OUT when it takes longer than `ms` (it goes on). */
async function within<T>(ms: number, pending: Promise<T>): Promise<T | typeof TIMED_OUT> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<typeof TIMED_OUT>((resolve) => {
    timer = setTimeout(() => resolve(TIMED_OUT), ms);
  });
  // A rejection after the wait is nobody's to handle; without this it would be unhandled.
  pending.catch(() => undefined);
  try {
    return await Promise.race([pending, late]);
  } finally {
    clearTimeout(timer);
  }
}

function byId(cards: ApprovalCard[]): Map<string, ApprovalCard> {
  return new Map(cards.map((card) => [card.id, card]));
}

function outcomeOf(card: ApprovalCard): CardOutcome | undefined {
  const { state } = card;
  if (state.status === 'pending') return undefined;
  return {
    decision: state.status === 'approved' ? 'approve' : 'deny',
    decidedBy: state.decidedBy,
    reason: state.reason,
    decidedAt: state.decidedAt,
    ...(state.expired === true ? { expired: true as const } : {}),
  };
}

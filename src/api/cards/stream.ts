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
 *
 * A decision applied through this process (decisions.ts) closes its card at once, even while a
 * look is in flight (it takes seconds on a busy machine); the look is reconciled when it lands
 * (inbox-diff.ts). Here is the loop and its I/O: what to send is decided by inbox-diff.ts, how
 * the cards that left the listing were settled by settlements.ts, late outcomes by
 * late-outcomes.ts.
 */
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { ApprovalCard } from '../../shared/delegation.js';
import { isDeputyError } from '../../errors.js';
import type { SecretMasker } from '../../secrets/masker.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import { queueDecisions, type CardDecisions, type DecisionQueue } from './decisions.js';
import type { CardVisibility } from '../../rights/card-visibility.js';
import {
  closeDecided,
  inboxChanges,
  inboxSnapshot,
  leftListing,
  type Inbox,
} from './inbox-diff.js';
import { createLateOutcomes, type LateOutcomes } from './late-outcomes.js';
import { settle } from './settlements.js';
import type { CardStreamEvent } from './stream-events.js';
import type { Logger } from '../http/errors.js';
import type { EventStreamOptions } from '../http/event-stream.js';

export type { CardOutcome, CardStreamEvent } from './stream-events.js';

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

type FailureKind = 'unavailable' | 'internal';

/** One open stream: where it writes and reads, and what it has told its client. */
interface Follow {
  stream: SSEStreamingApi;
  deps: CardStreamDeps;
  list: () => Promise<ApprovalCard[]>;
  decided: DecisionQueue;
  late: LateOutcomes;
  inbox: Inbox;
  /** When the client was last sent anything, for the keep-alive. */
  quietSince: number;
}

export async function cardEventStream(
  c: Context,
  deps: CardStreamDeps,
  filter: { session?: string },
): Promise<Response> {
  const list = async () => deps.visible(await deps.delegations.cards(filter));
  // The first look happens before the stream opens, so Temporal being down is a plain 503.
  const first = await list();

  // Every failure is caught inside the callback: given an error, Hono's own handler would follow
  // ours with `event: error` carrying the raw message, unmasked, to the client.
  return streamSSE(c, async (stream) => {
    const follow: Follow = {
      stream,
      deps,
      list,
      decided: queueDecisions(deps.decisions),
      late: createLateOutcomes((delegationId) => deps.delegations.get(delegationId)),
      inbox: { pending: new Map(), closedHere: new Map() },
      quietSince: Date.now(),
    };
    try {
      await followInbox(follow, first);
    } catch (error) {
      deps.logger.error('card event stream failed', error);
      await stream
        .writeSSE({ event: 'error', data: JSON.stringify({ error: 'internal' }) })
        .catch(() => undefined);
    } finally {
      follow.decided.stop();
    }
  });
}

async function followInbox(f: Follow, first: ApprovalCard[]): Promise<void> {
  const pollMs = f.deps.options?.pollMs ?? 300;
  const keepAliveMs = f.deps.options?.keepAliveMs ?? 15_000;
  await sendStep(f, inboxSnapshot(first, f.inbox.closedHere, Date.now()));
  // What the last look failed with, so an outage is told (and logged) once, not every poll.
  let failing: FailureKind | null = null;
  while (!f.stream.aborted) {
    // A decision that came in during the last look is handled now, not after another sleep.
    if (!f.decided.waiting()) await Promise.race([f.stream.sleep(pollMs), f.decided.arrival()]);
    if (f.stream.aborted) return;
    await closeDecidedHere(f);
    let events: CardStreamEvent[];
    try {
      events = await closingDecidedMeanwhile(f, failing === null ? changes(f) : resnapshot(f));
      failing = null;
    } catch (error) {
      const kind = isDeputyError(error, 'unavailable') ? 'unavailable' : 'internal';
      events = failing === kind ? [] : [failure(f.deps.logger, kind, error)];
      failing = kind;
    }
    events.push(...f.late.due());
    for (const event of events) await send(f, event);
    if (Date.now() - f.quietSince >= keepAliveMs) {
      await f.stream.write(': keep-alive\n\n');
      f.quietSince = Date.now();
    }
  }
}

/**
 * `look`'s result, closing the cards decided through this process as their decisions arrive
 * meanwhile: a look takes seconds on a busy machine, and a close must not wait for it.
 */
async function closingDecidedMeanwhile<T>(f: Follow, look: Promise<T>): Promise<T> {
  const landed = look.then(
    () => LANDED,
    () => LANDED,
  );
  while ((await Promise.race([landed, f.decided.arrival()])) !== LANDED) {
    await closeDecidedHere(f);
  }
  return look;
}

const LANDED = Symbol('landed');

/** Closes the pending cards decided through this process, with the outcome it applied. */
async function closeDecidedHere(f: Follow): Promise<void> {
  // The inbox changes before the first write, so a look landing meanwhile diffs against it.
  await sendStep(f, closeDecided(f.inbox, f.decided.take(), Date.now()));
}

/**
 * A look: the listing, how the cards that left it were settled, and the events from the inbox
 * as it is when the look lands (decisions may have closed cards since it began).
 */
async function changes(f: Follow): Promise<CardStreamEvent[]> {
  const listing = await f.list();
  const { settlements, answers } = await settle(f.deps.delegations, leftListing(f.inbox, listing));
  const step = inboxChanges(f.inbox, listing, settlements, Date.now());
  f.inbox = step.inbox;
  for (const card of step.unanswered) f.late.follow(card, answers.get(card.delegationId)!);
  return step.events;
}

/** After an outage: the listing as a new snapshot, which the client puts in place of its list. */
async function resnapshot(f: Follow): Promise<CardStreamEvent[]> {
  const listing = await f.list();
  const step = inboxSnapshot(listing, f.inbox.closedHere, Date.now());
  f.inbox = step.inbox;
  return step.events;
}

function failure(logger: Logger, kind: FailureKind, error: unknown): CardStreamEvent {
  if (kind === 'unavailable') {
    logger.warn(`card event stream: Temporal is not reachable, retrying (${String(error)})`);
    return {
      event: 'error',
      data: { error: kind, message: 'Temporal is not reachable; the stream keeps trying' },
    };
  }
  logger.error('card event stream: a look at the pending cards failed', error);
  return {
    event: 'error',
    data: { error: kind, message: 'reading the pending cards failed; the stream keeps trying' },
  };
}

/** Takes `step`'s inbox as the stream's, then sends its events. */
async function sendStep(f: Follow, step: { inbox: Inbox; events: CardStreamEvent[] }) {
  f.inbox = step.inbox;
  for (const event of step.events) await send(f, event);
}

async function send(f: Follow, event: CardStreamEvent): Promise<void> {
  // Cards come from workflows whose activities masked them; this catches the rest on its way out.
  await f.stream.writeSSE({
    event: event.event,
    data: JSON.stringify(f.deps.secrets.value(event.data)),
  });
  f.quietSince = Date.now();
}

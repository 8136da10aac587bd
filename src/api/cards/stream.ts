/**
 * `GET /cards/events`: the approvals inbox as Server-Sent Events. Like the delegation stream
 * (api/http/event-stream.ts) it keeps nothing of its own: it polls the pending cards (visibility,
 * then each delegation's state) and tells the client what changed since its last look.
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
 * look is in flight (it takes seconds on a busy machine); the look is reconciled when it lands.
 * Here is the loop and its I/O: it looks (settlements.ts asks how the cards that left the listing
 * were settled), waits for decisions and late outcomes (late-outcomes.ts), and hands each of them
 * to the one pure step (inbox-step.ts), which decides what to send.
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
  emptyInbox,
  leftListing,
  stepInbox,
  type Inbox,
  type InboxInput,
  type InboxStep,
  type LookFailure,
} from './inbox-step.js';
import { createLateOutcomes, type LateOutcomes } from './late-outcomes.js';
import { settle, type Settled } from './settlements.js';
import type { CardStreamEvent } from './stream-events.js';
import type { Logger } from '../http/errors.js';
import type { EventStreamOptions } from '../http/event-stream.js';

export type { CardOutcome, CardStreamEvent } from './stream-events.js';

export interface CardStreamDeps {
  delegations: Pick<Delegations, 'cards' | 'get'>;
  /** The caller's filter (rights/card-visibility.ts). */
  visible: CardVisibility;
  secrets: SecretMasker;
  logger: Logger;
  /** Decisions this process applied: their cards close at once, not at the next look. */
  decisions?: CardDecisions;
  options?: EventStreamOptions;
}

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

/** A look as the step takes it, with what the loop needs besides: the answers, or the error. */
type Look =
  | { input: Extract<InboxInput, { kind: 'listed' }>; answers: Settled['answers'] }
  | { input: Extract<InboxInput, { kind: 'look-failed' }>; error: unknown };

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
      inbox: emptyInbox(),
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
  // The inbox is empty, so this look is the snapshot: no card left it to settle.
  await send(f, step(f, { kind: 'listed', listing: first, settlements: new Map() }).events);
  while (!f.stream.aborted) {
    // A decision that came in during the last look is handled now, not after another sleep.
    if (!f.decided.waiting()) await Promise.race([f.stream.sleep(pollMs), f.decided.arrival()]);
    if (f.stream.aborted) return;
    await closeDecidedHere(f);
    let look: Look;
    try {
      look = await closingDecidedMeanwhile(f, lookAt(f));
    } catch (error) {
      look = { input: { kind: 'look-failed', failure: failureOf(error) }, error };
    }
    const looked = step(f, look.input);
    // A failure is told once per outage, and logged with it.
    if ('error' in look && looked.events.length > 0) logFailure(f.deps.logger, look);
    if ('answers' in look) {
      for (const card of looked.awaitingOutcome) {
        f.late.follow(card, look.answers.get(card.delegationId)!);
      }
    }
    const late = step(f, { kind: 'outcomes-learned', outcomes: f.late.due() });
    await send(f, [...looked.events, ...late.events]);
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
  await send(f, step(f, { kind: 'decided-here', cards: f.decided.take() }).events);
}

/**
 * A look: the listing, and how the pending cards it no longer shows were settled. Its step is
 * taken on the inbox as it is when the look lands (decisions may have closed cards since).
 */
async function lookAt(f: Follow): Promise<Look> {
  const listing = await f.list();
  const { settlements, answers } = await settle(f.deps.delegations, leftListing(f.inbox, listing));
  return { input: { kind: 'listed', listing, settlements }, answers };
}

function failureOf(error: unknown): LookFailure {
  return isDeputyError(error, 'unavailable') ? 'unavailable' : 'internal';
}

function logFailure(logger: Logger, { input, error }: Extract<Look, { error: unknown }>): void {
  if (input.failure === 'unavailable') {
    logger.warn(`card event stream: Temporal is not reachable, retrying (${String(error)})`);
  } else {
    logger.error('card event stream: a look at the pending cards failed', error);
  }
}

/**
 * Takes `input`'s step: the stream's inbox changes before any write, so a look landing
 * meanwhile is stepped on it.
 */
function step(f: Follow, input: InboxInput): InboxStep {
  const taken = stepInbox(f.inbox, input, Date.now());
  f.inbox = taken.next;
  return taken;
}

async function send(f: Follow, events: CardStreamEvent[]): Promise<void> {
  for (const event of events) {
    // Cards come from workflows whose activities masked them; this catches the rest on its
    // way out.
    await f.stream.writeSSE({
      event: event.event,
      data: JSON.stringify(f.deps.secrets.value(event.data)),
    });
    f.quietSince = Date.now();
  }
}

/**
 * Following a session's stream from the CLI (`deputy session follow`, `deputy chat`): polls the
 * session's events query, hands each event over once, and keeps the set of pending cards (the
 * session's own and its children's) up to date. Everything is read from Temporal, so a second
 * terminal attached to the same session sees the same stream.
 */
import type { ApprovalCard, DelegationEvent } from '../../shared/delegation.js';
import { DeputyError } from '../../errors.js';
import type { Sessions } from '../../temporal/sessions/facade.js';

/** Pending cards by id, oldest first (Map keeps insertion order). */
export class PendingCards {
  private readonly cards = new Map<string, ApprovalCard>();
  /** Ids ever announced, so a card seen both in `sessions.cards` and on the stream shows once. */
  private readonly announced = new Set<string>();

  /** Adds a pending card; true when it had not been announced before. */
  open(card: ApprovalCard): boolean {
    if (card.state.status === 'pending') this.cards.set(card.id, card);
    if (this.announced.has(card.id)) return false;
    this.announced.add(card.id);
    return true;
  }

  decided(card: ApprovalCard): void {
    this.cards.delete(card.id);
    this.announced.add(card.id);
  }

  list(): ApprovalCard[] {
    return [...this.cards.values()];
  }

  ids(): string[] {
    return [...this.cards.keys()];
  }
}

export interface SessionFollowOptions {
  /** Print nothing at or before this sequence number (what an attach has already shown). */
  afterSeq?: number;
  /** Milliseconds between polls. Default 300. */
  pollMs?: number;
  /** Ends the follow (Ctrl-C, detach); the session itself runs on. */
  signal?: AbortSignal;
  /** Told once when the session cannot answer (no worker polls its queue). */
  onWaiting?: () => void;
}

/**
 * Where following "from now" starts: after the last event the session has emitted, or 0 when it
 * cannot answer now. Before its `finished` event, though: following a session that has ended
 * must end at once, not wait for an event that never comes.
 */
export async function lastSeqOf(sessions: Sessions, sessionId: string): Promise<number> {
  try {
    const events = await sessions.events(sessionId, 0);
    const last = events.reduce((max, event) => Math.max(max, event.seq), 0);
    const finished = events.find((event) => event.type === 'finished');
    return finished === undefined ? last : Math.min(last, finished.seq - 1);
  } catch (error) {
    if (error instanceof DeputyError) throw error;
    return 0;
  }
}

/**
 * Calls `onEvent` for each new event until the session's `finished` event (returned) or the
 * abort (null). A poll that fails for want of a worker is retried: the session's events are in
 * its history, so nothing is lost while none runs.
 */
export async function followSession(
  sessions: Sessions,
  sessionId: string,
  onEvent: (event: DelegationEvent) => void,
  options: SessionFollowOptions = {},
): Promise<Extract<DelegationEvent, { type: 'finished' }> | null> {
  const pollMs = options.pollMs ?? 300;
  let last = options.afterSeq ?? 0;
  let warned = false;
  while (!options.signal?.aborted) {
    try {
      const events = await sessions.events(sessionId, last);
      warned = false;
      for (const event of events) {
        if (options.signal?.aborted) return null;
        last = Math.max(last, event.seq);
        onEvent(event);
        if (event.type === 'finished') return event;
      }
    } catch (error) {
      if (error instanceof DeputyError) throw error;
      if (!warned) options.onWaiting?.();
      warned = true;
    }
    await sleep(pollMs, options.signal);
  }
  return null;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Applies a card event to `pending`; true when the event is a card opening already shown. */
export function trackCards(pending: PendingCards, event: DelegationEvent): boolean {
  if (event.type === 'card-opened') return !pending.open(event.card);
  if (event.type === 'card-decided') pending.decided(event.card);
  return false;
}

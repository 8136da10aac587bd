/**
 * Decisions this API process applied, told to its open inbox streams at once (stream.ts).
 * The streams otherwise learn of a decision by polling the pending cards, whose listing follows
 * the delegation through visibility and lags under load (a loaded CI machine took 1.9 s); a card
 * decided through this API leaves every inbox of this process as soon as the decision applied.
 * Decisions made elsewhere (the CLI, another API process) still arrive by the poll.
 */
import type { ApprovalCard } from '../../shared/delegation.js';

export type DecidedCardListener = (card: ApprovalCard) => void;

export interface CardDecisions {
  /** A decision was applied: `card` as the delegation reported it, decided. */
  applied(card: ApprovalCard): void;
  /** Returns the unsubscribe. */
  subscribe(listener: DecidedCardListener): () => void;
}

export function createCardDecisions(): CardDecisions {
  const listeners = new Set<DecidedCardListener>();
  return {
    applied(card) {
      for (const listener of listeners) listener(card);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** One stream's queue of the decisions applied here, until its loop takes them (stream.ts). */
export interface DecisionQueue {
  /** Whether a decision is queued. */
  waiting(): boolean;
  /** The queued decisions, oldest first; the queue is left empty. */
  take(): ApprovalCard[];
  /**
   * Resolves once a decision is queued (at once when one is). A fresh promise each call, and
   * only the latest is woken: a stream that waits for hours does not pile up reactions on one.
   */
  arrival(): Promise<void>;
  stop(): void;
}

/** Queues what `decisions` tells (nothing without it) until stop(). */
export function queueDecisions(decisions: CardDecisions | undefined): DecisionQueue {
  const queue: ApprovalCard[] = [];
  let wake: (() => void) | null = null;
  const stop =
    decisions?.subscribe((card) => {
      queue.push(card);
      wake?.();
      wake = null;
    }) ?? (() => undefined);
  return {
    waiting: () => queue.length > 0,
    take: () => queue.splice(0),
    arrival: () =>
      queue.length > 0 ? Promise.resolve() : new Promise<void>((resolve) => (wake = resolve)),
    stop,
  };
}

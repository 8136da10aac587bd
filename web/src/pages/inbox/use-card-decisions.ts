/**
 * Deciding cards from a page: the reason typed for each card, the request in flight, and what
 * the server answered. Shared by the inbox and a delegation's page. A card the server settled
 * (applied, or already decided elsewhere: 409) is handed to `onSettled`, which takes it off the
 * page's pending list; a recorded decision (202) stays on the card with its note, since the card
 * is still pending until a worker applies it.
 */
import { useCallback, useState } from 'react';
import {
  decideCard,
  decideCards,
  type CardDecisionResult,
  type DecisionExtras,
  type DecisionKind,
  type DecisionResult,
} from '../../api/cards';
import { messageOf } from '../../api/client';
import type { ApprovalCard } from '../../api/types';
import { cardStateText } from './outcome-text';

export type Tone = 'info' | 'warning' | 'error';

export interface CardDecisionStatus {
  busy: DecisionKind | null;
  /** A decision was recorded for a worker (202): no second decision from here. */
  recorded: boolean;
  message: string | null;
  tone: Tone;
}

const IDLE: CardDecisionStatus = { busy: null, recorded: false, message: null, tone: 'info' };

export interface SettledNote {
  card: ApprovalCard;
  message: string;
  tone: Tone;
  /** Closed elsewhere before its outcome could be read: a `card-outcome` event completes it. */
  awaitingOutcome?: true;
}

export interface CardDecisions {
  statusOf(cardId: string): CardDecisionStatus;
  reasonOf(cardId: string): string;
  setReason(cardId: string, text: string): void;
  /** `extras`: an answer, allow for the rest, edited arguments. */
  decide(card: ApprovalCard, kind: DecisionKind, extras?: DecisionExtras): Promise<void>;
  /** Several cards the same way in one request (`POST /cards/decisions`), each its own reason. */
  decideAll(cards: ApprovalCard[], kind: 'approve' | 'deny'): Promise<void>;
}

export function useCardDecisions(onSettled: (note: SettledNote) => void): CardDecisions {
  const [statuses, setStatuses] = useState<Record<string, CardDecisionStatus>>({});
  const [reasons, setReasons] = useState<Record<string, string>>({});

  const update = useCallback((cardId: string, status: CardDecisionStatus) => {
    setStatuses((current) => ({ ...current, [cardId]: status }));
  }, []);
  const apply = useCallback(
    (cardId: string, { status, note }: Settling) => {
      update(cardId, status);
      if (note !== undefined) onSettled(note);
    },
    [update, onSettled],
  );

  const decide = useCallback(
    async (card: ApprovalCard, kind: DecisionKind, extras: DecisionExtras = {}) => {
      const current = statuses[card.id] ?? IDLE;
      if (current.busy !== null || current.recorded) return;
      update(card.id, { ...IDLE, busy: kind });
      try {
        const result = await decideCard(card.id, kind, reasons[card.id], extras);
        apply(card.id, answered(card, kind, result));
      } catch (error) {
        // Not an error page: the card stays, with what went wrong, and can be tried again.
        update(card.id, failed(messageOf(error)));
      }
    },
    [statuses, reasons, update, apply],
  );

  const decideAll = useCallback(
    async (cards: ApprovalCard[], kind: 'approve' | 'deny') => {
      const open = cards.filter((card) => {
        const current = statuses[card.id] ?? IDLE;
        return current.busy === null && !current.recorded;
      });
      if (open.length === 0) return;
      for (const card of open) update(card.id, { ...IDLE, busy: kind });
      try {
        const results = await decideCards(
          open.map((card) => ({
            cardId: card.id,
            decision: kind,
            ...(reasons[card.id] === undefined ? {} : { reason: reasons[card.id] }),
          })),
        );
        results.forEach((result, index) => {
          const card = open[index]!;
          apply(card.id, answeredInBatch(card, kind, result));
        });
      } catch (error) {
        for (const card of open) update(card.id, failed(messageOf(error)));
      }
    },
    [statuses, reasons, update, apply],
  );

  return {
    statusOf: (cardId) => statuses[cardId] ?? IDLE,
    reasonOf: (cardId) => reasons[cardId] ?? '',
    setReason: (cardId, text) => setReasons((current) => ({ ...current, [cardId]: text })),
    decide,
    decideAll,
  };
}

/** What an answer means for a card: its status on the page, and a note when it left the page. */
interface Settling {
  status: CardDecisionStatus;
  note?: SettledNote;
}

const VERBS = { approve: 'Approval', deny: 'Denial', answer: 'Answer' } as const;

const recorded = (kind: DecisionKind): Settling => ({
  status: {
    busy: null,
    recorded: true,
    message: `${VERBS[kind]} recorded; it applies when a worker runs the delegation.`,
    tone: 'info',
  },
});

const failed = (why: string): CardDecisionStatus => ({
  ...IDLE,
  message: `The decision did not go through: ${why}`,
  tone: 'error',
});

const settled = (card: ApprovalCard): Settling => ({
  status: IDLE,
  note: { card, message: cardStateText(card), tone: 'info' },
});

const alreadyDecided = (card: ApprovalCard, message: string): Settling => ({
  status: IDLE,
  note: { card, message: `Already decided: ${message}`, tone: 'warning' },
});

function answered(card: ApprovalCard, kind: DecisionKind, result: DecisionResult): Settling {
  if (result.kind === 'applied') return settled(result.card);
  if (result.kind === 'recorded') return recorded(kind);
  return alreadyDecided(card, result.message);
}

function answeredInBatch(
  card: ApprovalCard,
  kind: 'approve' | 'deny',
  result: CardDecisionResult,
): Settling {
  if (result.status === 'decided' && result.card !== undefined) return settled(result.card);
  if (result.status === 'recorded') return recorded(kind);
  if (result.httpStatus === 409) {
    return alreadyDecided(card, result.message ?? 'the card was already decided');
  }
  const why = `${result.message ?? result.error ?? 'refused'}${result.httpStatus === undefined ? '' : ` (HTTP ${result.httpStatus})`}`;
  return { status: failed(why) };
}

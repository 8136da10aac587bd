/**
 * Deciding cards from a page: the reason typed for each card, the request in flight, and what
 * the server answered. Shared by the inbox and a delegation's page. A card the server settled
 * (applied, or already decided elsewhere: 409) is handed to `onSettled`, which takes it off the
 * page's pending list; a recorded decision (202) stays on the card with its note, since the card
 * is still pending until a worker applies it.
 */
import { useCallback, useState } from 'react';
import { decideCard, decideCards, type DecisionExtras, type DecisionKind } from '../../api/cards';
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

  const decide = useCallback(
    async (card: ApprovalCard, kind: DecisionKind, extras: DecisionExtras = {}) => {
      const current = statuses[card.id] ?? IDLE;
      if (current.busy !== null || current.recorded) return;
      update(card.id, { ...IDLE, busy: kind });
      try {
        const result = await decideCard(card.id, kind, reasons[card.id], extras);
        if (result.kind === 'applied') {
          update(card.id, IDLE);
          onSettled({ card: result.card, message: cardStateText(result.card), tone: 'info' });
        } else if (result.kind === 'recorded') {
          const verb = { approve: 'Approval', deny: 'Denial', answer: 'Answer' }[kind];
          update(card.id, {
            busy: null,
            recorded: true,
            message: `${verb} recorded; it applies when a worker runs the delegation.`,
            tone: 'info',
          });
        } else {
          update(card.id, IDLE);
          onSettled({ card, message: `Already decided: ${result.message}`, tone: 'warning' });
        }
      } catch (error) {
        // Not an error page: the card stays, with what went wrong, and can be tried again.
        update(card.id, {
          ...IDLE,
          message: `The decision did not go through: ${messageOf(error)}`,
          tone: 'error',
        });
      }
    },
    [statuses, reasons, update, onSettled],
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
          if (result.status === 'decided' && result.card !== undefined) {
            update(card.id, IDLE);
            onSettled({ card: result.card, message: cardStateText(result.card), tone: 'info' });
          } else if (result.status === 'recorded') {
            const verb = kind === 'approve' ? 'Approval' : 'Denial';
            update(card.id, {
              busy: null,
              recorded: true,
              message: `${verb} recorded; it applies when a worker runs the delegation.`,
              tone: 'info',
            });
          } else if (result.httpStatus === 409) {
            update(card.id, IDLE);
            onSettled({
              card,
              message: `Already decided: ${result.message ?? 'the card was already decided'}`,
              tone: 'warning',
            });
          } else {
            update(card.id, {
              ...IDLE,
              message: `The decision did not go through: ${result.message ?? result.error ?? 'refused'}${result.httpStatus === undefined ? '' : ` (HTTP ${result.httpStatus})`}`,
              tone: 'error',
            });
          }
        });
      } catch (error) {
        for (const card of open) {
          update(card.id, {
            ...IDLE,
            message: `The decision did not go through: ${messageOf(error)}`,
            tone: 'error',
          });
        }
      }
    },
    [statuses, reasons, update, onSettled],
  );

  return {
    statusOf: (cardId) => statuses[cardId] ?? IDLE,
    reasonOf: (cardId) => reasons[cardId] ?? '',
    setReason: (cardId, text) => setReasons((current) => ({ ...current, [cardId]: text })),
    decide,
    decideAll,
  };
}

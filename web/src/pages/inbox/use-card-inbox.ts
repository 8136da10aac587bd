/**
 * The inbox's live list: follows `GET /cards/events` (a snapshot, then cards opened and closed)
 * and keeps the pending cards, oldest first, plus a short log of cards that just left (decided
 * here, elsewhere, or by a deadline) so a person sees why a card vanished.
 *
 * A card this page settled is kept hidden until the server's listing agrees, so a snapshot sent
 * a moment before the decision landed cannot bring it back.
 */
import { useCallback, useEffect, useReducer } from 'react';
import { cardEventsPath, type CardStreamData } from '../../api/cards';
import { followStream } from '../../api/sse';
import type { ApprovalCard } from '../../api/types';
import { outcomeText } from './outcome-text';
import type { SettledNote } from './use-card-decisions';

/** How many settled cards the log keeps. */
const SETTLED_KEPT = 8;

export type Connection =
  | { state: 'connecting' }
  | { state: 'live' }
  | { state: 'down'; problem: string; retrying: boolean };

export interface InboxState {
  /** Which stream this state belongs to (the session filter): events of an older one are dropped. */
  key: string;
  /** null until the first snapshot. */
  cards: ApprovalCard[] | null;
  settled: SettledNote[];
  hidden: string[];
  connection: Connection;
  /** The stream's own `error` event (Temporal unreachable): cleared by the next snapshot. */
  serverProblem: string | null;
}

type Event =
  | { type: 'snapshot'; cards: ApprovalCard[] }
  | { type: 'opened'; card: ApprovalCard }
  | { type: 'closed'; data: CardStreamData['card-closed'] }
  | { type: 'outcome'; data: CardStreamData['card-outcome'] }
  | { type: 'settled'; note: SettledNote }
  | { type: 'connection'; connection: Connection }
  | { type: 'server-problem'; message: string };
type Action = Event & { key: string };

export const initialInbox = (key: string): InboxState => ({
  key,
  cards: null,
  settled: [],
  hidden: [],
  connection: { state: 'connecting' },
  serverProblem: null,
});

function logged(settled: SettledNote[], note: SettledNote): SettledNote[] {
  return [note, ...settled.filter((entry) => entry.card.id !== note.card.id)].slice(
    0,
    SETTLED_KEPT,
  );
}

export function inboxReducer(previous: InboxState, action: Action): InboxState {
  // A new filter starts from nothing; a late event of the old stream changes nothing.
  const state = previous.key === action.key ? previous : initialInbox(action.key);
  switch (action.type) {
    case 'snapshot': {
      const listed = new Set(action.cards.map((card) => card.id));
      // A hidden card the listing no longer has is settled for the server too: forget it.
      const hidden = state.hidden.filter((id) => listed.has(id));
      return {
        ...state,
        cards: action.cards.filter((card) => !hidden.includes(card.id)),
        hidden,
        serverProblem: null,
      };
    }
    case 'opened': {
      const cards = state.cards ?? [];
      if (state.hidden.includes(action.card.id) || cards.some((c) => c.id === action.card.id)) {
        return state;
      }
      return { ...state, cards: [...cards, action.card] };
    }
    case 'closed': {
      const { cardId, outcome } = action.data;
      const card = state.cards?.find((c) => c.id === cardId);
      const hidden = state.hidden.filter((id) => id !== cardId);
      if (card === undefined) return { ...state, hidden };
      return {
        ...state,
        hidden,
        cards: (state.cards ?? []).filter((c) => c.id !== cardId),
        settled: logged(state.settled, {
          card,
          message: `${outcome === undefined ? '' : 'Decided elsewhere: '}${outcomeText(outcome)}`,
          tone: 'info',
          ...(outcome === undefined ? { awaitingOutcome: true as const } : {}),
        }),
      };
    }
    case 'outcome': {
      const { cardId, outcome } = action.data;
      return {
        ...state,
        settled: state.settled.map((note) =>
          note.card.id === cardId && note.awaitingOutcome === true
            ? {
                card: note.card,
                message: `Decided elsewhere: ${outcomeText(outcome)}`,
                tone: note.tone,
              }
            : note,
        ),
      };
    }
    case 'settled': {
      const { card } = action.note;
      return {
        ...state,
        cards: (state.cards ?? []).filter((c) => c.id !== card.id),
        hidden: state.hidden.includes(card.id) ? state.hidden : [...state.hidden, card.id],
        settled: logged(state.settled, action.note),
      };
    }
    case 'connection':
      return { ...state, connection: action.connection };
    case 'server-problem':
      return { ...state, serverProblem: action.message };
  }
}

/** A 4xx other than 429 is not retried by followStream: say so instead of "reconnecting". */
function retries(problem: string | undefined): boolean {
  const status = /^HTTP (\d{3})/.exec(problem ?? '')?.[1];
  if (status === undefined) return true;
  const code = Number(status);
  return code < 400 || code >= 500 || code === 429;
}

/**
 * Follows the inbox for `session` ('' for every session); a new session (or token) starts from
 * a fresh state.
 */
export function useCardInbox(session: string, tokenGeneration: number) {
  const key = `${tokenGeneration}/${session}`;
  const [stored, dispatch] = useReducer(inboxReducer, key, initialInbox);
  useEffect(() => {
    const controller = new AbortController();
    const tell = (event: Event) => dispatch({ ...event, key });
    followStream(
      cardEventsPath(session),
      {
        reconnectOnEnd: true,
        onEvent({ type, data }) {
          if (type === 'snapshot') {
            tell({ type: 'snapshot', cards: (data as CardStreamData['snapshot']).cards });
          } else if (type === 'card-opened') {
            tell({ type: 'opened', card: (data as CardStreamData['card-opened']).card });
          } else if (type === 'card-closed') {
            tell({ type: 'closed', data: data as CardStreamData['card-closed'] });
          } else if (type === 'card-outcome') {
            tell({ type: 'outcome', data: data as CardStreamData['card-outcome'] });
          } else if (type === 'error') {
            const message = (data as Partial<CardStreamData['error']>).message;
            tell({
              type: 'server-problem',
              message: message ?? 'the server could not read the pending cards; it keeps trying',
            });
          }
        },
        onConnection(open, problem) {
          tell({
            type: 'connection',
            connection: open
              ? { state: 'live' }
              : {
                  state: 'down',
                  problem: problem ?? 'the connection dropped',
                  retrying: retries(problem),
                },
          });
        },
      },
      controller.signal,
    );
    return () => controller.abort();
  }, [session, key]);
  const settle = useCallback(
    (note: SettledNote) => dispatch({ type: 'settled', note, key }),
    [key],
  );
  return { state: stored.key === key ? stored : initialInbox(key), settle };
}

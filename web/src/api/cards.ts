/**
 * Typed calls for approval cards: the inbox listing and its live stream (`GET /cards`,
 * `GET /cards/events`), and a decision (`POST /cards/:id`). A decision's three answers are
 * told apart here (applied, recorded for a worker, already decided) so a page never has to
 * read status codes: only an unexpected failure is thrown.
 */
import type {
  CardDecisionResult,
  CardOutcome,
  CardStreamEvent,
} from '../../../src/api/contract.js';
import { api, ApiError, seg } from './client';
import type { ApprovalCard } from './types';

export type { CardDecisionResult, CardOutcome };

/** The events of `GET /cards/events` (src/api/cards/stream.ts): each event's data by its name. */
export type CardStreamData = { [E in CardStreamEvent as E['event']]: E['data'] };

export type DecisionKind = 'approve' | 'deny' | 'answer';

/**
 * Richer decisions: `answer` (with decision 'answer') is the tool's result in its
 * place; `allow` and `arguments` go with 'approve' (the rest of this delegation, edited arguments).
 */
export interface DecisionExtras {
  answer?: string;
  allow?: 'delegation';
  arguments?: Record<string, unknown>;
}

export type DecisionResult =
  /** A worker applied it: the card as decided. */
  | { kind: 'applied'; card: ApprovalCard }
  /** Stored in the delegation's history; it applies when a worker runs the delegation (202). */
  | { kind: 'recorded'; message: string }
  /** Someone (or something: a deadline, a stop) decided first (409); the server says who. */
  | { kind: 'conflict'; message: string };

function sessionQuery(session: string | undefined): string {
  return session === undefined || session === '' ? '' : `?session=${encodeURIComponent(session)}`;
}

export async function listCards(session?: string): Promise<ApprovalCard[]> {
  const body = await api<{ cards: ApprovalCard[] }>('GET', `/cards${sessionQuery(session)}`);
  return body.cards;
}

/** The path to follow with followStream (reconnectOnEnd: the inbox never finishes). */
export function cardEventsPath(session?: string): string {
  return `/cards/events${sessionQuery(session)}`;
}

export async function decideCard(
  cardId: string,
  decision: DecisionKind,
  reason?: string,
  extras: DecisionExtras = {},
): Promise<DecisionResult> {
  const trimmed = reason?.trim() ?? '';
  const body = { decision, ...(trimmed === '' ? {} : { reason: trimmed }), ...extras };
  try {
    const answer = await api<ApprovalCard | { status: 'recorded'; message: string }>(
      'POST',
      `/cards/${seg(cardId)}`,
      body,
    );
    if ('status' in answer && answer.status === 'recorded') {
      return { kind: 'recorded', message: answer.message };
    }
    return { kind: 'applied', card: answer as ApprovalCard };
  } catch (error) {
    if (error instanceof ApiError && error.status === 409) {
      return { kind: 'conflict', message: error.body.message ?? 'the card was already decided' };
    }
    throw error;
  }
}

/** One entry of a batch: a card and the fields of a single decision. */
export interface BatchEntry extends DecisionExtras {
  cardId: string;
  decision: DecisionKind;
  reason?: string;
}

/**
 * Several cards in one request (`POST /cards/decisions`): a result per entry, in order, each
 * decided, recorded for a worker, or refused with what `POST /cards/:id` would have answered.
 */
export async function decideCards(entries: BatchEntry[]): Promise<CardDecisionResult[]> {
  const decisions = entries.map(({ reason, ...entry }) => {
    const trimmed = reason?.trim() ?? '';
    return { ...entry, ...(trimmed === '' ? {} : { reason: trimmed }) };
  });
  const body = await api<{ results: CardDecisionResult[] }>('POST', '/cards/decisions', {
    decisions,
  });
  return body.results;
}

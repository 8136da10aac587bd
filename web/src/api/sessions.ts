/**
 * Typed calls for one session (src/api/sessions/routes.ts): its state, its event stream,
 * a message to it and stop. The listing stays in delegations.ts (`listSessions`), beside the
 * delegations it filters. Shapes are the server's own (type-only imports).
 */
import type { StateView } from '../../../src/api/contract.js';
import type { SessionState } from '../../../src/shared/session.js';
import type { StopOutcome } from '../../../src/temporal/delegations/types.js';
import { api, seg } from './client';

export type { SessionState };
export { listSessions, type SessionSummary } from './delegations';

/** `GET /sessions/:id`: the state, or with auth its summary (`withheld`) for a non-owner. */
export type SessionView = StateView<SessionState>;

export function getSession(id: string, signal?: AbortSignal): Promise<SessionView> {
  return api<SessionView>('GET', `/sessions/${seg(id)}`, undefined, signal);
}

/** 202 when accepted; a session that has ended refuses it (409, thrown as an ApiError). */
export function sendSessionMessage(id: string, text: string): Promise<{ accepted: true }> {
  return api<{ accepted: true }>('POST', `/sessions/${seg(id)}/messages`, { text });
}

/** Stops the session, every task it started, and denies all their cards. */
export function stopSession(id: string): Promise<StopOutcome> {
  return api<StopOutcome>('POST', `/sessions/${seg(id)}/stop`);
}

/**
 * Follow with followStream: a delegation's events plus `message`, `reply`, `task-started`,
 * `task-finished` and the cards of the session's tasks. It ends after `finished`.
 */
export function sessionEventsPath(id: string): string {
  return `/sessions/${seg(id)}/events`;
}

/** The console route of a session's chat view. */
export function sessionRoute(id: string): string {
  return `/sessions/${seg(id)}`;
}

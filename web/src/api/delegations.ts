/**
 * Typed calls for delegations and sessions: list (with filters), state, stop, and the path of a
 * delegation's event stream. Shapes are the server's own (type-only imports).
 */
import type { DelegationSummary, StopOutcome } from '../../../src/temporal/delegations/types.js';
import type { SessionSummary } from '../../../src/temporal/sessions/types.js';
import { api, seg } from './client';
import type { DelegationStatus, DelegationView } from './types';

export type { DelegationSummary, SessionSummary, StopOutcome };

/**
 * Every status in lifecycle order, for filters. A copy (the console may import only types from
 * the server), checked both ways against the server's union below.
 */
export const DELEGATION_STATUSES = [
  'running',
  'parked',
  'idle',
  'completed',
  'failed',
  'stopped',
] as const satisfies readonly DelegationStatus[];
type MissingStatus = Exclude<DelegationStatus, (typeof DELEGATION_STATUSES)[number]>;
const everyStatusListed: [MissingStatus] extends [never] ? true : never = true;
void everyStatusListed;

export interface DelegationFilter {
  agent?: string;
  session?: string;
  status?: DelegationStatus;
}

function query(filter: DelegationFilter): string {
  const params = new URLSearchParams();
  for (const key of ['agent', 'session', 'status'] as const) {
    const value = filter[key];
    if (value !== undefined && value !== '') params.set(key, value);
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export async function listDelegations(
  filter: DelegationFilter = {},
  signal?: AbortSignal,
): Promise<DelegationSummary[]> {
  const body = await api<{ delegations: DelegationSummary[] }>(
    'GET',
    `/delegations${query(filter)}`,
    undefined,
    signal,
  );
  return body.delegations;
}

export function getDelegation(id: string, signal?: AbortSignal): Promise<DelegationView> {
  return api<DelegationView>('GET', `/delegations/${seg(id)}`, undefined, signal);
}

export function stopDelegation(id: string): Promise<StopOutcome> {
  return api<StopOutcome>('POST', `/delegations/${seg(id)}/stop`);
}

/** Follow with followStream; the server ends it after `finished` (no reconnectOnEnd). */
export function delegationEventsPath(id: string): string {
  return `/delegations/${seg(id)}/events`;
}

export async function listSessions(signal?: AbortSignal): Promise<SessionSummary[]> {
  const body = await api<{ sessions: SessionSummary[] }>('GET', '/sessions', undefined, signal);
  return body.sessions;
}

/** Agent names for a filter (`GET /workspace/agents`, effective definitions only). */
export async function listAgentNames(signal?: AbortSignal): Promise<string[]> {
  const body = await api<{ agents: Array<{ name: string; effective: boolean }> }>(
    'GET',
    '/workspace/agents',
    undefined,
    signal,
  );
  return [...new Set(body.agents.filter((a) => a.effective).map((a) => a.name))].sort();
}

/**
 * Typed calls for the agent routes (src/api/agents/routes.ts) and for starting a
 * delegation of one agent. One small function per route, so any page can use them. Shapes come
 * from the server's own schemas (type-only), never retyped here.
 */
import type {
  AgentDetail,
  AgentList,
  AgentMutation,
  AgentSummary,
  DelegationStarted,
  DuplicateAgentBody,
  Revision,
  RevisionText,
  StartDelegationBody,
} from '../../../src/api/contract.js';
import { api, seg } from './client';

export type { AgentDetail, AgentSummary, DuplicateAgentBody };
export type AgentLevel = AgentSummary['level'];
export type WritableLevel = NonNullable<DuplicateAgentBody['level']>;
export type { AgentList, AgentMutation, DelegationStarted, Revision, RevisionText };

/** The levels in the order the console shows them. */
export const AGENT_LEVELS: readonly AgentLevel[] = ['builtin', 'user', 'project', 'ecosystem'];

/** `?level=`: a name may exist at several levels, and the path alone means the effective one. */
function levelQuery(level: string | undefined): string {
  return level === undefined ? '' : `?level=${seg(level)}`;
}

/** The console route of an agent's view page (a hash route, for links and navigate()). */
export function agentRoute(name: string, level?: string): string {
  return `/agents/${seg(name)}${levelQuery(level)}`;
}

/** The console route of an agent's edit page. */
export function agentEditRoute(name: string, level?: AgentLevel): string {
  return `/agents/${seg(name)}/edit${levelQuery(level)}`;
}

export function listAgents(signal?: AbortSignal): Promise<AgentList> {
  return api<AgentList>('GET', '/workspace/agents', undefined, signal);
}

/** `level` as the page's address gave it: the API refuses one it does not know (422). */
export function getAgent(name: string, level?: string, signal?: AbortSignal): Promise<AgentDetail> {
  return api<AgentDetail>(
    'GET',
    `/workspace/agents/${seg(name)}${levelQuery(level)}`,
    undefined,
    signal,
  );
}

/** Copies `name` (at `sourceLevel` when given) with every field; `body.level` defaults to user. */
export function duplicateAgent(
  name: string,
  body: DuplicateAgentBody,
  sourceLevel?: AgentLevel,
): Promise<AgentMutation> {
  return api<AgentMutation>(
    'POST',
    `/workspace/agents/${seg(name)}/duplicate${levelQuery(sourceLevel)}`,
    body,
  );
}

/** Every kept version of `name`, at every writable level, newest first. */
export async function revisions(name: string, signal?: AbortSignal): Promise<Revision[]> {
  const answer = await api<{ name: string; revisions: Revision[] }>(
    'GET',
    `/workspace/agents/${seg(name)}/revisions`,
    undefined,
    signal,
  );
  return answer.revisions;
}

/** One revision's text; a server without the route answers 404 or 405 (an ApiError). */
export function revisionText(
  name: string,
  revision: string,
  signal?: AbortSignal,
): Promise<RevisionText> {
  return api<RevisionText>(
    'GET',
    `/workspace/agents/${seg(name)}/revisions/${seg(revision)}`,
    undefined,
    signal,
  );
}

/** Makes a revision current again (at the revision's own level); the current file is kept. */
export function restoreRevision(name: string, revision: string): Promise<AgentMutation> {
  return api<AgentMutation>(
    'POST',
    `/workspace/agents/${seg(name)}/revisions/${seg(revision)}/restore`,
  );
}

export function deleteAgent(name: string, level?: AgentLevel): Promise<void> {
  return api<void>('DELETE', `/workspace/agents/${seg(name)}${levelQuery(level)}`);
}

/** Starts a delegation of `body.agent` and returns at once (no `?wait`). */
export function startDelegation(body: StartDelegationBody): Promise<DelegationStarted> {
  return api<DelegationStarted>('POST', '/delegations', body);
}

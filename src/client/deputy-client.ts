/**
 * A typed client for deputy's HTTP API: delegations, cards, sessions and
 * agents, with event streams as async iterators that resume. Request shapes are the API's own
 * zod schemas (`z.input`), answers the shared contracts, errors one DeputyClientError carrying
 * the API's stable `code`.
 */
import type {
  AgentDetail,
  AgentLevelRequest,
  AgentSummary,
  CreateAgentRequest,
  DelegationListRequest,
  DuplicateAgentRequest,
  ResumeDelegationRequest,
  SessionListRequest,
  SteeringMessage,
  StartDelegationRequest,
  StartSessionRequest,
  StateView,
  UpdateAgentRequest,
} from '../api/contract.js';
import type {
  ApprovalCard,
  CardDecisionKind,
  DelegationResult,
  DelegationState,
  DelegationStatus,
} from '../shared/delegation.js';
import type { CardLinks } from '../shared/cards/card-links.js';
import type { SessionState } from '../shared/session.js';
import type { Grant } from '../shared/policy-contract.js';
import type {
  DelegationSummary,
  RecordedDecision,
  StopOutcome,
} from '../temporal/delegations/types.js';
import type { SessionSummary } from '../temporal/sessions/types.js';
import { followEvents, type EventsOptions, type StreamEvent } from './event-iterator.js';
import { httpTransport, type HttpOptions } from './http-transport.js';
import { scheduleMethods, type ScheduleMethods } from './schedule-client.js';

/** What a decision may say besides approve, deny or answer (docs/policy.md). */
export interface CardDecisionOptions {
  /** Shown to the model on deny; recorded on approve. */
  reason?: string;
  /** Decision `answer`: the text the model gets in the tool's place. */
  answer?: string;
  /**
   * Decision `approve`: also allow the same scope for the rest of the delegation, or with
   * `session` of its session (the session's calls and every Task child; 422 outside one).
   */
  allow?: 'delegation' | 'session';
  /** Decision `approve`: run the call with these arguments (never wider than the card). */
  arguments?: Record<string, unknown>;
}

/** One entry of `decideMany`'s answer. */
export interface CardDecisionResult {
  cardId: string;
  status: 'decided' | 'recorded' | 'refused';
  card?: ApprovalCard;
  recorded?: RecordedDecision;
  /** Refused: why (`not-found`, `conflict`, `forbidden`, `invalid`, `unavailable`). */
  error?: string;
  httpStatus?: number;
  message?: string;
}

export type StartDelegation = StartDelegationRequest;
export type StartSession = StartSessionRequest;
export type DelegationFilter = DelegationListRequest;
export type SessionFilter = SessionListRequest;
export type CreateAgent = CreateAgentRequest;
export type UpdateAgent = UpdateAgentRequest;
export type DuplicateAgent = DuplicateAgentRequest;
/** Which definition of that name: `scope` as qwen-code says it, or deputy's `level`. */
export type AgentLevel = AgentLevelRequest;

export interface StartedDelegation {
  delegationId: string;
  workflowId: string;
  session: string;
  agent: string;
  status: DelegationStatus;
  /** Set when it finished before the answer (`wait`). */
  result: DelegationResult | null;
  /** With `wait`, when it did not finish: parked on cards, or no worker runs it. */
  state?: DelegationState;
  message?: string;
}

export interface StartedSession {
  sessionId: string;
  workflowId: string;
  agent: string;
}

/** What `delegations.start` returns: the started delegation, and what to do with it next. */
export interface DelegationHandle extends StartedDelegation {
  get(): Promise<StateView<DelegationState>>;
  events(options?: EventsOptions): AsyncGenerator<StreamEvent>;
  stop(): Promise<StopOutcome>;
}

/** What `sessions.start` returns: the started session, and what to do with it next. */
export interface SessionHandle extends StartedSession {
  get(): Promise<StateView<SessionState>>;
  send(text: string): Promise<void>;
  events(options?: EventsOptions): AsyncGenerator<StreamEvent>;
  stop(): Promise<StopOutcome>;
}

export interface DeputyClient {
  delegations: {
    /** With `wait: true`, answers once it finished, parked on a card, or nothing runs it. */
    start(request: StartDelegation, options?: { wait?: boolean }): Promise<DelegationHandle>;
    /**
     * With auth, a caller who is neither an admin nor its starter gets a summary: `withheld`
     * says what was left out. Its `events` then throw a 403 DeputyClientError (`forbidden`).
     */
    get(delegationId: string): Promise<StateView<DelegationState>>;
    list(filter?: DelegationFilter): Promise<DelegationSummary[]>;
    stop(delegationId: string): Promise<StopOutcome>;
    /** Revokes grant `n`: calls it allowed ask again. Answers the revoked grant. */
    revokeGrant(delegationId: string, n: number): Promise<Grant>;
    /**
     * Sends a running delegation a message its model gets at the next round boundary:
     * answers it queued (`seq`). 409 once it finished: resume it instead.
     */
    send(
      delegationId: string,
      text: string,
      options?: { messageId?: string },
    ): Promise<SteeringMessage>;
    /** Continues a finished delegation with a new message, as a new delegation. */
    resume(delegationId: string, request: ResumeDelegationRequest): Promise<StartedDelegation>;
    events(delegationId: string, options?: EventsOptions): AsyncGenerator<StreamEvent>;
  };
  cards: {
    /**
     * Pending cards of a session and of every delegation in it, oldest first; with auth, only
     * those the caller may decide (all for an admin).
     */
    list(session: string): Promise<ApprovalCard[]>;
    /**
     * The approvals inbox: every pending card across sessions (or one session's), oldest first;
     * with auth, only those the caller may decide.
     */
    pending(filter?: { session?: string }): Promise<ApprovalCard[]>;
    /**
     * Signed one-tap approve and deny links for a pending card, deciding as this client's caller.
     * 503 `unavailable` when the API has no link key configured.
     */
    links(cardId: string): Promise<CardLinks>;
    /**
     * The decided card, or the recorded decision when no worker applied it within seconds.
     * `options`: a reason, an `answer` (decision `answer`), `allow: 'delegation'` or
     * edited `arguments` (decision `approve`); a string is the reason, as before.
     */
    decide(
      cardId: string,
      decision: CardDecisionKind,
      options?: string | CardDecisionOptions,
    ): Promise<ApprovalCard | RecordedDecision>;
    /**
     * Several cards at once (`POST /cards/decisions`): each applied once, in order;
     * a result per decision (`decided`, `recorded` or `refused` with why), never all-or-nothing.
     */
    decideMany(
      decisions: Array<{ cardId: string; decision: CardDecisionKind } & CardDecisionOptions>,
    ): Promise<CardDecisionResult[]>;
  };
  agents: {
    list(): Promise<AgentSummary[]>;
    get(name: string, level?: AgentLevel): Promise<AgentDetail>;
    create(request: CreateAgent): Promise<AgentDetail>;
    update(name: string, changes: UpdateAgent, level?: AgentLevel): Promise<AgentDetail>;
    /** Resolves once the file is gone. */
    delete(name: string, level?: AgentLevel): Promise<void>;
    duplicate(name: string, request: DuplicateAgent): Promise<AgentDetail>;
  };
  sessions: {
    start(request?: StartSession): Promise<SessionHandle>;
    /** As `delegations.get`: a summary with `withheld` for a caller who may not read it all. */
    get(sessionId: string): Promise<StateView<SessionState>>;
    list(filter?: SessionFilter): Promise<SessionSummary[]>;
    send(sessionId: string, text: string): Promise<void>;
    stop(sessionId: string): Promise<StopOutcome>;
    events(sessionId: string, options?: EventsOptions): AsyncGenerator<StreamEvent>;
  };
  /** Recurring delegations on Temporal Schedules. */
  schedules: ScheduleMethods;
}

/** A client over a deputy API (`deputy dev`, `deputy api`). */
export function createDeputyClient(options: HttpOptions): DeputyClient {
  const http = httpTransport(options);
  const get = async <T>(path: string) => (await http.json<T>('GET', path)).body;
  const post = async <T>(path: string, body?: unknown) =>
    (await http.json<T>('POST', path, body)).body;
  const id = (value: string) => encodeURIComponent(value);

  const client: DeputyClient = {
    delegations: {
      async start(request, startOptions = {}) {
        const path = `/delegations${startOptions.wait === true ? '?wait=true' : ''}`;
        const started = await post<StartedDelegation>(path, request);
        const { delegationId } = started;
        return {
          ...started,
          get: () => client.delegations.get(delegationId),
          events: (eventOptions) => client.delegations.events(delegationId, eventOptions),
          stop: () => client.delegations.stop(delegationId),
        };
      },
      get: (delegationId) => get(`/delegations/${id(delegationId)}`),
      list: async (filter = {}) =>
        (await get<{ delegations: DelegationSummary[] }>(`/delegations${query(filter)}`))
          .delegations,
      stop: (delegationId) => post(`/delegations/${id(delegationId)}/stop`),
      revokeGrant: async (delegationId, n) =>
        (
          await http.json<{ grant: Grant }>(
            'DELETE',
            `/delegations/${id(delegationId)}/grants/${n}`,
          )
        ).body.grant,
      send: (delegationId, text, sendOptions = {}) =>
        post(`/delegations/${id(delegationId)}/messages`, { text, ...sendOptions }),
      resume: (delegationId, request) => post(`/delegations/${id(delegationId)}/resume`, request),
      events: (delegationId, eventOptions) =>
        followEvents(http, `/delegations/${id(delegationId)}/events`, eventOptions),
    },
    cards: {
      list: async (session) =>
        (await get<{ cards: ApprovalCard[] }>(`/sessions/${id(session)}/cards`)).cards,
      pending: async (filter = {}) =>
        (await get<{ cards: ApprovalCard[] }>(`/cards${query(filter)}`)).cards,
      links: (cardId) => post(`/cards/${id(cardId)}/links`),
      decideMany: async (decisions) =>
        (await post<{ results: CardDecisionResult[] }>('/cards/decisions', { decisions })).results,
      decide: (cardId, decision, options) =>
        post(`/cards/${id(cardId)}`, {
          decision,
          ...(typeof options === 'string' ? { reason: options } : options),
        }),
    },
    agents: {
      list: async () => (await get<{ agents: AgentSummary[] }>('/workspace/agents')).agents,
      get: (name, level = {}) => get(`/workspace/agents/${id(name)}${query(level)}`),
      create: async (request) =>
        (await post<{ agent: AgentDetail }>('/workspace/agents', request)).agent,
      update: async (name, changes, level = {}) =>
        (
          await post<{ agent: AgentDetail }>(
            `/workspace/agents/${id(name)}${query(level)}`,
            changes,
          )
        ).agent,
      delete: async (name, level = {}) => {
        await http.json('DELETE', `/workspace/agents/${id(name)}${query(level)}`);
      },
      duplicate: async (name, request) =>
        (await post<{ agent: AgentDetail }>(`/workspace/agents/${id(name)}/duplicate`, request))
          .agent,
    },
    sessions: {
      async start(request = {}) {
        const started = await post<StartedSession>('/sessions', request);
        const { sessionId } = started;
        return {
          ...started,
          get: () => client.sessions.get(sessionId),
          send: (text) => client.sessions.send(sessionId, text),
          events: (eventOptions) => client.sessions.events(sessionId, eventOptions),
          stop: () => client.sessions.stop(sessionId),
        };
      },
      get: (sessionId) => get(`/sessions/${id(sessionId)}`),
      list: async (filter = {}) =>
        (await get<{ sessions: SessionSummary[] }>(`/sessions${query(filter)}`)).sessions,
      send: async (sessionId, text) => {
        await post(`/sessions/${id(sessionId)}/messages`, { text });
      },
      stop: (sessionId) => post(`/sessions/${id(sessionId)}/stop`),
      events: (sessionId, eventOptions) =>
        followEvents(http, `/sessions/${id(sessionId)}/events`, eventOptions),
    },
    schedules: scheduleMethods(http),
  };
  return client;
}

function query(filter: Record<string, string | undefined>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter))
    if (value !== undefined) params.set(key, value);
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

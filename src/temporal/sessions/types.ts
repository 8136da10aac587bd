/** The contract of the Sessions facade: what the API and the CLI may ask about sessions. */
import type { Caller } from '../../shared/caller.js';
import type { ApprovalCard, DelegationEvent, DelegationStatus } from '../../shared/delegation.js';
import type { SessionOptions, SessionState } from '../../shared/session.js';
import type { DelegationDetail, StopOutcome } from '../delegations/types.js';

/** Workflow type name of a session (src/workflows/index.ts exports `session`). */
export const SESSION_WORKFLOW_TYPE = 'session';

export interface StartSessionRequest {
  /** Default: the built-in main agent (MAIN_AGENT). */
  agent?: string;
  /** The first user message; without one the session waits for `send`. */
  message?: string;
  caller: Caller;
  options: SessionOptions;
  /** Generated (`s-` + 12 base36 characters) when omitted. */
  sessionId?: string;
}

export interface StartedSession {
  sessionId: string;
  workflowId: string;
  agent: string;
}

/** One row of a listing, read from visibility alone (no worker needed). */
export interface SessionSummary {
  sessionId: string;
  workflowId: string;
  agent: string | null;
  status: DelegationStatus;
  /** The session's own pending cards (its children's are on their own rows). */
  pendingCards: number;
  /** First line of the first message. */
  firstMessage: string | null;
  startedAt: string;
  closedAt: string | null;
}

export interface Sessions {
  start(request: StartSessionRequest): Promise<StartedSession>;
  /** `conflict` when the session has ended; `not-found` when there is no such session. */
  send(sessionId: string, message: { text: string; from: string | null }): Promise<void>;
  /** With `toolQueue`, as a delegation's detail (DelegationDetail). */
  get(sessionId: string): Promise<SessionState & Pick<DelegationDetail, 'toolQueue'>>;
  list(filter?: { agent?: string; status?: DelegationStatus }): Promise<SessionSummary[]>;
  /** Stops the session, its children and all their cards (denied). */
  stop(sessionId: string): Promise<StopOutcome>;
  /** User id of the caller who started it; null without auth. */
  owner(sessionId: string): Promise<string | null>;
  events(sessionId: string, afterSeq: number): Promise<DelegationEvent[]>;
  /** Pending cards of the session and of every delegation in it, oldest first. */
  cards(sessionId: string): Promise<ApprovalCard[]>;
}

/**
 * The contract of the Delegations facade: what the API and the CLI may ask about delegations.
 * Kept apart from the Temporal implementation (delegations.ts) so routes and commands depend on
 * this shape only.
 */
import type { Caller } from '../../shared/caller.js';
import type {
  ApprovalCard,
  CardDecisionKind,
  DelegationEvent,
  DelegationOptions,
  DelegationResult,
  DelegationState,
  DelegationStatus,
} from '../../shared/delegation.js';

/** Workflow type name of a delegation (src/workflows/index.ts exports `delegation`). */
export const DELEGATION_WORKFLOW_TYPE = 'delegation';

export interface StartDelegationRequest {
  agent: string;
  task: string;
  session: string;
  caller: Caller;
  options: DelegationOptions;
  /** Generated (`d-` + 12 base36 characters) when omitted. */
  delegationId?: string;
}

export interface StartedDelegation {
  delegationId: string;
  workflowId: string;
  session: string;
  agent: string;
}

/** One row of a listing, read from visibility alone (no worker needed). */
export interface DelegationSummary {
  delegationId: string;
  workflowId: string;
  agent: string | null;
  session: string | null;
  status: DelegationStatus;
  pendingCards: number;
  /** First line of the task (the memo). */
  task: string | null;
  startedAt: string;
  closedAt: string | null;
}

export interface ListFilter {
  session?: string;
  agent?: string;
  status?: DelegationStatus;
}

export type StopOutcome = { stopped: true } | { alreadyFinished: true; status: DelegationStatus };

export interface DecideRequest {
  decision: CardDecisionKind;
  reason?: string;
  decidedBy?: string | null;
}

/** What the API and the CLI need from delegations. The Temporal implementation is in delegations.ts. */
export interface Delegations {
  start(request: StartDelegationRequest): Promise<StartedDelegation>;
  /** Workflow id of a delegation; `not-found` when no such delegation exists. */
  find(delegationId: string): Promise<string>;
  get(delegationId: string): Promise<DelegationState>;
  list(filter?: ListFilter): Promise<DelegationSummary[]>;
  stop(delegationId: string): Promise<StopOutcome>;
  /** Pending cards across delegations, oldest first. */
  cards(filter?: { session?: string }): Promise<ApprovalCard[]>;
  /** `not-found` for an unknown card, `conflict` for a card already decided. */
  decide(cardId: string, request: DecideRequest): Promise<ApprovalCard>;
  events(delegationId: string, afterSeq: number): Promise<DelegationEvent[]>;
  /** Waits for the delegation to finish. */
  result(delegationId: string): Promise<DelegationResult>;
}

/**
 * The contract of the Delegations facade: what the API and the CLI may ask about delegations.
 * Kept apart from the Temporal implementation (delegations.ts) so routes and commands depend on
 * this shape only.
 */
import type { Caller } from '../../shared/caller.js';
import type { Grant, PermissionMode } from '../../shared/policy-contract.js';
import type {
  ApprovalCard,
  CardDecision,
  CardDecisionKind,
  DelegationEvent,
  DelegationFork,
  DelegationOptions,
  DelegationResult,
  DelegationState,
  DelegationStatus,
} from '../../shared/delegation.js';
import type { SteeringMessage } from '../../shared/steering.js';
import type { DelegationLookup } from './lookup.js';

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
  /** Run on this model (a handle or alias) instead of the definition's. */
  model?: string;
  /** A fork's origin and transcript (Delegations.fork builds it). */
  fork?: DelegationFork;
}

/** What a fork and a resume both take: the new delegation goes on from an existing one. */
export interface GoOnRequest {
  /** The definition to go on under; default the original's agent. */
  agent?: string;
  /** The model to go on with; default the definition's. */
  model?: string;
  /** Default the original's session. */
  session?: string;
  delegationId?: string;
  caller: Caller;
  options?: DelegationOptions;
}

/** `deputy fork`: a new delegation from an existing one's transcript up to a round. */
export interface ForkRequest extends GoOnRequest {
  /** The last round of the original the fork keeps (1 or more). */
  fromRound: number;
}

/**
 * `deputy resume`: a finished delegation goes on with a new message, as a new
 * delegation whose transcript is the original's whole transcript (no tool runs again) plus it.
 */
export interface ResumeRequest extends GoOnRequest {
  /** The new user message (same limit as a task). */
  text: string;
}

/** A message to a running delegation: who sends what, and an optional repeat-safe id. */
export interface SendRequest {
  text: string;
  from: string | null;
  messageId?: string;
}

/** Where a fork or a resumed delegation comes from (its memo), in its state and listing row. */
export interface DelegationOrigin {
  delegationId: string;
  /** The original's last round the new one kept. */
  fromRound: number;
  /** True when it was resumed with a new message (deputy resume), not forked. */
  resumed?: true;
}

export interface StartedDelegation {
  delegationId: string;
  workflowId: string;
  session: string;
  agent: string;
}

/** A delegation's state as the facade answers it: the workflow's, and where its tools run. */
export interface DelegationDetail extends DelegationState {
  /**
   * The workspace tool queue its model calls, tools and hooks run on (from the memo);
   * null when they run on the shared task queue. The Temporal facade always sets it; answers
   * built without it (older API stubs) leave it out.
   */
  toolQueue?: string | null;
  /**
   * Its model call failed and is being retried (model-retry.ts); null when none is. The Temporal
   * facade always sets it; answers built without it leave it out.
   */
  modelRetry?: ModelRetry | null;
  /** The delegation it was forked or resumed from (its memo); absent for any other. */
  origin?: DelegationOrigin;
}

/** A model call between attempts, as the workflow's pending activity describes it. */
export interface ModelRetry {
  /** The attempt running or scheduled next (2 after the first failure). */
  attempt: number;
  /** The retry policy's limit; 0 when unlimited. */
  maximumAttempts: number;
  /** The last attempt's failure: the provider, the status, which attempt, when the next. */
  lastFailure: string;
  /** When the next attempt starts (ISO 8601); null while one runs. */
  nextAttemptAt: string | null;
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
  /**
   * Input + output tokens as of its last status change (the DeputyTokens search attribute);
   * null before its first model call, and for delegations from before usage was counted.
   */
  tokens: number | null;
  startedAt: string;
  closedAt: string | null;
  /** The delegation it was forked or resumed from (its memo); absent for any other. */
  origin?: DelegationOrigin;
}

export interface ListFilter {
  session?: string;
  agent?: string;
  status?: DelegationStatus;
  /** Only those this user started (the memo's owner): the MCP door's listings of a caller's tasks. */
  owner?: string;
  /** Only the runs of this schedule (the DeputySchedule search attribute, src/temporal/schedules). */
  schedule?: string;
}

export type StopOutcome = { stopped: true } | { alreadyFinished: true; status: DelegationStatus };

export interface DecideRequest {
  decision: CardDecisionKind;
  reason?: string;
  decidedBy?: string | null;
  /** The text in the tool's place (`answer`), a grant, edited arguments (`approve`). */
  answer?: string;
  allow?: 'delegation' | 'session';
  arguments?: Record<string, unknown>;
  /**
   * The permission mode the deciding door serves under (`deputy mcp serve --mode`): a decision
   * beyond it is refused `forbidden` (src/temporal/delegations/cards/decision-ceiling.ts). Absent: no ceiling.
   */
  ceiling?: PermissionMode;
}

/**
 * A decision Temporal has stored (a `decideCard` signal in the delegation's history) that no
 * worker has applied yet: none runs, or none did within the wait. It applies when a worker picks
 * the delegation up, unless the card is settled before that (the delegation is stopped).
 */
export interface RecordedDecision {
  status: 'recorded';
  /** The card as it was pending when the decision was recorded (memo copy: long values cut). */
  card: ApprovalCard;
  decision: CardDecision;
  message: string;
}

/** The decided card when a worker applied the decision at once, else the recorded decision. */
export type DecideOutcome = ApprovalCard | RecordedDecision;

export function isRecorded(outcome: DecideOutcome): outcome is RecordedDecision {
  return 'status' in outcome && outcome.status === 'recorded';
}

/**
 * Where a delegation stands once `settle` stops waiting: finished; parked on approval cards
 * (someone must decide before it goes on); or still running, because no worker runs it or the
 * caller stopped waiting.
 */
export type Settled =
  | { status: 'finished'; result: DelegationResult }
  | { status: 'parked'; state: DelegationDetail }
  | { status: 'running'; state: DelegationDetail; message: string };

/** What the API and the CLI need from delegations. The Temporal implementation is in delegations.ts. */
export interface Delegations {
  start(request: StartDelegationRequest): Promise<StartedDelegation>;
  /**
   * Starts a new delegation whose transcript is `delegationId`'s up to round `fromRound`, read
   * from its history (every run of it): no tool of those rounds runs again. `invalid` when the
   * original has no round after `fromRound` to redo; `not-found` for an unknown id.
   */
  fork(delegationId: string, request: ForkRequest): Promise<StartedDelegation>;
  /**
   * Continues a completed, failed or stopped delegation with a new message: a new
   * delegation from its whole transcript (read from its history; no tool runs again) and the
   * message. `conflict` while it still runs (send it a message instead); `not-found`, `invalid`.
   */
  resume(delegationId: string, request: ResumeRequest): Promise<StartedDelegation>;
  /**
   * Sends a running delegation a message its model gets at the next round boundary;
   * answers the queued message. `conflict` once it finished, `invalid` for a blank or too long
   * text, `unavailable` when no worker runs to take it.
   */
  send(delegationId: string, request: SendRequest): Promise<SteeringMessage>;
  /**
   * Finding workflows by id (src/temporal/delegations/lookup.ts), shared with the Sessions facade:
   * a session is found by its id like a delegation, and a GET right after a start never races
   * visibility.
   */
  lookup: DelegationLookup;
  /** Workflow id of a delegation; `not-found` when no such delegation exists. */
  find(delegationId: string): Promise<string>;
  /**
   * User id of the caller who started the delegation (its owner, read from the memo, no worker
   * needed); null when it was started without auth or before owners were recorded. `not-found`
   * when no such delegation exists.
   */
  owner(delegationId: string): Promise<string | null>;
  get(delegationId: string): Promise<DelegationDetail>;
  list(filter?: ListFilter): Promise<DelegationSummary[]>;
  stop(delegationId: string): Promise<StopOutcome>;
  /** Pending cards across delegations, oldest first. */
  cards(filter?: { session?: string }): Promise<ApprovalCard[]>;
  /**
   * `not-found` for an unknown card (or one not pending while no worker can tell which),
   * `conflict` for a card already decided or with a decision already recorded. Never waits for
   * a worker longer than the facade's `decisionWaitMs`: then the decision is `recorded`.
   */
  decide(cardId: string, request: DecideRequest): Promise<DecideOutcome>;
  /**
   * Revokes grant `n` of a running delegation: later calls it covered ask again.
   * `not-found` for no such grant or one already revoked, `conflict` once it finished,
   * `unavailable` when no worker runs to answer.
   */
  revokeGrant(delegationId: string, n: number, revokedBy: string | null): Promise<Grant>;
  events(delegationId: string, afterSeq: number): Promise<DelegationEvent[]>;
  /** Waits until the delegation finishes or parks on a card, or no worker runs it. */
  settle(delegationId: string, options?: { signal?: AbortSignal }): Promise<Settled>;
  /** Resolves when Temporal answers; TemporalUnreachableError (`unavailable`) when it does not. */
  ping(): Promise<void>;
}

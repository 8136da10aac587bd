import type { Caller } from './caller.js';
import type { Grant, PermissionMode, UnattendedVerdict } from './policy-contract.js';
import type { PermissionInEffect } from './permission-in-effect.js';
import type { SandboxBounds } from './sandbox-contract.js';
import type { TranscriptEntry } from './model-contract.js';
import type { SteeringMessage } from './steering.js';

/** Task queue every deputy worker polls; any number of workers may share it. */
export const TASK_QUEUE = 'deputy-delegations';

/** Every status, in lifecycle order. `idle`: a session waiting for its next user message. */
export const DELEGATION_STATUSES = [
  'running',
  'parked',
  'idle',
  'completed',
  'failed',
  'stopped',
] as const;
export type DelegationStatus = (typeof DELEGATION_STATUSES)[number];
export type FinishedStatus = Extract<DelegationStatus, 'completed' | 'failed' | 'stopped'>;

export interface DelegationOptions {
  /** `deny`: no human will answer, so every `ask` becomes `deny` at once. */
  unattended?: UnattendedVerdict;
  /** Return at once; the delegation runs on (as with a definition's `background`). */
  background?: boolean;
  /**
   * How long this delegation's cards wait (`30m`), over the definition's and the workspace's
   * `cardTimeout`; checked when the delegation starts.
   */
  cardTimeout?: string;
  /** Token budget (input + output) of this delegation, over the definition's `maxTokens`. */
  maxTokens?: number;
  /**
   * The caller's own permission mode, named as Claude Code names them: the
   * delegation runs at the lower of the agent's policy and this mode, never wider than either.
   * Absent: the agent's own policy.
   */
  callerMode?: PermissionMode;
}

export interface DelegationInput {
  delegationId: string;
  agent: string;
  task: string;
  session: string;
  caller: Caller;
  options: DelegationOptions;
  /** Set when a session started it with `Task`: it reports its progress there. */
  parent?: ParentSession;
  /** The session's grants for the rest of the session when it started this child. */
  sessionGrants?: Grant[];
  /** `Task`'s `model`: run on it instead of the definition's (a handle or alias, checked). */
  model?: string;
  /** The session's model, which a definition saying `model: inherit` runs on. */
  parentModel?: string;
  /** Set on a fork (`deputy fork`): the run starts from the original's transcript. */
  fork?: DelegationFork;
  /**
   * Set on a run a Temporal Schedule started (src/temporal/schedules): the schedule's name. Its
   * `delegationId` is then the schedule's; the run takes its own from its workflow id
   * (shared/workflow-contract/scheduled-run.ts) before anything else.
   */
  schedule?: string;
}

/**
 * Where a forked delegation comes from: its transcript is the original's up to and
 * including round `fromRound`, tool results included, read from the original's history, so no
 * tool of those rounds runs again. Its rounds count on from `fromRound`.
 */
export interface DelegationFork {
  delegationId: string;
  workflowId: string;
  fromRound: number;
  transcript: TranscriptEntry[];
  /**
   * Set when it resumes a finished delegation with a new message (`deputy resume`):
   * its transcript is the original's whole one plus that message, and it counts its own rounds
   * from 0 (a fresh `maxTurns`). Absent: a fork, whose rounds count on from `fromRound`.
   */
  resumed?: true;
}

/** Workflow id of a delegation. */
export function delegationWorkflowId(session: string, delegationId: string): string {
  return `delegation/${session}/${delegationId}`;
}

/** A task's first line, at most 200 characters: the memo ops see in the Temporal UI. */
export function firstLine(task: string): string {
  const line = task.trim().split('\n', 1)[0] ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/** `answer`: a person's text stands in for the tool's result; the tool does not run. */
export type CardDecisionKind = 'approve' | 'deny' | 'answer';

export type CardState =
  | { status: 'pending' }
  | {
      status: 'approved';
      reason: string | null;
      decidedAt: string;
      decidedBy: string | null;
      decisionId?: string;
      /** Settled by its deadline, not by a person (`decidedBy` is `deadline`). */
      expired?: true;
      /** The arguments the call ran with instead of the card's, secrets redacted. */
      editedArguments?: Record<string, unknown>;
      /** The number of the grant this approval recorded (`allow: 'delegation'`). */
      grant?: number;
    }
  | {
      status: 'denied';
      reason: string;
      decidedAt: string;
      decidedBy: string | null;
      decisionId?: string;
      expired?: true;
    }
  | {
      /** A person answered in the tool's place: `answer` became the call's result. */
      status: 'answered';
      answer: string;
      /** Always null: read like the other states' `reason` by code that shows any of them. */
      reason: null;
      decidedAt: string;
      decidedBy: string | null;
      decisionId?: string;
      /** Never set: a deadline approves or denies, it does not answer. */
      expired?: undefined;
    };

/** `decidedBy` of a card its deadline settled. */
export const DEADLINE_DECIDER = 'deadline';

/** An approval card: a tool call waiting on a human. */
export interface ApprovalCard {
  /** `<delegationId>.<n>`: the delegation can be found from the card id alone. */
  id: string;
  delegationId: string;
  workflowId: string;
  session: string;
  agent: string;
  tool: string;
  /** Arguments with secret-looking values replaced by `__redacted__`. */
  arguments: Record<string, unknown>;
  reason: string;
  openedAt: string;
  /** When it is settled without a decision (its `cardTimeout`); absent: it waits forever. */
  deadline?: string;
  /** When its reminder fires (`cardReminder` before the deadline); absent: no reminder. */
  remindAt?: string;
  /** When the reminder fired; absent until it has. */
  remindedAt?: string;
  state: CardState;
}

export function cardIdFor(delegationId: string, sequence: number): string {
  return `${delegationId}.${sequence}`;
}

/** The delegation id a card id belongs to, or null when the id is not a card id. */
export function delegationIdOfCard(cardId: string): string | null {
  const dot = cardId.lastIndexOf('.');
  if (dot <= 0 || !/^\d+$/.test(cardId.slice(dot + 1))) return null;
  return cardId.slice(0, dot);
}

export interface CardDecision {
  cardId: string;
  decision: CardDecisionKind;
  /** Shown to the model on deny; recorded on approve. */
  reason?: string;
  decidedBy?: string;
  /**
   * Unique per request (the API sets it): tells which of two racing decisions the card took,
   * also when both say the same thing. Absent on a stop's settlement and on older decisions.
   */
  decisionId?: string;
  /** `answer`: the text the model gets as the tool's result. */
  answer?: string;
  /**
   * `approve` only: also allow later calls of the same scope without a card for the rest of
   * this delegation (a grant, src/policy/grants.ts), or with `session` for the rest of the
   * session the delegation belongs to (its own calls and every Task child). Absent: this card
   * only, as before.
   */
  allow?: 'delegation' | 'session';
  /**
   * `approve` only: run the call with these arguments instead of the model's; never wider than
   * the card (src/policy/edit-scope.ts). Absent: the arguments the card shows.
   */
  arguments?: Record<string, unknown>;
}

/**
 * A tool call that did not run because policy or a human said no; the model was told why. A
 * `completed` delegation with denied calls did not do all that was asked: clients must show it.
 */
export interface DeniedCall {
  tool: string;
  /** `policy`: decide() or an unknown tool; `human`: a card was denied; `deadline`: it expired. */
  by: 'policy' | 'human' | 'deadline';
  reason: string;
}

export interface DelegationResult {
  status: FinishedStatus;
  /** Final answer, or the partial result when stopped or cut by `maxTurns`. */
  text: string;
  /** Visible notice when the run ended early (`maxTurns`, stop, model failure). */
  notice: string | null;
  roundsUsed: number;
  /** Calls denied during the run, in order. Absent from results recorded before deputy 0.2. */
  deniedCalls?: DeniedCall[];
  /** Tokens of its model calls; absent from results recorded before usage was counted. */
  usage?: UsageTotals;
}

/** The running totals of a delegation's model calls. */
export interface UsageTotals {
  inputTokens: number;
  outputTokens: number;
  cachedInputTokens: number;
  modelCalls: number;
  /** Calls whose provider reported no usage (some local servers): not in the token counts. */
  modelCallsWithoutUsage: number;
}

export function emptyUsage(): UsageTotals {
  return {
    inputTokens: 0,
    outputTokens: 0,
    cachedInputTokens: 0,
    modelCalls: 0,
    modelCallsWithoutUsage: 0,
  };
}

/** `a + b`, field by field (a session adds its children's). */
export function addUsage(a: UsageTotals, b: UsageTotals): UsageTotals {
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    cachedInputTokens: a.cachedInputTokens + b.cachedInputTokens,
    modelCalls: a.modelCalls + b.modelCalls,
    modelCallsWithoutUsage: a.modelCallsWithoutUsage + b.modelCallsWithoutUsage,
  };
}

export type DelegationEvent =
  | { seq: number; at: string; type: 'started'; agent: string; model: string }
  | {
      seq: number;
      at: string;
      type: 'model-turn';
      round: number;
      text: string;
      toolCalls: string[];
    }
  | {
      seq: number;
      at: string;
      type: 'tool-call';
      tool: string;
      verdict: string;
      /** The result's first 200 characters. */
      summary: string;
      /**
       * The call's arguments as JSON, secrets redacted, cut at 1,000 characters (with `…`).
       * Absent in events recorded before it was added.
       */
      arguments?: string;
    }
  | { seq: number; at: string; type: 'card-opened'; card: ApprovalCard }
  | { seq: number; at: string; type: 'card-decided'; card: ApprovalCard }
  // A pending card's reminder (`cardReminder` before its deadline), once per card.
  | { seq: number; at: string; type: 'card-reminder'; card: ApprovalCard }
  | { seq: number; at: string; type: 'finished'; result: DelegationResult }
  // A user message taken up: a session's, or one sent to a running delegation.
  | { seq: number; at: string; type: 'message'; text: string; from: string | null }
  // Sessions only: the answer to a message, a child's start and end.
  | { seq: number; at: string; type: 'reply'; text: string; roundsUsed: number }
  | { seq: number; at: string; type: 'task-started'; task: SessionTask }
  | { seq: number; at: string; type: 'task-finished'; task: SessionTask }
  // Older rounds replaced by a summary, or dropped with a note (docs/sessions.md, "Long runs").
  | ({ seq: number; at: string; type: 'compacted' } & CompactionReport)
  // Never recorded by a run: a reader's stream leads with it when the events before the live
  // run's could not be read from the runs it continued (src/temporal/earlier-runs.ts). Its
  // `seq` is the last event it stands for; `eventsNotReplayed` counts them.
  | {
      seq: number;
      at: string;
      type: 'starts-mid-run';
      eventsNotReplayed: number;
      text: string;
    };

/** What a `compacted` event says. */
export interface CompactionReport {
  by: 'summary' | 'truncation';
  /** Rounds used when it happened: it came before round `round + 1`'s model call. */
  round: number;
  /** Rounds the new entry stands for (those an earlier compaction replaced included). */
  roundsReplaced: number;
  entriesReplaced: number;
  /** The transcript's size before and after, estimated at four characters a token. */
  tokensBefore: number;
  tokensAfter: number;
  /** The last model call's input tokens and the model's context window, when known. */
  lastInputTokens?: number;
  contextTokens?: number;
  /** The summary, or the truncation's note (with why no summary could be written). */
  text: string;
}

/** What the `state` query answers. */
export interface DelegationState {
  delegationId: string;
  workflowId: string;
  agent: string;
  session: string;
  status: DelegationStatus;
  roundsUsed: number;
  maxTurns: number;
  model: string | null;
  /** sha256 of the definition file this run resolved (the revision that runs). */
  definitionHash: string | null;
  pendingCards: ApprovalCard[];
  decidedCards: ApprovalCard[];
  /** One short line per transcript entry. */
  transcriptSummary: string[];
  /** Calls denied so far, in order (the most recent 100 after a continue-as-new). */
  deniedCalls: DeniedCall[];
  /** Tokens so far (a session's include its finished children's); absent from visibility. */
  usage?: UsageTotals;
  /**
   * What a person allowed for the rest of this delegation, revoked ones included.
   * Absent when there are none, and from visibility.
   */
  grants?: Grant[];
  /**
   * The approval mode and flags it runs with, the caller's stated mode and the agent's own.
   * Absent before the agent is resolved, and when rebuilt from visibility.
   */
  permission?: PermissionInEffect;
  /**
   * What its bash calls may touch; null: the sandbox is off. Absent before the agent is
   * resolved, and when rebuilt from visibility.
   */
  sandbox?: SandboxBounds | null;
  /**
   * Messages sent to it while it ran (shared/steering.ts), in order: delivered or still
   * waiting for the next round boundary. Absent when none was sent, and from visibility.
   */
  messages?: SteeringMessage[];
  result: DelegationResult | null;
  /**
   * Present only when the workflow did not answer and the state was rebuilt from visibility and
   * the closed run's result: why. Decided cards, the transcript, usage, grants and messages are
   * then unknown, not empty; ask again for the whole state.
   */
  partial?: string;
}

/** The session a child reports to: set by the session on every child it starts. */
export interface ParentSession {
  sessionId: string;
  workflowId: string;
}

/**
 * A delegation a session started with `Task`: what `TaskOutput` and the state report, and what
 * a session's `task-started` and `task-finished` events carry.
 */
export interface SessionTask {
  /** The child's delegation id; `Task` returns it as `task_id`. */
  taskId: string;
  workflowId: string;
  agent: string;
  description: string;
  background: boolean;
  status: DelegationStatus;
  roundsUsed: number;
  pendingCards: number;
  /** The child's latest answer text so far (clipped); its final text once finished. */
  lastText: string;
  result: DelegationResult | null;
  /** A running background child's tokens as of its latest progress report; its result's after. */
  usage?: UsageTotals;
  startedAt: string;
}

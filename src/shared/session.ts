/**
 * Sessions: a main agent as a long-lived workflow that takes user messages and hands
 * work to delegates as child workflows. Sandbox-safe contracts only.
 */
import type { Caller } from './caller.js';
import type {
  ApprovalCard,
  DelegationResult,
  DelegationState,
  DelegationStatus,
  SessionTask,
  UsageTotals,
} from './delegation.js';
import type { Grant, PermissionMode, UnattendedVerdict } from './policy-contract.js';

/** The built-in main agent a session runs when none is named (agents/main.md). */
export const MAIN_AGENT = 'main';

/** Workflow id of a session. */
export function sessionWorkflowId(sessionId: string): string {
  return `session/${sessionId}`;
}

export interface SessionOptions {
  /** `deny`: no human will answer; every `ask` of the session and its children is denied. */
  unattended?: UnattendedVerdict;
  /**
   * The caller's own permission mode: the session's main agent and every delegate its
   * `Task` starts run at the lower of their own policy and this mode.
   */
  callerMode?: PermissionMode;
}

export interface SessionInput {
  sessionId: string;
  agent: string;
  caller: Caller;
  options: SessionOptions;
  /** The first user message, if the session starts with one. */
  message?: string;
}

/** A user message sent to a running session. */
export interface SessionMessage {
  text: string;
  /** User id of the sender (null with auth off). */
  from: string | null;
  /**
   * Names this send, so a send whose answer came late finds it in the history instead of
   * sending it twice (src/temporal/calls/signal-once.ts). Absent in older histories.
   */
  messageId?: string;
}

/**
 * What a child delegation tells its session (a signal to `session/<id>`): its progress, its
 * cards and its end. The session records each as an event on its own stream.
 */
export type ChildReport =
  | {
      kind: 'progress';
      taskId: string;
      status: DelegationStatus;
      roundsUsed: number;
      text: string;
      /** Absent from reports sent before usage was counted. */
      usage?: UsageTotals;
    }
  | { kind: 'card-opened'; taskId: string; card: ApprovalCard }
  | { kind: 'card-decided'; taskId: string; card: ApprovalCard }
  | { kind: 'finished'; taskId: string; result: DelegationResult }
  /** A card of the child approved with `allow: 'session'`: the session records it. */
  | { kind: 'grant'; taskId: string; grant: Grant };

/** What the session's `state` query answers: a delegation's state, plus its tasks and inbox. */
export interface SessionState extends DelegationState {
  kind: 'session';
  tasks: SessionTask[];
  /** User messages received and not yet worked on. */
  queuedMessages: number;
}

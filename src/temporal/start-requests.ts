/**
 * What every front door (the HTTP API, the CLI, `deputy chat`) does with what it was asked before
 * it starts work, written once: the background rule, masking, the options. The doors differ only
 * in how they read the ask (a body, flags, a chat line) and who the caller is. Light on purpose:
 * the CLI loads it before it knows whether it will talk to Temporal at all.
 */
import type { SecretMasker } from '../secrets/masker.js';
import type { Caller } from '../shared/caller.js';
import type { PermissionMode } from '../shared/policy-contract.js';
import { DEFAULT_SESSION } from './delegations/ids.js';
import type { StartDelegationRequest } from './delegations/types.js';
import type { StartSessionRequest } from './sessions/types.js';

/** A delegation as a door was asked for it. */
export interface DelegationAsk {
  agent: string;
  task: string;
  caller: Caller;
  /** Default: the `default` session. */
  session?: string | undefined;
  delegationId?: string | undefined;
  /** Return at once instead of following it. */
  background?: boolean | undefined;
  /** No human will answer: every `ask` becomes `deny`. */
  unattended?: boolean | undefined;
  cardTimeout?: string | undefined;
  maxTokens?: number | undefined;
  /** The caller's own permission mode: the run's ceiling. */
  callerMode?: PermissionMode | undefined;
}

/**
 * The start request for `ask`, and whether it runs in the background: asked for, or the agent's
 * own `background: true`, which a caller cannot override, as for a session's Task. A
 * configured secret typed into the task is masked: it would land in history and the model.
 */
export function delegationStart(
  ask: DelegationAsk,
  deps: { masker: SecretMasker; agentRunsInBackground: (agent: string) => boolean },
): { request: StartDelegationRequest; background: boolean } {
  const background = ask.background === true || deps.agentRunsInBackground(ask.agent);
  return {
    background,
    request: {
      agent: ask.agent,
      task: deps.masker.text(ask.task),
      session: ask.session ?? DEFAULT_SESSION,
      caller: ask.caller,
      options: {
        ...(ask.unattended === true ? { unattended: 'deny' as const } : {}),
        ...(background ? { background: true } : {}),
        ...(ask.cardTimeout === undefined ? {} : { cardTimeout: ask.cardTimeout }),
        ...(ask.maxTokens === undefined ? {} : { maxTokens: ask.maxTokens }),
        ...(ask.callerMode === undefined ? {} : { callerMode: ask.callerMode }),
      },
      ...(ask.delegationId === undefined ? {} : { delegationId: ask.delegationId }),
    },
  };
}

/** A session as a door was asked for it. */
export interface SessionAsk {
  caller: Caller;
  /** Default: the built-in main agent. */
  agent?: string | undefined;
  /** The first message; an empty one is none. */
  message?: string | undefined;
  sessionId?: string | undefined;
  unattended?: boolean | undefined;
  /** The caller's own permission mode: the ceiling of the session and its Task children. */
  callerMode?: PermissionMode | undefined;
}

/** The start request for `ask`, its first message masked like a task. */
export function sessionStart(ask: SessionAsk, masker: SecretMasker): StartSessionRequest {
  return {
    ...(ask.agent === undefined ? {} : { agent: ask.agent }),
    ...(ask.message === undefined || ask.message === ''
      ? {}
      : { message: masker.text(ask.message) }),
    ...(ask.sessionId === undefined ? {} : { sessionId: ask.sessionId }),
    caller: ask.caller,
    options: {
      ...(ask.unattended === true ? { unattended: 'deny' as const } : {}),
      ...(ask.callerMode === undefined ? {} : { callerMode: ask.callerMode }),
    },
  };
}

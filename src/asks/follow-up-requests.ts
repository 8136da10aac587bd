/**
 * What every door does with a follow-up it was asked for, written once: a message to a running
 * delegation or session, a finished delegation resumed with a new message, a delegation forked
 * from one of its rounds. The doors differ only in how they read the ask (a body, flags, a chat
 * line) and who the caller is. A configured secret typed into a message is masked here: it
 * would land in history and the model. Starting a delegation or a session is the same kind of
 * step, in temporal/start-requests.ts, since a schedule's start is built there too.
 */
import type { SecretMasker } from '../secrets/masker.js';
import type { Caller } from '../shared/caller.js';
import type { ForkRequest, ResumeRequest, SendRequest } from '../temporal/delegations/types.js';

/** What a fork or a resume may change of the original; each defaults to the original's. */
export interface FollowUpOptions {
  /** The definition to go on under. */
  agent?: string | undefined;
  /** The model to go on with (default: the definition's). */
  model?: string | undefined;
  session?: string | undefined;
  delegationId?: string | undefined;
}

function followUpOptions(ask: FollowUpOptions): FollowUpOptions {
  return {
    ...(ask.agent === undefined ? {} : { agent: ask.agent }),
    ...(ask.model === undefined ? {} : { model: ask.model }),
    ...(ask.session === undefined ? {} : { session: ask.session }),
    ...(ask.delegationId === undefined ? {} : { delegationId: ask.delegationId }),
  };
}

/** A fork as a door was asked for it: the rounds it keeps and what it changes. */
export function forkRequest(
  ask: FollowUpOptions & { fromRound: number; caller: Caller },
): ForkRequest {
  return {
    fromRound: ask.fromRound,
    caller: ask.caller,
    ...followUpOptions(ask),
  };
}

/** A resume as a door was asked for it, its new message masked. */
export function resumeRequest(
  ask: FollowUpOptions & { text: string; caller: Caller },
  masker: SecretMasker,
): ResumeRequest {
  return {
    text: masker.text(ask.text),
    caller: ask.caller,
    ...followUpOptions(ask),
  };
}

/**
 * A message to a running delegation or session, masked; `from` is who sent it (null: the
 * operator at this terminal, or auth off).
 */
export function messageRequest(
  ask: { text: string; from: string | null; messageId?: string | undefined },
  masker: SecretMasker,
): SendRequest {
  return {
    text: masker.text(ask.text),
    from: ask.from,
    ...(ask.messageId === undefined ? {} : { messageId: ask.messageId }),
  };
}

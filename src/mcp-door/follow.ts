/**
 * A blocking call of an agent tool (a client without MCP Tasks, or one that did not ask for a
 * task): the call's answer is the delegation's. Parked on cards, a host with elicitation is asked
 * and the call waits on; one without gets the cards at once (a host never waits on a person it
 * cannot show) and decides with deputy_decide. Progress notifications say where it stands.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestHandlerExtra } from '@modelcontextprotocol/sdk/shared/protocol.js';
import type {
  CallToolRequest,
  CallToolResult,
  ServerNotification,
  ServerRequest,
} from '@modelcontextprotocol/sdk/types.js';
import type { SecretMasker } from '../secrets/masker.js';
import type { Delegations, StartedDelegation } from '../temporal/delegations/types.js';
import type { CardQuestions } from './card-questions.js';
import { statusMessageOf } from './task-store.js';
import { finishedAnswer, unfinishedAnswer } from './tool-results.js';

export type Extra = RequestHandlerExtra<ServerRequest, ServerNotification>;

export interface FollowDeps {
  delegations: Delegations;
  secrets: SecretMasker;
  questions: CardQuestions;
  /** How often a parked delegation is looked at again (a decision made elsewhere). */
  pollMs: number;
}

export async function followDelegation(
  deps: FollowDeps,
  started: StartedDelegation,
  call: {
    request: CallToolRequest;
    extra: Extra;
    elicits: boolean;
    /** A caller's mode applies: the answer says what the delegation ran with. */
    ceiling: boolean;
  },
): Promise<CallToolResult> {
  const { delegations, secrets, questions } = deps;
  const { extra } = call;
  const progress = progressReporter(call.request, extra);
  await progress(`delegation ${started.delegationId} started`);
  for (;;) {
    const settled = await delegations.settle(started.delegationId, { signal: extra.signal });
    // Cards no longer pending (decided elsewhere, or the run ended) close their questions.
    questions.sync(
      settled.status === 'finished'
        ? { delegationId: started.delegationId, pendingCards: [] }
        : settled.state,
      { relatedRequestId: extra.requestId },
    );
    if (settled.status === 'finished') {
      // The ceiling is stated in the answer; without one there is nothing to state (no extra read).
      const permission = call.ceiling
        ? (await delegations.get(started.delegationId)).permission
        : undefined;
      return finishedAnswer(secrets, started, settled.result, permission);
    }
    if (settled.status === 'running')
      return unfinishedAnswer(secrets, settled.state, settled.message);
    const waiting = statusMessageOf(settled.state) ?? 'it waits for a decision';
    if (!call.elicits) {
      return unfinishedAnswer(
        secrets,
        settled.state,
        `${waiting}; then call deputy_result with wait: true`,
      );
    }
    await progress(waiting);
    try {
      await sleep(deps.pollMs, undefined, { signal: extra.signal });
    } catch {
      // The host cancelled the call: the delegation runs on, findable by its id.
      return unfinishedAnswer(
        secrets,
        settled.state,
        'the call was cancelled; the delegation runs on',
      );
    }
  }
}

/** notifications/progress on the call's token, when it sent one; a counter as the progress. */
function progressReporter(request: CallToolRequest, extra: Extra) {
  const token = request.params._meta?.progressToken;
  let step = 0;
  let last = '';
  return async (message: string): Promise<void> => {
    if (token === undefined || message === last) return;
    last = message;
    step += 1;
    await extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: step, message },
      })
      .catch(() => undefined);
  };
}

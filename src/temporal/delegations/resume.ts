/**
 * Reviving a finished delegation (`deputy resume`, issue 30): a completed, failed or stopped
 * delegation goes on with a new message as a NEW delegation, like a fork from its last round
 * (fork.ts): its whole transcript read from history (resume-transcript.ts), no tool run again,
 * the same definition unless another is named, then the message. Linked to the original by the
 * `DeputyForkedFrom` search attribute and the `forkedFrom` memo (with `resumed: true`). A running
 * delegation is refused: send it a message instead.
 */
import type { Client } from '@temporalio/client';
import { delegationWorkflowId } from '../../shared/delegation.js';
import { steeringTextProblem } from '../../shared/steering.js';
import { DeputyError } from '../../errors.js';
import { transcriptAfterLastRound } from './resume-transcript.js';
import { idempotentRpc } from './rpc.js';
import type { DelegationDetail, Delegations } from './types.js';

const FINISHED = new Set(['completed', 'failed', 'stopped']);

export interface ResumeDeps {
  client: Client;
  get(delegationId: string): Promise<DelegationDetail>;
  start: Delegations['start'];
}

export function createResume(deps: ResumeDeps): Delegations['resume'] {
  const { client } = deps;
  return async function resume(delegationId, request) {
    const problem = steeringTextProblem(request.text);
    if (problem !== null) throw new DeputyError('invalid', problem);
    const original = await deps.get(delegationId);
    if (!original.workflowId.startsWith(delegationWorkflowId(original.session, ''))) {
      throw new DeputyError(
        'invalid',
        `${delegationId} is not a delegation: only delegations can be resumed (send a session a message instead)`,
      );
    }
    if (!FINISHED.has(original.status)) {
      throw new DeputyError(
        'conflict',
        `delegation ${delegationId} is still ${original.status}: send it a message instead (deputy send ${delegationId} <text>)`,
      );
    }
    const transcript = await idempotentRpc(client, () =>
      transcriptAfterLastRound(client, original.workflowId, original.status),
    );
    if (transcript === null) {
      throw new DeputyError(
        'invalid',
        `delegation ${delegationId} ended before its first model call, so it has no transcript to resume: start a new delegation instead`,
      );
    }
    const task = transcript.find((entry) => entry.role === 'user')?.content ?? '';
    return deps.start({
      agent: request.agent ?? original.agent,
      task,
      session: request.session ?? original.session,
      caller: request.caller,
      options: request.options ?? {},
      ...(request.delegationId === undefined ? {} : { delegationId: request.delegationId }),
      ...(request.model === undefined ? {} : { model: request.model }),
      fork: {
        delegationId,
        workflowId: original.workflowId,
        fromRound: original.roundsUsed,
        transcript: [...transcript, { role: 'user', content: request.text }],
        resumed: true,
      },
    });
  };
}

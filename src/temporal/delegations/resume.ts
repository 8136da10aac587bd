/**
 * Reviving a finished delegation (`deputy resume`): a completed, failed or stopped
 * delegation goes on with a new message as a NEW delegation, like a fork from its last round
 * (fork.ts): its whole transcript read from history (resume-transcript.ts), no tool run again,
 * the same definition unless another is named, then the message. Linked to the original by the
 * `DeputyForkedFrom` search attribute and the `forkedFrom` memo (with `resumed: true`). A running
 * delegation is refused: send it a message instead.
 */
import { steeringTextProblem } from '../../shared/steering.js';
import { DeputyError } from '../../errors.js';
import { transcriptAfterLastRound } from './resume-transcript.js';
import { idempotentRpc } from '../calls/rpc.js';
import { assertPerCallModel } from './start-delegation.js';
import { delegationToGoOnFrom, startGoingOn, type ForkDeps } from './fork.js';
import type { Delegations } from './types.js';

const FINISHED = new Set(['completed', 'failed', 'stopped']);

/** What a resume needs: what a fork does. */
export type ResumeDeps = ForkDeps;

export function createResume(deps: ResumeDeps): Delegations['resume'] {
  const { client } = deps;
  return async function resume(delegationId, request) {
    const problem = steeringTextProblem(request.text);
    if (problem !== null) throw new DeputyError('invalid', problem);
    assertPerCallModel(request.model);
    const original = await delegationToGoOnFrom(
      deps,
      delegationId,
      'only delegations can be resumed (send a session a message instead)',
    );
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
    return startGoingOn(deps, original, request, {
      delegationId,
      workflowId: original.workflowId,
      fromRound: original.roundsUsed,
      transcript: [...transcript, { role: 'user', content: request.text }],
      resumed: true,
    });
  };
}

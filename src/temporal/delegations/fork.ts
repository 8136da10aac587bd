/**
 * Forking a delegation (`deputy fork`): a new delegation starts from the original's transcript
 * up to a round, read from its history (fork-transcript.ts), so none of those rounds' tools run
 * again. Only a delegation forks: a session's workflow has no such transcript to read.
 */
import type { Client } from '@temporalio/client';
import { delegationWorkflowId } from '../../shared/delegation.js';
import { DeputyError } from '../../errors.js';
import { transcriptBeforeRound } from './fork-transcript.js';
import { idempotentRpc } from '../calls/rpc.js';
import { assertPerCallModel } from './start-delegation.js';
import type { DelegationFork } from '../../shared/delegation.js';
import type { DelegationDetail, Delegations, ForkRequest, StartedDelegation } from './types.js';

export interface ForkDeps {
  client: Client;
  get(delegationId: string): Promise<DelegationDetail>;
  /** Starts the fork like any delegation (its checks included). */
  start: Delegations['start'];
}

export function createFork(deps: ForkDeps): Delegations['fork'] {
  const { client } = deps;
  return async function fork(delegationId, request) {
    const { fromRound } = request;
    assertPerCallModel(request.model);
    if (!Number.isSafeInteger(fromRound) || fromRound < 1) {
      throw new DeputyError(
        'invalid',
        `fromRound must be a whole number of 1 or more, not ${fromRound}`,
      );
    }
    const original = await delegationToGoOnFrom(
      deps,
      delegationId,
      'only delegations can be forked',
    );
    const transcript = await idempotentRpc(client, () =>
      transcriptBeforeRound(client, original.workflowId, fromRound + 1),
    );
    if (transcript === null) {
      throw new DeputyError(
        'invalid',
        `delegation ${delegationId} has no round after round ${fromRound} to redo (it has run ${original.roundsUsed}): fork from an earlier round`,
      );
    }
    return startGoingOn(deps, original, request, {
      delegationId,
      workflowId: original.workflowId,
      fromRound,
      transcript,
    });
  };
}

/**
 * The delegation a fork or a resumed run goes on from; `invalid` (saying `why`) when the id is a
 * session's: only a delegation's transcript can be carried into a new delegation.
 */
export async function delegationToGoOnFrom(
  deps: Pick<ForkDeps, 'get'>,
  delegationId: string,
  why: string,
): Promise<DelegationDetail> {
  const original = await deps.get(delegationId);
  if (!original.workflowId.startsWith(delegationWorkflowId(original.session, ''))) {
    throw new DeputyError('invalid', `${delegationId} is not a delegation: ${why}`);
  }
  return original;
}

/**
 * Starts the new delegation of a fork or a resumed run: the original's agent, session and task
 * unless the request names others, and `fork` (its transcript) to start from.
 */
export function startGoingOn(
  deps: Pick<ForkDeps, 'start'>,
  original: DelegationDetail,
  request: Omit<ForkRequest, 'fromRound'>,
  fork: DelegationFork,
): Promise<StartedDelegation> {
  const task = fork.transcript.find((entry) => entry.role === 'user')?.content ?? '';
  return deps.start({
    agent: request.agent ?? original.agent,
    task,
    session: request.session ?? original.session,
    caller: request.caller,
    options: request.options ?? {},
    ...(request.delegationId === undefined ? {} : { delegationId: request.delegationId }),
    ...(request.model === undefined ? {} : { model: request.model }),
    fork,
  });
}

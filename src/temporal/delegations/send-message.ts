/**
 * Steering a running delegation: `send` puts a message to it through the
 * `sendMessage` update, whose validator refuses one for a delegation that has finished (or is
 * finishing) and a blank or too long text. The update answers once the workflow queued the
 * message; the model gets it at the next round boundary (src/workflows/steering.ts).
 *
 * An update needs a worker to answer, so with none polling the send is refused at once as
 * `unavailable` instead of hanging; an update that no worker took within `waitMs` is
 * `unavailable` too (its id makes a repeat with the same `messageId` harmless).
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, WorkflowUpdateFailedError, type Client } from '@temporalio/client';
import { DeputyError } from '../../errors.js';
import { sendMessageUpdate } from '../../shared/workflow-contract/messages.js';
import { STEERING_REFUSALS, steeringTextProblem } from '../../shared/steering.js';
import { TemporalUnreachableError } from '../unreachable.js';
import { describe, type DelegationLookup } from './lookup.js';
import { rpc } from '../calls/rpc.js';
import { executeUpdateUntilSeen } from '../calls/update-until-seen.js';
import type { Delegations } from './types.js';
import { statusOf } from './visibility.js';
import type { LiveWorkerCheck } from '../calls/worker-liveness.js';

export interface SendMessageDeps {
  client: Client;
  lookup: DelegationLookup;
  hasLiveWorker: LiveWorkerCheck;
  /** Milliseconds a polling worker has to take the message before the send is `unavailable`. */
  waitMs: number;
}

export function createSendMessage(deps: SendMessageDeps): Delegations['send'] {
  return async function send(delegationId, request) {
    const problem = steeringTextProblem(request.text);
    if (problem !== null) throw new DeputyError('invalid', problem);
    const handle = await deps.lookup.handleOf(delegationId);
    const description = await describe(delegationId, handle);
    if (description.status.name !== 'RUNNING') throw finished(delegationId, statusOf(description));
    if (!(await deps.hasLiveWorker(description.taskQueue))) {
      throw new DeputyError(
        'unavailable',
        `no worker is running for delegation ${delegationId} (task queue ${description.taskQueue}); a message is checked and queued by the delegation itself, so send it once a worker runs`,
      );
    }
    const messageId = request.messageId ?? randomUUID();
    try {
      return await rpc(
        deps.client,
        () =>
          executeUpdateUntilSeen(handle, sendMessageUpdate, {
            args: [{ text: request.text, from: request.from, messageId }],
            updateId: messageId,
          }),
        deps.waitMs,
      );
    } catch (error) {
      throw refusalOf(error, delegationId, deps.waitMs);
    }
  };
}

/** The update's refusal, a run that closed meanwhile, or a worker too slow, as deputy's kinds. */
function refusalOf(error: unknown, delegationId: string, waitMs: number): unknown {
  if (error instanceof WorkflowNotFoundError) return finished(delegationId, null);
  if (error instanceof WorkflowUpdateFailedError) {
    const cause = error.cause as { type?: string; message?: string } | undefined;
    if (cause?.type === STEERING_REFUSALS.finished)
      return new DeputyError(
        'conflict',
        cause.message ?? `delegation ${delegationId} has finished`,
      );
    if (cause?.type === STEERING_REFUSALS.invalid)
      return new DeputyError('invalid', cause.message ?? 'the message was refused');
  }
  if (error instanceof TemporalUnreachableError) {
    return new DeputyError(
      'unavailable',
      `delegation ${delegationId} did not take the message within ${waitMs / 1000} s (its worker may be busy or restarting); send it again with the same messageId, which is never queued twice`,
      { cause: error },
    );
  }
  return error;
}

function finished(delegationId: string, status: string | null): DeputyError {
  return new DeputyError(
    'conflict',
    `delegation ${delegationId} has finished${status === null ? '' : ` (${status})`}: a message can no longer reach it; resume it with a new message instead (deputy resume)`,
  );
}

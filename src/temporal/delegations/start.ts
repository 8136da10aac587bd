/**
 * Starting a workflow (a delegation, a session) so that a slow answer neither loses the start
 * nor starts the work twice. A start is bounded like every call (rpc.ts), but a loaded server
 * may take it after the bound passed; the caller would then get a 503 for work that runs. So a
 * start that got no answer is asked once more: the server answers "already started" if the
 * first one landed, and the start's own token in the memo tells that run from one somebody else
 * started under the same (client-chosen) id meanwhile.
 */
import { randomUUID } from 'node:crypto';
import {
  WorkflowExecutionAlreadyStartedError,
  type Client,
  type WorkflowStartOptions,
} from '@temporalio/client';
import { DeputyError } from '../../errors.js';
import { unconfirmedStart } from '../unreachable.js';
import type { DelegationLookup } from './lookup.js';
import { idempotentRpc, rpc, worthAskingAgain } from '../calls/rpc.js';

/** Memo key of the token that names one start request; a random UUID, nothing secret. */
export const START_TOKEN_MEMO = 'startToken';

export interface StartedWhat {
  /** "delegation d-1", for the message of an unconfirmed start. */
  what: string;
  /** Where the caller looks it up, for the same message. */
  lookUp: string;
}

/**
 * Starts `workflowType` once. WorkflowExecutionAlreadyStartedError means somebody else's
 * workflow has the id; TemporalUnreachableError, that the server did not answer either ask (the
 * message then says the start may still happen and where to look it up).
 */
export async function startWorkflowOnce(
  client: Client,
  workflowType: string,
  options: WorkflowStartOptions & { workflowId: string },
  started: StartedWhat,
): Promise<void> {
  const token = randomUUID();
  const request = { ...options, memo: { ...options.memo, [START_TOKEN_MEMO]: token } };
  const start = () => rpc(client, () => client.workflow.start(workflowType, request));
  try {
    await start();
    return;
  } catch (error) {
    // A server that is down gets one ask: the 503 (a start that may still happen) says so.
    if (!worthAskingAgain(client, error)) throw unconfirmedStart(error, started);
  }
  try {
    await start();
  } catch (error) {
    if (!(error instanceof WorkflowExecutionAlreadyStartedError)) {
      throw unconfirmedStart(error, started);
    }
    if (!(await isOurs(client, options.workflowId, token, started))) throw error;
  }
}

/**
 * Starts a delegation's or a session's workflow under an id no run has had (REJECT_DUPLICATE in
 * `options`): `conflict` when one has, in the words of `started.what` ("delegation d-1 already
 * exists"). Otherwise as startWorkflowOnce.
 */
export async function startNewWorkflow(
  client: Client,
  workflowType: string,
  options: WorkflowStartOptions & { workflowId: string },
  started: StartedWhat,
): Promise<void> {
  try {
    await startWorkflowOnce(client, workflowType, options, started);
  } catch (error) {
    if (error instanceof WorkflowExecutionAlreadyStartedError) {
      throw new DeputyError('conflict', `${started.what} already exists`);
    }
    throw error;
  }
}

/**
 * Throws `conflict` when a delegation or a session already has the caller-chosen `id` (one
 * visibility look): an id must name one workflow only, or cards and lookups would be ambiguous.
 */
export async function assertIdFree(lookup: DelegationLookup, id: string): Promise<void> {
  if (await lookup.taken(id)) {
    throw new DeputyError('conflict', `id ${id} is already taken by a delegation or session`);
  }
}

async function isOurs(
  client: Client,
  workflowId: string,
  token: string,
  started: StartedWhat,
): Promise<boolean> {
  try {
    const description = await idempotentRpc(client, () =>
      client.workflow.getHandle(workflowId).describe(),
    );
    return description.memo?.[START_TOKEN_MEMO] === token;
  } catch (error) {
    throw unconfirmedStart(error, started);
  }
}

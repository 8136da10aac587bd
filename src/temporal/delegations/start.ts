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
import { unconfirmedStart } from '../unreachable.js';
import { idempotentRpc, rpc, worthAskingAgain } from './rpc.js';

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

/**
 * Starting a session. The request is checked before anything reaches Temporal (a clear
 * `invalid`, never a workflow that fails later). The session is its own delegation id in its
 * search attributes, so its cards, state and events are found like a delegation's; the memo
 * carries what listings, rights and the detail read back without a worker.
 */
import type { Client, WorkflowStartOptions } from '@temporalio/client';
import { DeputyError } from '../../errors.js';
import { assertValidCallerMode } from '../caller-mode.js';
import { firstLine } from '../../shared/delegation.js';
import { initialSearchAttributes } from '../../shared/workflow-contract/search-attributes.js';
import { MAIN_AGENT, sessionWorkflowId, type SessionInput } from '../../shared/session.js';
import { TOOL_QUEUE_MEMO, type ToolQueueInput } from '../../shared/workflow-contract/tool-queue.js';
import { staticSummaryOf } from '../../shared/workflow-contract/workflow-summary.js';
import {
  DEFAULT_SESSION,
  assertValidAgentName,
  assertValidId,
  newSessionId,
} from '../delegations/ids.js';
import type { DelegationLookup } from '../delegations/lookup.js';
import type { DelegationQueues } from '../delegations/start-delegation.js';
import { assertIdFree, startNewWorkflow } from '../delegations/start.js';
import { SESSION_WORKFLOW_TYPE, type Sessions, type StartSessionRequest } from './types.js';

export interface StartSessionDeps {
  client: Client;
  lookup: DelegationLookup;
  /** Where the session (and so its children) runs, and the workspace's tool queue or null. */
  queues: DelegationQueues;
}

export function createStartSession(deps: StartSessionDeps): Sessions['start'] {
  const { client, lookup } = deps;
  return async function start(request) {
    const sessionId = request.sessionId ?? newSessionId();
    const agent = request.agent ?? MAIN_AGENT;
    assertValidSessionStart(sessionId, agent, request);
    if (request.sessionId !== undefined) await assertIdFree(lookup, sessionId);
    const workflowId = sessionWorkflowId(sessionId);
    await startNewWorkflow(
      client,
      SESSION_WORKFLOW_TYPE,
      sessionStartOptions(request, { sessionId, agent }, deps.queues),
      {
        what: `session ${sessionId}`,
        lookUp: `GET /sessions/${sessionId}, deputy session show ${sessionId}`,
      },
    );
    lookup.remember(sessionId, workflowId);
    return { sessionId, workflowId, agent };
  };
}

/** Throws `invalid` for the first thing wrong with the request: id, agent, message, caller mode. */
export function assertValidSessionStart(
  sessionId: string,
  agent: string,
  request: StartSessionRequest,
): void {
  assertValidId('session', sessionId);
  if (sessionId === DEFAULT_SESSION) {
    // Delegations started without a session share it: a session there would adopt them all.
    throw new DeputyError(
      'invalid',
      `session id '${DEFAULT_SESSION}' is reserved for delegations started without a session`,
    );
  }
  assertValidAgentName(agent);
  if (request.message !== undefined && request.message.trim() === '') {
    throw new DeputyError('invalid', 'message is empty');
  }
  assertValidCallerMode(request.options.callerMode);
}

/** The workflow's start options: its input, search attributes, memo and summary. */
export function sessionStartOptions(
  request: StartSessionRequest,
  { sessionId, agent }: { sessionId: string; agent: string },
  { taskQueue, toolQueue }: DelegationQueues,
): WorkflowStartOptions & { workflowId: string } {
  const input: SessionInput & ToolQueueInput = {
    sessionId,
    agent,
    caller: request.caller,
    options: request.options,
    ...(request.message === undefined ? {} : { message: request.message }),
    ...(toolQueue === null ? {} : { toolQueue }),
  };
  return {
    taskQueue,
    workflowId: sessionWorkflowId(sessionId),
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    args: [input],
    typedSearchAttributes: initialSearchAttributes({
      agent,
      session: sessionId,
      delegationId: sessionId,
    }),
    memo: {
      kind: 'session',
      task: request.message === undefined ? '(session)' : firstLine(request.message),
      ...(request.caller.id === null ? {} : { startedBy: request.caller.id }),
      ...(toolQueue === null ? {} : { [TOOL_QUEUE_MEMO]: toolQueue }),
    },
    // The first message when the start brings one; later messages are in its details.
    staticSummary: staticSummaryOf(`session of ${agent}`, request.message),
  };
}

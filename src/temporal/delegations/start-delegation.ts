/**
 * Starting a delegation. The request is checked before anything reaches Temporal, so bad input
 * is a clear `invalid` and never a workflow that fails later. The run then carries what others
 * read back without a worker: search attributes for listings and lookups, and a memo with the
 * task's first line, the owner (rights), the tool queue (detail, settle) and a fork's origin.
 */
import type { Client, WorkflowStartOptions } from '@temporalio/client';
import { delegationWorkflowId } from '../../shared/delegation.js';
import { initialSearchAttributes } from '../../shared/workflow-contract/search-attributes.js';
import { TOOL_QUEUE_MEMO } from '../../shared/workflow-contract/tool-queue.js';
import { staticSummaryOf } from '../../shared/workflow-contract/workflow-summary.js';
import { parseDuration } from '../../shared/duration.js';
import { perCallModelProblem } from '../../shared/model-contract.js';
import { DeputyError } from '../../errors.js';
import { assertValidCallerMode } from '../caller-mode.js';
import { assertValidAgentName, assertValidId, newDelegationId } from './ids.js';
import type { DelegationLookup } from './lookup.js';
import { assertIdFree, startNewWorkflow } from './start.js';
import {
  DELEGATION_WORKFLOW_TYPE,
  type Delegations,
  type StartDelegationRequest,
} from './types.js';
import { firstLine } from './visibility.js';

export interface StartDelegationDeps {
  client: Client;
  lookup: DelegationLookup;
  /** Where the workflow runs, and the workspace's tool queue or null (DelegationsOptions). */
  queues: DelegationQueues;
}

export interface DelegationQueues {
  taskQueue: string;
  toolQueue: string | null;
}

export function createStartDelegation(deps: StartDelegationDeps): Delegations['start'] {
  const { client, lookup } = deps;
  return async function start(request) {
    const delegationId = request.delegationId ?? newDelegationId();
    assertValidStart(delegationId, request);
    if (request.delegationId !== undefined) await assertIdFree(lookup, delegationId);
    const workflowId = delegationWorkflowId(request.session, delegationId);
    await startNewWorkflow(
      client,
      DELEGATION_WORKFLOW_TYPE,
      delegationStartOptions(request, { delegationId, workflowId }, deps.queues),
      {
        what: `delegation ${delegationId}`,
        lookUp: `GET /delegations/${delegationId}, deputy status ${delegationId}`,
      },
    );
    lookup.remember(delegationId, workflowId);
    return { delegationId, workflowId, session: request.session, agent: request.agent };
  };
}

/** Throws `invalid` for the first thing wrong with the request: ids, agent, task, options. */
export function assertValidStart(delegationId: string, request: StartDelegationRequest): void {
  assertValidId('delegation id', delegationId);
  assertValidId('session', request.session);
  assertValidAgentName(request.agent);
  if (request.task.trim() === '') throw new DeputyError('invalid', 'task is empty');
  if (request.options.cardTimeout !== undefined) {
    const parsed = parseDuration(request.options.cardTimeout);
    if (!parsed.ok) throw new DeputyError('invalid', `cardTimeout: ${parsed.problem}`);
  }
  const budget = request.options.maxTokens;
  if (budget !== undefined && !(Number.isSafeInteger(budget) && budget > 0)) {
    throw new DeputyError('invalid', `maxTokens must be a positive integer, not ${budget}`);
  }
  assertValidCallerMode(request.options.callerMode);
  assertPerCallModel(request.model);
}

/** Throws `invalid` when a request's own model names a script (only definitions may). */
export function assertPerCallModel(model: string | undefined): void {
  const problem = model === undefined ? null : perCallModelProblem(model);
  if (problem !== null) throw new DeputyError('invalid', `model: ${problem}`);
}

/** The workflow's start options: its input, search attributes, memo and the UI's summary. */
export function delegationStartOptions(
  request: StartDelegationRequest,
  ids: { delegationId: string; workflowId: string },
  { taskQueue, toolQueue }: DelegationQueues,
): WorkflowStartOptions & { workflowId: string } {
  const { delegationId, workflowId } = ids;
  return {
    taskQueue,
    workflowId,
    // An id names one delegation forever: never reuse it after the first one closed.
    workflowIdReusePolicy: 'REJECT_DUPLICATE',
    args: [
      {
        delegationId,
        agent: request.agent,
        task: request.task,
        session: request.session,
        caller: request.caller,
        options: request.options,
        ...(request.model === undefined ? {} : { model: request.model }),
        ...(request.fork === undefined ? {} : { fork: request.fork }),
        ...(toolQueue === null ? {} : { toolQueue }),
      },
    ],
    typedSearchAttributes: initialSearchAttributes({
      agent: request.agent,
      session: request.session,
      delegationId,
      ...(request.fork === undefined ? {} : { forkedFrom: request.fork.delegationId }),
    }),
    // startedBy: who may stop it and decide its cards besides an admin (src/rights/rights.ts).
    memo: {
      task: firstLine(request.task),
      ...(request.caller.id === null ? {} : { startedBy: request.caller.id }),
      // Read back without a worker: the detail's `toolQueue`, and settle's liveness.
      ...(toolQueue === null ? {} : { [TOOL_QUEUE_MEMO]: toolQueue }),
      ...(request.fork === undefined
        ? {}
        : {
            forkedFrom: {
              delegationId: request.fork.delegationId,
              workflowId: request.fork.workflowId,
              fromRound: request.fork.fromRound,
              ...(request.fork.resumed === true ? { resumed: true } : {}),
            },
          }),
    },
    staticSummary: summaryOf(request),
  };
}

/**
 * The Temporal UI's one line for the run: agent and task, and where a fork or a resumed run
 * comes from (its task is the original's first message, so that alone would not tell them apart).
 */
function summaryOf({ agent, task, fork }: StartDelegationRequest): string {
  if (fork === undefined) return staticSummaryOf(agent, task);
  const origin =
    fork.resumed === true
      ? `resumed from ${fork.delegationId}`
      : `fork of ${fork.delegationId} at round ${fork.fromRound}`;
  return staticSummaryOf(`${agent} (${origin})`, task);
}

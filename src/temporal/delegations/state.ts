/**
 * A delegation's state: asked of the workflow itself (a query) when a worker can answer, else
 * rebuilt from what visibility and the closed run know, so the caller gets an answer either way.
 */
import {
  WorkflowFailedError,
  WorkflowNotFoundError,
  type Client,
  type WorkflowExecutionDescription,
  type WorkflowHandle,
} from '@temporalio/client';
import type {
  DelegationResult,
  DelegationState,
  DelegationStatus,
} from '../../shared/delegation.js';
import { stateQuery } from '../../shared/workflow-contract/messages.js';
import {
  AGENT_ATTRIBUTE,
  SESSION_ATTRIBUTE,
  STATUS_ATTRIBUTE,
} from '../../shared/workflow-contract/search-attributes.js';
import {
  connectionFailureReason,
  isConnectionFailure,
  TemporalUnreachableError,
} from '../unreachable.js';
import { describe, notFound, type DelegationLookup } from './lookup.js';
import { idempotentRpc } from '../calls/rpc.js';
import { effectiveStatus, failureMessage } from './status.js';
import { memoToolQueue } from '../../shared/workflow-contract/tool-queue.js';
import { modelRetryOf } from './model-retry.js';
import type { DelegationDetail } from './types.js';
import { mirroredPendingCards, originField } from './visibility.js';
import type { LiveWorkerCheck } from '../calls/worker-liveness.js';

export interface StateReaderDeps {
  client: Client;
  lookup: DelegationLookup;
  hasLiveWorker: LiveWorkerCheck;
  /** How long the state query may take before the fallback is used. Milliseconds. */
  queryTimeoutMs: number;
}

export function createStateReader(
  deps: StateReaderDeps,
): (delegationId: string) => Promise<DelegationDetail> {
  return async function get(delegationId) {
    const handle = await deps.lookup.handleOf(delegationId);
    const description = await describe(delegationId, handle);
    // Where its tools run is the memo's, written at start: known with or without a worker.
    const toolQueue = memoToolQueue(description.memo);
    const modelRetry = modelRetryOf(description);
    const origin = originField(description.memo);
    const asked = await queryState(deps, delegationId, handle, description);
    if ('state' in asked) return { ...asked.state, toolQueue, modelRetry, ...origin };
    // Build what visibility knows instead of failing the caller, and say that it is partial:
    // an empty list of decided cards here means "not known", never "none".
    const rebuilt = await stateFromDescription(
      delegationId,
      await describe(delegationId, handle),
      handle,
    );
    return { ...rebuilt, toolQueue, modelRetry, ...origin, partial: asked.unanswered };
  };
}

/**
 * The state as the workflow itself answers it, or null when it could not. For callers that must
 * tell "no such card" from "not known": visibility's picture has no decided cards.
 */
export function createWorkflowStateReader(
  deps: StateReaderDeps,
): (delegationId: string) => Promise<DelegationState | null> {
  return async function get(delegationId) {
    const handle = await deps.lookup.handleOf(delegationId);
    const asked = await queryState(
      deps,
      delegationId,
      handle,
      await describe(delegationId, handle),
    );
    return 'state' in asked ? asked.state : null;
  };
}

/** The state query, bounded: the workflow's answer, or why there is none. */
async function queryState(
  { client, hasLiveWorker, queryTimeoutMs }: StateReaderDeps,
  delegationId: string,
  handle: WorkflowHandle,
  description: WorkflowExecutionDescription,
): Promise<{ state: DelegationState } | { unanswered: string }> {
  if (!(await hasLiveWorker(description.taskQueue))) {
    return { unanswered: `no worker polls its task queue ${description.taskQueue}` };
  }
  try {
    return {
      state: await client.withDeadline(Date.now() + queryTimeoutMs, () => handle.query(stateQuery)),
    };
  } catch (error) {
    if (error instanceof WorkflowNotFoundError) throw notFound(delegationId);
    // The workflow failed or was terminated before it could answer, or no worker answered in
    // time (one that just died still looks alive for a while, a loaded one replays slowly).
    return { unanswered: unansweredReason(error, queryTimeoutMs) };
  }
}

function unansweredReason(error: unknown, queryTimeoutMs: number): string {
  if (isConnectionFailure(error)) {
    return `its state query got no answer within ${queryTimeoutMs / 1000} s (${connectionFailureReason(error)})`;
  }
  // The error's kind only: its message may quote the run's own failure.
  return `its state query failed (${error instanceof Error ? error.name : 'unknown error'})`;
}

/** The result of a run that closed without returning one: failed, or stopped if it was. */
export function unsettledResult(status: DelegationStatus, notice: string): DelegationResult {
  return {
    status: status === 'stopped' ? 'stopped' : 'failed',
    text: '',
    notice,
    roundsUsed: 0,
    deniedCalls: [],
  };
}

async function stateFromDescription(
  delegationId: string,
  description: WorkflowExecutionDescription,
  handle: WorkflowHandle,
): Promise<DelegationState> {
  const attributes = description.typedSearchAttributes;
  const status = effectiveStatus(description.status.name, attributes.get(STATUS_ATTRIBUTE));
  let result: DelegationResult | null = null;
  if (description.status.name !== 'RUNNING') {
    result = await settledResult(handle, status);
  }
  return {
    delegationId,
    workflowId: description.workflowId,
    agent: attributes.get(AGENT_ATTRIBUTE) ?? '',
    session: attributes.get(SESSION_ATTRIBUTE) ?? '',
    status,
    roundsUsed: result?.roundsUsed ?? 0,
    maxTurns: 0,
    model: null,
    definitionHash: null,
    // Forward-compatible: a workflow that mirrors its pending cards into the memo keeps them
    // listable while no worker runs; without it, visibility only knows the count.
    pendingCards: mirroredPendingCards(description) ?? [],
    decidedCards: [],
    transcriptSummary: [],
    deniedCalls: result?.deniedCalls ?? [],
    result,
  };
}

async function settledResult(
  handle: WorkflowHandle,
  status: DelegationStatus,
): Promise<DelegationResult> {
  try {
    // The run is closed: its result is one read away, so the ordinary bound applies.
    return withDeniedCalls(
      (await idempotentRpc(handle.client, () => handle.result())) as DelegationResult,
    );
  } catch (error) {
    if (error instanceof TemporalUnreachableError) throw error;
    return unsettledResult(
      status,
      error instanceof WorkflowFailedError ? failureMessage(error) : String(error),
    );
  }
}

/** Results recorded before deputy 0.2 carry no `deniedCalls`; clients always get the list. */
export function withDeniedCalls(result: DelegationResult): DelegationResult {
  return { ...result, deniedCalls: result.deniedCalls ?? [] };
}

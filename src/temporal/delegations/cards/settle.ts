/**
 * Waiting for a delegation the way `POST /delegations?wait=true` needs it: until it finishes,
 * or parks on an approval card (a human must answer first, which may take hours), or no worker
 * runs it (nothing would happen until one does). Each look is a describe(), which Temporal
 * answers without a worker and which is bounded (rpc.ts), so a Temporal outage ends the wait
 * with `unavailable` instead of a hang. Between looks, a long poll on the run's close event
 * (the SDK's result()) ends the pause the moment the run closes: a finished run is answered
 * at once instead of up to one poll interval later (that sleep was ~250 ms of every
 * blocking wait at every door).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import {
  WorkflowFailedError,
  type WorkflowExecutionDescription,
  type WorkflowHandle,
} from '@temporalio/client';
import type { DelegationResult } from '../../../shared/delegation.js';
import { TemporalUnreachableError } from '../../unreachable.js';
import { describe, orNotFound, type DelegationLookup } from '../lookup.js';
import { idempotentRpc } from '../../calls/rpc.js';
import { unsettledResult, withDeniedCalls } from '../state.js';
import { failureMessage } from '../status.js';
import type { DelegationDetail, Delegations, Settled } from '../types.js';
import { memoToolQueue } from '../../../shared/workflow-contract/tool-queue.js';
import { statusOf } from '../visibility.js';
import type { LiveWorkerCheck } from '../../calls/worker-liveness.js';

export interface SettleDeps {
  lookup: DelegationLookup;
  hasLiveWorker: LiveWorkerCheck;
  get(delegationId: string): Promise<DelegationDetail>;
  /** Milliseconds between looks. */
  pollMs: number;
}

export function createSettle(deps: SettleDeps): Delegations['settle'] {
  return async function settle(delegationId, options = {}) {
    const handle = await deps.lookup.handleOf(delegationId);
    const closing = watchForClose(handle);
    try {
      return await settleLoop(deps, delegationId, handle, closing.closed, options.signal);
    } finally {
      closing.stop();
    }
  };
}

async function settleLoop(
  deps: SettleDeps,
  delegationId: string,
  handle: WorkflowHandle,
  closed: Promise<void>,
  signal: AbortSignal | undefined,
): Promise<Settled> {
  for (;;) {
    const description = await describe(delegationId, handle);
    if (description.status.name !== 'RUNNING') {
      return { status: 'finished', result: await finalResult(deps, delegationId, handle) };
    }
    if (statusOf(description) === 'parked') {
      const state = await deps.get(delegationId);
      // Decided between the two reads: it runs on, so keep waiting.
      if (state.pendingCards.length > 0) return { status: 'parked', state };
    } else {
      const missing = await missingWorker(deps.hasLiveWorker, description);
      if (missing !== null) return running(await deps.get(delegationId), missing);
    }
    if (!(await pause(deps.pollMs, closed, signal))) {
      // Aborted: the caller went away. What it gets back no longer matters to anyone.
      return running(await deps.get(delegationId), 'the caller stopped waiting');
    }
  }
}

/** Waits `ms` or until the run closes; false when `signal` aborted the wait. */
async function pause(ms: number, closed: Promise<void>, signal?: AbortSignal): Promise<boolean> {
  const timer = new AbortController();
  const both = signal ? AbortSignal.any([signal, timer.signal]) : timer.signal;
  try {
    await Promise.race([sleep(ms, undefined, { signal: both }), closed]);
    return true;
  } catch {
    return timer.signal.aborted;
  } finally {
    timer.abort();
  }
}

/**
 * Resolves when the run closes (completed, failed, cancelled, terminated, timed out), as seen
 * by a long poll on its history; never rejects. Its errors (an outage, not found) are left to
 * the bounded describe() of the next look, which reports them; stop() ends the poll.
 */
function watchForClose(handle: WorkflowHandle): { closed: Promise<void>; stop(): void } {
  const controller = new AbortController();
  const closed = new Promise<void>((resolve) => {
    handle.client
      .withAbortSignal(controller.signal, () => handle.result())
      .then(
        () => resolve(),
        (error: unknown) => {
          if (error instanceof WorkflowFailedError) resolve();
        },
      );
  });
  return { closed, stop: () => controller.abort() };
}

/**
 * What stops a running delegation from going on for want of a worker, or null: no worker on its
 * task queue; or, for one whose tools run on a workspace's tool queue (the memo says
 * which), none on that queue: the workflow goes on until its next model call or tool, then waits.
 */
export async function missingWorker(
  hasLiveWorker: LiveWorkerCheck,
  description: WorkflowExecutionDescription,
): Promise<string | null> {
  if (!(await hasLiveWorker(description.taskQueue))) {
    return `no worker is running for task queue ${description.taskQueue}: the delegation runs once one is`;
  }
  const toolQueue = memoToolQueue(description.memo);
  if (toolQueue !== null && !(await hasLiveWorker(toolQueue, 'activity'))) {
    return `no worker is running for tool queue ${toolQueue} (its workspace's worker): the delegation's model calls and tools run once one is`;
  }
  return null;
}

function running(state: DelegationDetail, message: string): Settled {
  return { status: 'running', state, message };
}

/** The closed run's result; a failed run's own recorded result when it kept one. */
async function finalResult(
  deps: SettleDeps,
  delegationId: string,
  handle: WorkflowHandle,
): Promise<DelegationResult> {
  try {
    const result = await orNotFound(
      delegationId,
      idempotentRpc(handle.client, () => handle.result()),
    );
    return withDeniedCalls(result as DelegationResult);
  } catch (error) {
    if (!(error instanceof WorkflowFailedError)) throw error;
    // The workflow records its own result (partial text, rounds) before it fails.
    const state = await deps.get(delegationId).catch((reason: unknown) => {
      if (reason instanceof TemporalUnreachableError) throw reason;
      return null;
    });
    if (state?.result) return state.result;
    const status = statusOf(await describe(delegationId, handle));
    return unsettledResult(status, failureMessage(error));
  }
}

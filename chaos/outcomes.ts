/**
 * How a delegation ended, read from Temporal itself: the workflow's result (a long poll that
 * needs no worker) and its events (a query, answered by whichever worker is alive).
 */
import type { Client } from '@temporalio/client';
import type {
  DelegationEvent,
  DelegationResult,
  DelegationState,
} from '../src/shared/delegation.js';
import { ANONYMOUS_CALLER } from '../src/shared/caller.js';
import { delegationWorkflowId } from '../src/shared/delegation.js';
import { eventsQuery, stateQuery } from '../src/shared/workflow-contract/messages.js';
import { DeputyError } from '../src/errors.js';
import type {
  Delegations,
  StartDelegationRequest,
  StartedDelegation,
} from '../src/temporal/delegations/facade.js';
import { sleep } from './cluster.js';

export type Outcome =
  | { kind: 'finished'; result: DelegationResult }
  /** The workflow closed without a result (failed, terminated, cancelled by Temporal). */
  | { kind: 'closed'; error: string }
  /** Still open when the deadline passed: lost, as far as the suite can tell. */
  | { kind: 'open'; status: string };

export async function awaitOutcome(
  client: Client,
  workflowId: string,
  deadline: number,
): Promise<Outcome> {
  const handle = client.workflow.getHandle(workflowId);
  // The long poll is aborted at the deadline: left running, it would outlive the connection.
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), Math.max(deadline - Date.now(), 1));
  try {
    const result = await client.withAbortSignal(
      abort.signal,
      () => handle.result() as Promise<DelegationResult>,
    );
    return { kind: 'finished', result };
  } catch (error) {
    if (abort.signal.aborted) {
      const description = await handle.describe().catch(() => null);
      return { kind: 'open', status: description?.status.name ?? 'unknown' };
    }
    return { kind: 'closed', error: (error as Error).message };
  } finally {
    clearTimeout(timer);
  }
}

/** A query with retries: right after a kill the worker that would answer may be restarting. */
async function queryWithRetry<T>(run: () => Promise<T>, what: string): Promise<T> {
  let lastError: unknown;
  for (let attempt = 0; attempt < 20; attempt++) {
    try {
      return await run();
    } catch (error) {
      lastError = error;
      await sleep(1_000);
    }
  }
  throw new Error(`${what}: ${(lastError as Error).message}`);
}

export function eventsOf(client: Client, workflowId: string): Promise<DelegationEvent[]> {
  return queryWithRetry(
    () => client.workflow.getHandle(workflowId).query(eventsQuery, 0),
    `events of ${workflowId}`,
  );
}

export function stateOf(client: Client, workflowId: string): Promise<DelegationState> {
  return queryWithRetry(
    () => client.workflow.getHandle(workflowId).query(stateQuery),
    `state of ${workflowId}`,
  );
}

/** Runs `work` over `items` with at most `limit` at a time (queries replay on two cores). */
export async function mapLimit<T, R>(
  items: readonly T[],
  limit: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(limit, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * Starts a delegation through the facade, again while Temporal answers `unavailable`: on a
 * loaded machine an RPC can miss the facade's 1.5 s deadline (src/temporal/calls/rpc.ts)
 * although it reached Temporal. The id is fixed, so a retry that finds it taken means the
 * first attempt did start it. Each retry is counted in `retries`.
 */
export async function startDelegation(
  delegations: Delegations,
  request: StartDelegationRequest & { delegationId: string },
  retries: { count: number },
): Promise<StartedDelegation> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await delegations.start(request);
    } catch (error) {
      const kind = error instanceof DeputyError ? error.kind : null;
      if (attempt > 0 && kind === 'conflict') {
        return {
          delegationId: request.delegationId,
          workflowId: delegationWorkflowId(request.session, request.delegationId),
          session: request.session,
          agent: request.agent,
        };
      }
      if (kind !== 'unavailable' || attempt >= 20) throw error;
      retries.count++;
      await sleep(1_000);
    }
  }
}

/**
 * One delegation of `agent` per tag, all at once, in session `chaos` with the id
 * `<site>-<tag>`: how every scenario starts its wave.
 */
export function startWave(
  delegations: Delegations,
  site: { name: string },
  agent: string,
  tags: string[],
  retries: { count: number },
): Promise<StartedDelegation[]> {
  return Promise.all(
    tags.map((tag) =>
      startDelegation(
        delegations,
        {
          agent,
          task: tag,
          session: 'chaos',
          delegationId: `${site.name}-${tag}`,
          caller: ANONYMOUS_CALLER,
          options: {},
        },
        retries,
      ),
    ),
  );
}

/**
 * A delegation's events after a sequence number (what the CLI follows and the API's event
 * stream serves). Only the workflow knows them, so this is a query: asked only while a worker
 * polls the run's task queue (with none it would hang), and bounded by the facade's timeout.
 * After a continue-as-new the live run holds only its latest events: the ones before are read
 * from the earlier runs (earlier-runs.ts), so a reader from the start still gets them all.
 */
import type { Client, WorkflowHandle } from '@temporalio/client';
import { eventsQuery } from '../../shared/workflow-contract/messages.js';
import { createEarlierEvents } from '../earlier-runs.js';
import { describe, orNotFound, type DelegationLookup } from './lookup.js';
import type { Delegations } from './types.js';
import type { LiveWorkerCheck } from '../calls/worker-liveness.js';

export interface EventsDeps {
  client: Client;
  lookup: DelegationLookup;
  hasLiveWorker: LiveWorkerCheck;
  /** How long the query may take. Milliseconds. */
  queryTimeoutMs: number;
}

/** Task queues remembered, one per workflow; the oldest is forgotten past this many. */
const QUEUE_CACHE_LIMIT = 1000;

export function createEvents(deps: EventsDeps): Delegations['events'] {
  const { client, lookup, hasLiveWorker, queryTimeoutMs } = deps;
  const earlierEvents = createEarlierEvents({ client, queryTimeoutMs });
  // A workflow's task queue never changes (deputy continues as new on the same one), so it is
  // described once, not on every look: a follower polling events pays one RPC a look, not two.
  const queues = new Map<string, string>();
  const queueOf = async (delegationId: string, handle: WorkflowHandle): Promise<string> => {
    const known = queues.get(handle.workflowId);
    if (known !== undefined) return known;
    const { taskQueue } = await describe(delegationId, handle);
    if (queues.size >= QUEUE_CACHE_LIMIT) queues.delete(queues.keys().next().value!);
    queues.set(handle.workflowId, taskQueue);
    return taskQueue;
  };
  return async function events(delegationId, afterSeq) {
    const handle = await lookup.handleOf(delegationId);
    const taskQueue = await queueOf(delegationId, handle);
    if (!(await hasLiveWorker(taskQueue))) {
      throw new Error(`no worker is polling task queue ${taskQueue}`);
    }
    const held = await orNotFound(
      delegationId,
      client.withDeadline(Date.now() + queryTimeoutMs, () => handle.query(eventsQuery, afterSeq)),
    );
    // Sequence numbers run on across runs without a gap: one here means earlier runs hold the rest.
    const first = held[0];
    if (first === undefined || first.seq <= afterSeq + 1) return held;
    const { runId } = await describe(delegationId, handle);
    return [...(await earlierEvents(handle.workflowId, runId, afterSeq, first)), ...held];
  };
}

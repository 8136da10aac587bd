/**
 * A delegation's events after a sequence number (what the CLI follows and the API's event
 * stream serves). Only the workflow knows them, so this is a query: asked only while a worker
 * polls the run's task queue (with none it would hang), and bounded by the facade's timeout.
 */
import type { Client } from '@temporalio/client';
import { eventsQuery } from '../../shared/messages.js';
import { describe, orNotFound, type DelegationLookup } from './lookup.js';
import type { Delegations } from './types.js';
import type { LiveWorkerCheck } from './worker-liveness.js';

export interface EventsDeps {
  client: Client;
  lookup: DelegationLookup;
  hasLiveWorker: LiveWorkerCheck;
  /** How long the query may take. Milliseconds. */
  queryTimeoutMs: number;
}

export function createEvents(deps: EventsDeps): Delegations['events'] {
  const { client, lookup, hasLiveWorker, queryTimeoutMs } = deps;
  return async function events(delegationId, afterSeq) {
    const handle = await lookup.handleOf(delegationId);
    const description = await describe(delegationId, handle);
    if (!(await hasLiveWorker(description.taskQueue))) {
      throw new Error(`no worker is polling task queue ${description.taskQueue}`);
    }
    return orNotFound(
      delegationId,
      client.withDeadline(Date.now() + queryTimeoutMs, () => handle.query(eventsQuery, afterSeq)),
    );
  };
}

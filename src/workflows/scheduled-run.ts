/**
 * A run a Temporal Schedule started takes its own delegation id (shared/workflow-contract/scheduled-run.ts) and
 * publishes it, so lookups by id (`deputy status`, GET /delegations/:id) find it like any other.
 * Sandbox code. Only runs with `input.schedule` take this path, and no history recorded before
 * schedules existed has one, so none replays differently: no patch is needed.
 */
import { upsertSearchAttributes, workflowInfo } from '@temporalio/workflow';
import type { DelegationInput } from '../shared/delegation.js';
import { scheduledDelegationId } from '../shared/workflow-contract/scheduled-run.js';
import { DELEGATION_ID_ATTRIBUTE } from '../shared/workflow-contract/search-attributes.js';

/**
 * `input` as the run's own: for a scheduled run, its own id, published, and `schedule` dropped,
 * so a continue-as-new carries the id on as it is (the schedule's name stays in DeputySchedule).
 */
export function asOwnRun<T extends DelegationInput>(input: T): T {
  if (input.schedule === undefined) return input;
  const delegationId = scheduledDelegationId(input, workflowInfo().workflowId);
  upsertSearchAttributes([{ key: DELEGATION_ID_ATTRIBUTE, value: delegationId }]);
  const own = { ...input, delegationId };
  delete own.schedule;
  return own;
}

/**
 * Runs a Temporal Schedule starts (src/schedules). A schedule's action is fixed when it is
 * created, so every run gets the same input; Temporal makes each run's workflow id unique by
 * appending the run's time: `<action workflow id>-2026-12-02T09:00:00Z`. A run's own delegation
 * id comes from that suffix, so each run is an ordinary delegation with an id of its own.
 * Shared by Node code and the workflow sandbox: no I/O.
 */
import { delegationWorkflowId } from '../delegation.js';

/**
 * The delegation id of the run whose workflow id is `workflowId`: the schedule's name, `-`, and
 * the run's time without separators (`nightly-20261202T090000Z`, inside the id alphabet). A
 * workflow id without the expected prefix (not a scheduled run) keeps `input.delegationId`.
 */
export function scheduledDelegationId(
  input: { session: string; delegationId: string },
  workflowId: string,
): string {
  const prefix = `${delegationWorkflowId(input.session, input.delegationId)}-`;
  if (!workflowId.startsWith(prefix)) return input.delegationId;
  const time = workflowId.slice(prefix.length).replace(/[^A-Za-z0-9]/g, '');
  return time === '' ? input.delegationId : `${input.delegationId}-${time}`;
}

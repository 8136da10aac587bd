/**
 * What a schedule starts: deputy's `delegation` workflow with exactly the input and start
 * options a normal start builds (start-delegation.ts), so each run is an ordinary delegation.
 * Two differences, both because the action is fixed once for every run: the input carries
 * `schedule`, from which each run takes its own delegation id (shared/scheduled-run.ts), and the
 * DeputyDelegationId attribute is left for the run to publish (one shared value would make
 * every run answer to the same id). DeputySchedule names the schedule on every run.
 */
import type { ScheduleOptionsStartWorkflowAction, Workflow } from '@temporalio/client';
import { delegationWorkflowId } from '../../shared/delegation.js';
import {
  DELEGATION_ID_ATTRIBUTE,
  SCHEDULE_ATTRIBUTE,
} from '../../shared/workflow-contract/search-attributes.js';
import {
  assertValidStart,
  delegationStartOptions,
  type DelegationQueues,
} from '../delegations/start-delegation.js';
import { DEFAULT_SESSION } from '../delegations/ids.js';
import { DELEGATION_WORKFLOW_TYPE, type StartDelegationRequest } from '../delegations/types.js';
import type { CreateScheduleRequest } from './types.js';

export function scheduleAction(
  request: CreateScheduleRequest,
  queues: DelegationQueues,
): ScheduleOptionsStartWorkflowAction<Workflow> {
  const start: StartDelegationRequest = {
    agent: request.agent,
    task: request.task,
    session: request.session ?? DEFAULT_SESSION,
    caller: request.caller,
    options: request.options,
  };
  // The schedule's name stands as the runs' base id; each run appends its time to it.
  assertValidStart(request.name, start);
  const ids = {
    delegationId: request.name,
    workflowId: delegationWorkflowId(start.session, request.name),
  };
  const options = delegationStartOptions(start, ids, queues);
  const [input] = options.args as [Record<string, unknown>];
  return {
    type: 'startWorkflow',
    workflowType: DELEGATION_WORKFLOW_TYPE,
    workflowId: options.workflowId,
    taskQueue: options.taskQueue,
    args: [{ ...input, schedule: request.name }],
    ...(options.memo === undefined ? {} : { memo: options.memo }),
    ...(options.staticSummary === undefined ? {} : { staticSummary: options.staticSummary }),
    ...(options.staticDetails === undefined ? {} : { staticDetails: options.staticDetails }),
    typedSearchAttributes: [
      ...(Array.isArray(options.typedSearchAttributes) ? options.typedSearchAttributes : []).filter(
        (pair) => pair.key.name !== DELEGATION_ID_ATTRIBUTE.name,
      ),
      { key: SCHEDULE_ATTRIBUTE, value: request.name },
    ],
  };
}

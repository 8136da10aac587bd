/**
 * Timeouts and retry policies of every activity the delegation runs. Sandbox code.
 */
import {
  ActivityCancellationType,
  proxyActivities,
  proxyLocalActivities,
  type ActivityOptions,
  type LocalActivityOptions,
  workflowInfo,
} from '@temporalio/workflow';
import type { DeputyActivities } from '../activities/index.js';
import { SUMMARY_EMPTY } from '../shared/compaction.js';
import { FAILURE_TYPES } from '../shared/workflow-contract/failures.js';
import type { ToolQueueInput } from '../shared/workflow-contract/tool-queue.js';

export const RESOLVE_AGENT: ActivityOptions = {
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 3, nonRetryableErrorTypes: [FAILURE_TYPES.agentNotFound] },
};

export const MODEL_CALL: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: {
    maximumAttempts: 4,
    initialInterval: '2 seconds',
    nonRetryableErrorTypes: [FAILURE_TYPES.modelConfig],
  },
};

/**
 * A compaction's summary: a model call, retried a little less, since dropping the
 * rounds with a note is a fallback that always works; an empty summary is not retried.
 */
export const SUMMARY_CALL: ActivityOptions = {
  ...MODEL_CALL,
  retry: {
    maximumAttempts: 3,
    initialInterval: '2 seconds',
    nonRetryableErrorTypes: [FAILURE_TYPES.modelConfig, SUMMARY_EMPTY],
  },
};

/** Read-class tools may retry: running them twice changes nothing. */
export const READ_TOOL: ActivityOptions = {
  startToCloseTimeout: '15 minutes',
  heartbeatTimeout: '30 seconds',
  // A stopped delegation reports `stopped` only once its running tool has really stopped.
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { maximumAttempts: 3, initialInterval: '1 second' },
};

/**
 * Read-class tools as local activities: run by the worker that runs the workflow task, their
 * result recorded as a marker, so a read costs no task-queue round trip and no activity events.
 * Safe only because reads may run twice: a worker lost mid-read re-runs it on replay.
 *
 * The budget is short because the workflow task stays open while it runs: a stop, a card
 * decision or a state query waits for it (the API's state query falls back to visibility after
 * 5 s). A read that outlasts it is cancelled and runs again as an ordinary activity.
 */
export const LOCAL_READ_TOOL: LocalActivityOptions = {
  startToCloseTimeout: '3 seconds',
  cancellationType: ActivityCancellationType.WAIT_CANCELLATION_COMPLETED,
  retry: { maximumAttempts: 1 },
};

/**
 * Write, exec and MCP tools run at most once: after a start that may have taken effect
 * (worker crash, timeout) nothing retries them; the model is told instead.
 */
export const ONCE_TOOL: ActivityOptions = {
  ...READ_TOOL,
  retry: { maximumAttempts: 1 },
};

/** Stop hooks are commands: at most once, like exec tools. */
export const STOP_HOOKS: ActivityOptions = {
  startToCloseTimeout: '10 minutes',
  retry: { maximumAttempts: 1 },
};

/**
 * Activities with a one-line summary, so the Temporal UI reads "write hello.txt", not "runTool".
 *
 * @param queue the task queue they run on (a workspace's tool queue, see `workspaceQueue`);
 *   undefined: the workflow's own, and the command is exactly what it was before tool queues.
 */
export function activitiesWith(options: ActivityOptions, summary: string, queue?: string) {
  return proxyActivities<DeputyActivities>({
    ...options,
    ...(queue === undefined ? {} : { taskQueue: queue }),
    summary: summary.slice(0, 200),
  });
}

/**
 * Where the run's workspace-bound activities go: the input's tool queue when it has
 * one other than the workflow's own queue, else undefined (the workflow's queue, as always).
 * Runs without `toolQueue` in their input (all from before tool queues) are left exactly as they
 * were, so their histories replay. With a tool queue, reads do not run as local activities: a
 * local activity runs on whichever worker runs the workflow task, which may lack the workspace.
 */
export function workspaceQueue(input: ToolQueueInput): string | undefined {
  const queue = input.toolQueue;
  return queue !== undefined && queue !== workflowInfo().taskQueue ? queue : undefined;
}

export function localActivitiesWith(options: LocalActivityOptions, summary: string) {
  return proxyLocalActivities<DeputyActivities>({ ...options, summary: summary.slice(0, 200) });
}

/**
 * Workspace-affine workers: the task queue a workspace's file-system-bound activities
 * run on. A worker configured with `temporal.workspaceId` polls it besides the shared queue, and
 * delegations started under that configuration record it in their input (so it is in history)
 * and memo. Without a workspace id there is no tool queue: everything runs on the shared queue.
 * Sandbox-safe: imports nothing.
 */

/** A workspace id: it enters a task queue name, so it is kept short and plain. */
export const WORKSPACE_ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

/** What a workspace id may be, for error messages. */
export const WORKSPACE_ID_RULE =
  'letters, digits, `.`, `_` and `-`, starting with a letter or digit, at most 64 characters';

/** `<taskQueue>-tools/<workspaceId>`: the tool queue of one workspace on one deployment. */
export function toolQueueName(taskQueue: string, workspaceId: string): string {
  return `${taskQueue}-tools/${workspaceId}`;
}

/** The memo key a delegation's or session's tool queue is recorded under. */
export const TOOL_QUEUE_MEMO = 'toolQueue';

/**
 * The part of a delegation's or session's workflow input that names its tool queue. Absent in
 * every run started before tool queues existed, and in runs whose tools share the workflow's queue.
 */
export interface ToolQueueInput {
  /** Where resolveAgent, callModel, runTool and the hooks run; absent: the workflow's queue. */
  toolQueue?: string;
}

/** The memo's tool queue; null when the run records none (tools on the shared queue). */
export function memoToolQueue(memo: Record<string, unknown> | undefined): string | null {
  const queue = memo?.[TOOL_QUEUE_MEMO];
  return typeof queue === 'string' && queue !== '' ? queue : null;
}

/**
 * The tool queue of a configuration's workspace (`<taskQueue>-tools/<workspaceId>`), or null
 * without a workspace id: then every activity runs on the shared task queue, as older runs did.
 */
export function toolQueueOf(temporal: {
  taskQueue: string;
  workspaceId?: string | null;
}): string | null {
  return temporal.workspaceId ? toolQueueName(temporal.taskQueue, temporal.workspaceId) : null;
}

/**
 * Whether any worker polls a task queue. A query or an update needs a worker: with none polling
 * it hangs until its deadline. Asking the task queue first turns "no worker" into an immediate
 * answer instead of a wait. It cannot see a worker that died in the last LIVE_POLLER_MS: callers
 * still bound what they ask of the workflow.
 */
import type { Client } from '@temporalio/client';
import proto from '@temporalio/proto';
import { TemporalUnreachableError } from '../unreachable.js';
import { idempotentRpc } from './rpc.js';

/**
 * A poller is live if it polled this recently. Long polls last up to a minute, so a healthy
 * worker can look a minute old; the server remembers dead pollers for minutes.
 */
const LIVE_POLLER_MS = 90_000;
/** How long one answer about a task queue's pollers is reused (event streams poll often). */
const POLLER_CACHE_MS = 2_000;

/**
 * Which pollers count: `workflow` (default) for a queue workflows run on, `activity` for a
 * workspace's tool queue, whose workers poll activities only.
 */
export type PollerKind = 'workflow' | 'activity';

export type LiveWorkerCheck = (queue: string, kind?: PollerKind) => Promise<boolean>;

// The package is CommonJS: its namespace is reached through the default export under ESM.
const { TaskQueueType } = proto.temporal.api.enums.v1;
const TASK_QUEUE_TYPES: Record<PollerKind, proto.temporal.api.enums.v1.TaskQueueType> = {
  workflow: TaskQueueType.TASK_QUEUE_TYPE_WORKFLOW,
  activity: TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
};

export function createLiveWorkerCheck(client: Client, namespace: string): LiveWorkerCheck {
  const pollerCache = new Map<string, { at: number; live: boolean }>();
  return async function hasLiveWorker(queue, kind = 'workflow') {
    const key = `${kind}:${queue}`;
    const cached = pollerCache.get(key);
    if (cached && Date.now() - cached.at < POLLER_CACHE_MS) return cached.live;
    let live = true;
    try {
      const response = await idempotentRpc(client, () =>
        client.workflowService.describeTaskQueue({
          namespace,
          taskQueue: { name: queue },
          taskQueueType: TASK_QUEUE_TYPES[kind],
        }),
      );
      const now = Date.now();
      live = (response.pollers ?? []).some((poller) => {
        const seconds = Number(poller.lastAccessTime?.seconds?.toString() ?? 0);
        return now - seconds * 1000 < LIVE_POLLER_MS;
      });
    } catch (error) {
      // Temporal itself is gone: say so now rather than let a query wait for its deadline.
      if (error instanceof TemporalUnreachableError) throw error;
      // Otherwise we cannot tell: let the query try (it is bounded by its deadline anyway).
    }
    pollerCache.set(key, { at: Date.now(), live });
    return live;
  };
}

/**
 * The worker: polls deputy's task queue and runs delegation workflows and their activities.
 * Any number of workers may poll the same queue; nothing here assumes there is only one.
 */
import { fileURLToPath } from 'node:url';
import type { NativeConnection } from '@temporalio/worker';
import { Worker } from '@temporalio/worker';
import { createActivities } from './activities/index.js';
import type { AgentResolver } from './activities/resolve-agent.js';
import type { DeputyConfig } from './config.js';
import { TASK_QUEUE } from './shared/delegation.js';

/** The workflow bundle is reached by file path only, never by import (sandbox boundary). */
export const WORKFLOWS_PATH = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));

export interface DeputyWorkerOptions {
  config: DeputyConfig;
  connection: NativeConnection;
  agents: AgentResolver;
  /** Defaults to deputy's task queue. */
  taskQueue?: string;
  /** Pre-built workflow bundle (tests share one to save bundling time). */
  workflowBundle?: { code: string };
}

export async function createDeputyWorker(options: DeputyWorkerOptions): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.config.temporal.namespace,
    taskQueue: options.taskQueue ?? TASK_QUEUE,
    ...(options.workflowBundle
      ? { workflowBundle: options.workflowBundle }
      : { workflowsPath: WORKFLOWS_PATH }),
    activities: createActivities({ config: options.config, agents: options.agents }),
    // Heartbeats carry cancellation to a running tool; throttling them to at most every 2 s
    // means a TaskStop reaches a long `bash` within seconds, not half a heartbeat timeout.
    maxHeartbeatThrottleInterval: '2 seconds',
  });
}

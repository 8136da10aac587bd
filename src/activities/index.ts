/**
 * deputy's activities, built by a factory so the worker injects configuration and the agent
 * registry, and tests can build them the same way. The workflow proxies them by type only.
 */
import { join } from 'node:path';
import type { DeputyConfig } from '../config.js';
import { BlobStore } from './blob-store.js';
import { callModelActivity } from './call-model.js';
import type { AgentResolver } from './resolve-agent.js';
import { resolveAgentActivity } from './resolve-agent.js';
import { runToolActivity } from './run-tool.js';
import type { CallModelInput, ResolveAgentInput, RunToolInput, StopHooksInput } from './types.js';
import { runStopHooksActivity } from './stop-hooks.js';

export interface ActivityDependencies {
  config: DeputyConfig;
  agents: AgentResolver;
}

export function createActivities({ config, agents }: ActivityDependencies) {
  const blobs = new BlobStore(join(config.dataDir, 'blobs'));
  return {
    resolveAgent: (input: ResolveAgentInput) => resolveAgentActivity(agents, input),
    callModel: (input: CallModelInput) => callModelActivity(config, blobs, input),
    runTool: (input: RunToolInput) => runToolActivity(config, blobs, input),
    runStopHooks: (input: StopHooksInput) => runStopHooksActivity(config, input),
  };
}

export type DeputyActivities = ReturnType<typeof createActivities>;

/**
 * deputy's activities, built by a factory so the worker injects configuration and the agent
 * registry, and tests can build them the same way. The workflow proxies them by type only.
 */
import { join } from 'node:path';
import type { DeputyConfig } from '../config.js';
import { secretMaskerFor, type SecretMasker } from '../secrets/masker.js';
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
  /** Masks the configured secrets. Default: built from `config` and `process.env`. */
  secrets?: SecretMasker;
}

export function createActivities({ config, agents, secrets }: ActivityDependencies) {
  const blobs = new BlobStore(join(config.dataDir, 'blobs'));
  const masker = secrets ?? secretMaskerFor(config);
  // Whatever an activity returns or throws is recorded in history (and a failure is logged by the
  // worker): each one masks its own result, and every failure is masked here on its way out.
  const masked =
    <I, O>(activity: (input: I) => Promise<O>) =>
    async (input: I): Promise<O> => {
      try {
        return await activity(input);
      } catch (error) {
        throw masker.error(error);
      }
    };
  return {
    resolveAgent: masked(async (input: ResolveAgentInput) => {
      const resolved = await resolveAgentActivity(agents, input);
      // The prompt carries the definition body, skills and resident memory, any of which may
      // quote a secret. Roots are left as they are: policy compares them with real paths.
      return { ...resolved, snapshot: masker.value(resolved.snapshot) };
    }),
    callModel: masked((input: CallModelInput) => callModelActivity(config, blobs, input, masker)),
    runTool: masked((input: RunToolInput) => runToolActivity(config, blobs, input, masker)),
    runStopHooks: masked(async (input: StopHooksInput) => {
      const failure = await runStopHooksActivity(config, input);
      return failure === null ? null : masker.text(failure);
    }),
  };
}

export type DeputyActivities = ReturnType<typeof createActivities>;

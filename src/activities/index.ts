/**
 * deputy's activities, built by a factory so the worker injects configuration and the agent
 * registry, and tests can build them the same way. The workflow proxies them by type only.
 */
import type { DeputyConfig } from '../config/schema.js';
import { liveConfigOf, type LiveConfig } from '../config/live-config.js';
import { liveSecretMasker } from '../secrets/live-masker.js';
import type { McpGatewayDeps } from '../mcp-client/gateway-tools.js';
import type { SecretMasker } from '../secrets/masker.js';
import type { BlobStore } from './blob-store.js';
import { createBlobStore } from './blob-stores.js';
import { callModelActivity } from './call-model.js';
import { summarizeRoundsActivity } from './summarize-rounds.js';
import type { AgentResolver } from './resolve-agent.js';
import { resolveAgentActivity } from './resolve-agent.js';
import { runToolActivity } from './run-tool.js';
import { SnapshotStore } from './snapshot-store.js';
import type {
  CallModelInput,
  PreToolHooksInput,
  ResolveAgentInput,
  RunToolInput,
  StopHooksInput,
} from '../shared/workflow-contract/activities.js';
import { runStopHooksActivity } from './stop-hooks.js';
import { deliverWebhookActivity, type DeliverWebhookInput } from './deliver-webhook.js';
import { runPreToolHooksActivity } from './claude-hooks.js';

export interface ActivityDependencies {
  /**
   * The configuration. A live one (src/config/watch.ts) is read at each call, so model calls use
   * the model catalog in force when they run; the locations (data directory, workspace) are the
   * process's own and never change.
   */
  config: DeputyConfig | LiveConfig;
  agents: AgentResolver;
  /**
   * Masks the configured secrets. Default: the secrets of every configuration seen so far, values
   * from `process.env` (src/secrets/live-masker.ts).
   */
  secrets?: SecretMasker;
  /** The process's MCP clients (src/mcp-client/). Without them MCP tools fail with a clear message. */
  mcp?: McpGatewayDeps;
  /**
   * Where large results and snapshots go. Default: `createBlobStore` on the data directory and
   * `process.env` (src/activities/blob-stores.ts), which nothing closes; a worker passes its own
   * and closes it when it stops (a PostgreSQL store holds a connection pool).
   */
  blobs?: BlobStore;
}

export function createActivities({
  config: settings,
  agents,
  secrets,
  mcp,
  blobs: givenBlobs,
}: ActivityDependencies) {
  const live = liveConfigOf(settings);
  const blobs = givenBlobs ?? createBlobStore({ dataDir: live.current().dataDir });
  const snapshots = new SnapshotStore(blobs);
  const masker = secrets ?? liveSecretMasker(live);
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
    resolveAgent: masked((input: ResolveAgentInput) =>
      resolveAgentActivity(agents, input, masker, snapshots),
    ),
    callModel: masked(async (input: CallModelInput) =>
      callModelActivity(live.current(), blobs, await snapshots.modelCallOf(input), masker),
    ),
    summarizeRounds: masked(async (input: CallModelInput) =>
      summarizeRoundsActivity(await snapshots.modelCallOf(input), (call) =>
        callModelActivity(live.current(), blobs, call, masker),
      ),
    ),
    runTool: masked(async (input: RunToolInput) =>
      runToolActivity(live.current(), blobs, await snapshots.toolRunOf(input), masker, mcp),
    ),
    runPreToolHooks: masked(async (input: PreToolHooksInput) => {
      const answer = await runPreToolHooksActivity(live.current(), input);
      return masker.value(answer);
    }),
    deliverWebhook: masked((input: DeliverWebhookInput) =>
      deliverWebhookActivity(live.current(), input, masker),
    ),
    runStopHooks: masked(async (input: StopHooksInput) => {
      const failure = await runStopHooksActivity(live.current(), input);
      return failure === null ? null : masker.text(failure);
    }),
  };
}

export type DeputyActivities = ReturnType<typeof createActivities>;

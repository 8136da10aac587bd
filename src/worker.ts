/**
 * The composition root: builds the definition registry, the agent resolver and the activities
 * on them, and a worker that polls deputy's task queue with delegation workflows. Any number of
 * workers may poll the same queue; nothing here assumes there is only one.
 */
import { fileURLToPath } from 'node:url';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from './activities/index.js';
import type { AgentResolver } from './activities/resolve-agent.js';
import { createAgentResolver } from './agent-resolver.js';
import type { DeputyConfig } from './config.js';
import { createRegistry } from './definitions/registry.js';
import { liveConfigOf, type LiveConfig } from './live-config.js';
import { definitionSecretSource, type DefinitionsNow } from './secrets/definition-secrets.js';
import type { McpGatewayDeps } from './mcp/gateway-tools.js';
import { createMcpRuntime, type McpRuntime } from './mcp/mcp-runtime.js';
import { liveSecretMasker } from './secrets/live-masker.js';
import type { SecretMasker } from './secrets/masker.js';
import { assertSearchAttributes } from './temporal/search-attribute-check.js';
import { workerTuningOptions } from './worker-tuning.js';

/** The workflow bundle is reached by file path only, never by import (sandbox boundary). */
export const WORKFLOWS_PATH = fileURLToPath(new URL('./workflows/index.ts', import.meta.url));

export interface DeputyWorkerOptions {
  config: DeputyConfig;
  /**
   * The watched configuration (src/config-watch.ts): activities read it at each call. Default:
   * `config`, fixed.
   */
  settings?: LiveConfig;
  connection: NativeConnection;
  agents: AgentResolver;
  /** Defaults to deputy's task queue. */
  taskQueue?: string;
  /** Pre-built workflow bundle (tests share one to save bundling time). */
  workflowBundle?: { code: string };
  /** The process's MCP clients; without them MCP tools fail with a clear message. */
  mcp?: McpGatewayDeps;
  /**
   * The definitions `agents` resolves from: secrets written in their inline MCP servers are
   * masked too (an agent may read its own file). Used by the default `secrets` only.
   */
  definitions?: DefinitionsNow;
  /**
   * Masks the configured secrets in what activities record. Default: those of every
   * configuration seen and of `definitions`, values from process.env.
   */
  secrets?: SecretMasker;
}

export async function createDeputyWorker(options: DeputyWorkerOptions): Promise<Worker> {
  const settings = options.settings ?? options.config;
  await assertSearchAttributes(options.connection, options.config.temporal.namespace, (message) =>
    Runtime.instance().logger.warn(message),
  );
  return Worker.create({
    connection: options.connection,
    namespace: options.config.temporal.namespace,
    taskQueue: options.taskQueue ?? options.config.temporal.taskQueue,
    ...(options.workflowBundle
      ? { workflowBundle: options.workflowBundle }
      : { workflowsPath: WORKFLOWS_PATH }),
    activities: createActivities({
      config: settings,
      agents: options.agents,
      ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
      secrets:
        options.secrets ??
        liveSecretMasker(
          liveConfigOf(settings),
          process.env,
          ...(options.definitions === undefined
            ? []
            : [definitionSecretSource(options.definitions)]),
        ),
    }),
    // Heartbeats carry cancellation to a running tool; throttling them to at most every 2 s
    // means a TaskStop reaches a long `bash` within seconds, not half a heartbeat timeout.
    maxHeartbeatThrottleInterval: '2 seconds',
    // The `worker:` section (cache, slots, sticky timeout, SIGTERM grace), read at start: the
    // worker's sizes cannot change while it runs. Defaults and their reasons: src/worker-tuning.ts.
    ...workerTuningOptions(options.config.worker),
  });
}

export interface WorkerRuntime {
  /** Settles when the worker stops (after stop(), or on a fatal worker error). */
  done: Promise<void>;
  /** Graceful: stop polling, let running activities finish, close the connection. */
  stop(): Promise<void>;
  /** The worker's MCP clients (closed when it stops): `deputy dev` hands them to its API. */
  mcp: McpRuntime;
}

/** For tests: their own task queue, and a shared bundle. */
export type WorkerRuntimeOptions = Pick<DeputyWorkerOptions, 'taskQueue' | 'workflowBundle'> & {
  /** Where MCP connection news goes (connected, lost, retrying): secret-free lines. */
  log?: (message: string) => void;
};

/**
 * A worker with everything it needs: a native connection, the definition registry (watched) and
 * the agent resolver built on it. What `deputy worker` and `deputy dev` run.
 *
 * @param settings the configuration; a watched one (src/config-watch.ts) makes resolution and
 *   activities follow edits of `.subagents/config.yaml`. The namespace and locations are taken
 *   from it once, at start.
 */
export async function startWorkerRuntime(
  settings: DeputyConfig | LiveConfig,
  address: string,
  options: WorkerRuntimeOptions = {},
): Promise<WorkerRuntime> {
  const live = liveConfigOf(settings);
  const config = live.current();
  // Load diagnostics check model handles against the catalog as it is now (config is watched).
  const registry = createRegistry({ config, models: () => live.current().models });
  await registry.load();
  // One client per MCP server for every delegation this worker runs, connected ahead of use.
  const { log, ...workerOptions } = options;
  const mcp = createMcpRuntime({
    settings: live,
    definitions: registry,
    ...(log === undefined ? {} : { log }),
  });
  mcp.connectAll();
  // Hand-edited definitions are picked up without a restart (DEF-4); runs keep their snapshot.
  await registry.watch(() => mcp.connectAll());
  const agents = createAgentResolver(live, registry, {}, mcp);
  const connection = await NativeConnection.connect({ address });
  let worker;
  try {
    worker = await createDeputyWorker({
      config,
      settings: live,
      connection,
      agents,
      definitions: registry,
      mcp,
      ...workerOptions,
    });
  } catch (error) {
    await connection.close();
    await registry.close();
    await mcp.close();
    throw error;
  }
  const done = worker.run().finally(async () => {
    await connection.close();
    await registry.close();
    await mcp.close();
  });
  let stopping: Promise<void> | null = null;
  return {
    done,
    mcp,
    stop() {
      stopping ??= (async () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await done.catch(() => {});
      })();
      return stopping;
    },
  };
}

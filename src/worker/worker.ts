/**
 * The composition root: builds the definition registry, the agent resolver and the activities
 * on them, and a worker that polls deputy's task queue with delegation workflows. Any number of
 * workers may poll the same queue; nothing here assumes there is only one.
 *
 * With `temporal.workspaceId` the process runs a second worker on the same
 * connection: activities only, on the workspace's tool queue, where delegations started under
 * that workspace's configuration run their model calls, tools and hooks.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { createActivities } from '../activities/index.js';
import type { BlobStore } from '../activities/blob-store.js';
import { createBlobStore } from '../activities/blob-stores.js';
import type { AgentResolver } from '../activities/resolve-agent.js';
import { createAgentResolver } from './agent-resolver.js';
import { PROJECT_ROOT } from '../config/load.js';
import { type DeputyConfig } from '../config/schema.js';
import { toolQueueOf } from '../shared/workflow-contract/tool-queue.js';
import { createRegistry } from '../definitions/registry/registry.js';
import { liveConfigOf, type LiveConfig } from '../config/live-config.js';
import { definitionSecretSource, type DefinitionsNow } from '../secrets/definition-secrets.js';
import type { McpGatewayDeps } from '../mcp-client/gateway-tools.js';
import { createMcpRuntime, type McpRuntime } from '../mcp-client/mcp-runtime.js';
import { liveSecretMasker } from '../secrets/live-masker.js';
import type { SecretMasker } from '../secrets/masker.js';
import { assertSearchAttributes } from '../temporal/search-attribute-check.js';
import { workerTuningOptions } from '../config/worker-tuning.js';
import { deputyMetrics } from '../metrics/deputy-metrics.js';
import { startMetricsEndpoint, type MetricsEndpoint } from '../api/metrics/worker-endpoint.js';
import { metricsSettings } from '../metrics/settings.js';
import { workflowMetricSinks } from '../metrics/workflow-sinks.js';
import { tracingFromEnvironment, type Tracing } from '../tracing/provider.js';

/**
 * The workflows' TypeScript source (a clone runs it; webpack bundles it when the worker starts).
 * Workflow code is reached by file path only, never by import: the sandbox boundary.
 */
export const WORKFLOWS_PATH = join(PROJECT_ROOT, 'src', 'workflows', 'index.ts');
/** The workflows bundled once by `npm run build` (scripts/build-package.ts), beside `dist/`. */
export const WORKFLOW_BUNDLE = join(PROJECT_ROOT, 'dist', 'workflows', 'bundle.js');
/** The same with the tracing interceptors in it, for workers that export traces. */
export const TRACED_WORKFLOW_BUNDLE = join(PROJECT_ROOT, 'dist', 'workflows', 'bundle-traced.js');

/**
 * Where this worker's workflow code comes from. Compiled (the installed package, or a clone run
 * with DEPUTY_COMPILED=1): the prebuilt bundle, so no webpack runs, and none could (Temporal's
 * bundler transpiles TypeScript only outside `node_modules`). From source (a clone through tsx):
 * webpack bundles the source at start, as edits to it should take effect.
 */
function workflowCode(
  traced: boolean,
):
  | { workflowBundle: { codePath: string } }
  | { workflowsPath: string; bundlerOptions: { webpackConfigHook: typeof bundleInProject } } {
  if (!import.meta.url.endsWith('.js')) {
    // The tracing interceptors, when on, are bundled in from `interceptors.workflowModules`.
    return {
      workflowsPath: WORKFLOWS_PATH,
      bundlerOptions: { webpackConfigHook: bundleInProject },
    };
  }
  const bundle = traced ? TRACED_WORKFLOW_BUNDLE : WORKFLOW_BUNDLE;
  if (!existsSync(bundle)) {
    throw new Error(
      `the workflow bundle ${bundle} is missing: compiled deputy needs \`npm run build\``,
    );
  }
  return { workflowBundle: { codePath: bundle } };
}

/**
 * Webpack resolves from its `context`, by default the current directory, which is the
 * workspace: it read `<workspace>/package.json` and `.browserslistrc` (a browserslist config
 * there sets webpack's target) while bundling the workflows, files an agent may write. Bundling
 * from the runtime's own folder keeps the workflow code a function of deputy's files alone.
 */
export function bundleInProject<T extends { context?: string }>(config: T): T {
  return { ...config, context: PROJECT_ROOT };
}

export interface DeputyWorkerOptions {
  config: DeputyConfig;
  /**
   * The watched configuration (src/config/watch.ts): activities read it at each call. Default:
   * `config`, fixed.
   */
  settings?: LiveConfig;
  connection: NativeConnection;
  agents: AgentResolver;
  /** Defaults to deputy's task queue. */
  taskQueue?: string;
  /**
   * The workspace's tool queue, polled by an activities-only worker besides `taskQueue`.
   * Default: `<taskQueue>-tools/<temporal.workspaceId>`, none without a workspace id; null: none.
   */
  toolQueue?: string | null;
  /**
   * Pre-built workflow bundle (tests share one to save bundling time). With `tracing`, it must
   * have been bundled with TRACING_INTERCEPTORS_PATH among its interceptor modules.
   */
  workflowBundle?: { code: string };
  /**
   * Exports spans through it (src/tracing/): Temporal's interceptors and deputy's own spans.
   * Default none: no interceptor, no sink, the bundle without OpenTelemetry.
   */
  tracing?: Tracing | null;
  /** The process's MCP clients; without them MCP tools fail with a clear message. */
  mcp?: McpGatewayDeps;
  /**
   * Where long results and snapshots go (src/activities/blob-stores.ts). Default: one from the
   * data directory and DEPUTY_BLOB_STORE_URL, which nothing closes.
   */
  blobs?: BlobStore;
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

/** The shared queue's worker and, with a workspace id, the tool queue's. */
export interface DeputyWorkers {
  /** Workflows and every activity, on the shared task queue. */
  shared: Worker;
  /** Activities only, on the workspace's tool queue; null without one. */
  tools: Worker | null;
  taskQueue: string;
  toolQueue: string | null;
}

/** The worker on the shared task queue (what tests and fixtures run); no tool queue worker. */
export async function createDeputyWorker(options: DeputyWorkerOptions): Promise<Worker> {
  return (await createDeputyWorkers({ ...options, toolQueue: null })).shared;
}

/**
 * The shared queue's worker and, when the workspace has a tool queue, an activities-only worker
 * on it. Both share one connection and one set of activities; each has its own slots.
 */
export async function createDeputyWorkers(options: DeputyWorkerOptions): Promise<DeputyWorkers> {
  await assertSearchAttributes(options.connection, options.config.temporal.namespace, (message) =>
    Runtime.instance().logger.warn(message),
  );
  const taskQueue = options.taskQueue ?? options.config.temporal.taskQueue;
  const toolQueue =
    options.toolQueue === undefined
      ? toolQueueOf({ taskQueue, workspaceId: options.config.temporal.workspaceId })
      : options.toolQueue;
  const activities = activitiesOf(options);
  const tuning = workerTuningOptions(options.config.worker);
  const tracing = options.tracing ?? null;
  // Loaded only when traced: an untraced worker never loads OpenTelemetry's SDK.
  const traced = tracing === null ? null : await import('../tracing/worker-tracing.js');
  const code = options.workflowBundle
    ? { workflowBundle: options.workflowBundle }
    : workflowCode(tracing !== null);
  const shared = await Worker.create({
    connection: options.connection,
    namespace: options.config.temporal.namespace,
    taskQueue,
    ...code,
    activities,
    ...(traced === null
      ? {}
      : { interceptors: traced.workerInterceptors({ bundled: 'workflowBundle' in code }) }),
    // Verdicts and cards opened, counted from the workflows (not on replay); spans when traced.
    sinks:
      tracing === null || traced === null
        ? workflowMetricSinks
        : { ...workflowMetricSinks, ...traced.workflowSpanSink(tracing) },
    // Heartbeats carry cancellation to a running tool; throttling them to at most every 2 s
    // means a TaskStop reaches a long `bash` within seconds, not half a heartbeat timeout.
    maxHeartbeatThrottleInterval: '2 seconds',
    // The `worker:` section (cache, slots, sticky timeout, SIGTERM grace), read at start: the
    // worker's sizes cannot change while it runs. Defaults and their reasons: src/config/worker-tuning.ts.
    ...tuning,
  });
  if (toolQueue === null || toolQueue === taskQueue) {
    return { shared, tools: null, taskQueue, toolQueue: null };
  }
  // No workflows here: a workflow task may run on any worker of the shared queue, while what
  // needs this workspace's files (resolve, model calls, tools, hooks) is scheduled on this queue.
  const tools = await Worker.create({
    connection: options.connection,
    namespace: options.config.temporal.namespace,
    taskQueue: toolQueue,
    activities,
    ...(traced === null ? {} : { interceptors: { activity: traced.activityInterceptors() } }),
    maxHeartbeatThrottleInterval: '2 seconds',
    maxConcurrentActivityTaskExecutions: tuning.maxConcurrentActivityTaskExecutions,
    shutdownGraceTime: tuning.shutdownGraceTime,
  });
  return { shared, tools, taskQueue, toolQueue };
}

function activitiesOf(options: DeputyWorkerOptions): ReturnType<typeof createActivities> {
  const settings = options.settings ?? options.config;
  return createActivities({
    config: settings,
    agents: options.agents,
    ...(options.mcp === undefined ? {} : { mcp: options.mcp }),
    ...(options.blobs === undefined ? {} : { blobs: options.blobs }),
    secrets:
      options.secrets ??
      liveSecretMasker(
        liveConfigOf(settings),
        process.env,
        ...(options.definitions === undefined ? [] : [definitionSecretSource(options.definitions)]),
      ),
  });
}

export interface WorkerRuntime {
  /** Settles when the worker stops (after stop(), or on a fatal worker error). */
  done: Promise<void>;
  /** Graceful: stop polling, let running activities finish, close the connection. */
  stop(): Promise<void>;
  /** The worker's MCP clients (closed when it stops): `deputy dev` hands them to its API. */
  mcp: McpRuntime;
  /** The queues it polls: the shared task queue, then the workspace's tool queue if any. */
  queues: { taskQueue: string; toolQueue: string | null };
  /** Its own `/metrics` (metrics on and `metrics.workerAddress` set), else null. */
  metricsUrl: string | null;
}

/** For tests: their own task queue, and a shared bundle. */
export type WorkerRuntimeOptions = Pick<
  DeputyWorkerOptions,
  'taskQueue' | 'toolQueue' | 'workflowBundle'
> & {
  /** Where MCP connection news goes (connected, lost, retrying): secret-free lines. */
  log?: (message: string) => void;
};

/**
 * A worker with everything it needs: a native connection, the definition registry (watched) and
 * the agent resolver built on it. What `deputy worker` and `deputy dev` run.
 *
 * @param settings the configuration; a watched one (src/config/watch.ts) makes resolution and
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
  // First: a bad DEPUTY_BLOB_STORE_URL is refused before anything starts.
  const blobs = createBlobStore({ dataDir: config.dataDir });
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
  const unwatchMcp = deputyMetrics.watchMcpPool(mcp.pool);
  // Hand-edited definitions are picked up without a restart; runs keep their snapshot.
  await registry.watch(() => mcp.connectAll());
  const agents = createAgentResolver(live, registry, {}, mcp);
  const connection = await NativeConnection.connect({ address });
  let workers: DeputyWorkers;
  let metrics: MetricsEndpoint | null = null;
  let tracing: Tracing | null = null;
  // What a failed start and a stopped worker both close.
  const closeAll = async (): Promise<void> => {
    unwatchMcp();
    await tracing?.flush();
    await metrics?.close();
    await connection.close();
    await registry.close();
    await mcp.close();
    await blobs.close();
  };
  try {
    tracing = await tracingFromEnvironment('worker');
    // Read once: a listening socket does not follow edits of the file.
    const { enabled, workerAddress } = metricsSettings(config);
    if (enabled && workerAddress !== null) {
      metrics = await startMetricsEndpoint(workerAddress, live, log === undefined ? {} : { log });
    }
    workers = await createDeputyWorkers({
      config,
      settings: live,
      connection,
      agents,
      definitions: registry,
      mcp,
      blobs,
      tracing,
      ...workerOptions,
    });
  } catch (error) {
    await closeAll();
    throw error;
  }
  const running = [workers.shared, workers.tools].filter((worker) => worker !== null);
  const shutdown = (): void => {
    for (const worker of running) if (worker.getState() === 'RUNNING') worker.shutdown();
  };
  // One stops (a fatal error), all stop: a process half serving its workspace would hide it.
  const runs = running.map((worker) => worker.run().finally(shutdown));
  // After the workers: the spans their last tasks ended are sent before the process goes.
  const done = Promise.allSettled(runs).then(async (outcomes) => {
    await closeAll();
    const failed = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failed) throw failed.reason;
  });
  let stopping: Promise<void> | null = null;
  return {
    done,
    mcp,
    queues: { taskQueue: workers.taskQueue, toolQueue: workers.toolQueue },
    metricsUrl: metrics?.url ?? null,
    stop() {
      stopping ??= (async () => {
        shutdown();
        await done.catch(() => {});
      })();
      return stopping;
    },
  };
}

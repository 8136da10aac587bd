/**
 * What the Temporal benches share: a workspace written from a map of files, a dev server (raised
 * or default dynamic config) or the cluster profile (src/servers/cluster/cluster.ts: PostgreSQL and four
 * server processes, tuned or default dynamic config file), and one worker whose bundle holds
 * deputy's delegation and the bare baselines (bench-workflows.ts), with deputy's real activities.
 * Both sides of every comparison run on this one server and worker, so neither gets a warmer
 * cache or a freer queue.
 */
import { randomUUID } from 'node:crypto';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../src/activities/index.js';
import { createAgentResolver } from '../src/worker/agent-resolver.js';
import { loadConfig } from '../src/config/load.js';
import { createRegistry } from '../src/definitions/registry/registry.js';
import { createBlobStore } from '../src/activities/blob-stores.js';
import { startCluster } from '../src/servers/cluster/cluster.js';
import { BLOB_STORE_URL_VARIABLE } from '../src/secrets/environment-secrets.js';
import { startDevServer } from '../src/servers/dev/dev-server.js';
import { workerTuningOptions } from '../src/config/worker-tuning.js';
import { workflowMetricSinks } from '../src/metrics/workflow-sinks.js';
import type { Tracing } from '../src/tracing/provider.js';
import { workerInterceptors, workflowSpanSink } from '../src/tracing/worker-tracing.js';

export interface RigOptions {
  /** Temp directory prefix. */
  name: string;
  /** Workspace files, path relative to the workspace to text. */
  files: Record<string, string>;
  /** Passed to startDevServer; `{}` = Temporal's defaults (see DevServerOptions). */
  dynamicConfig?: Readonly<Record<string, number>>;
  /** Where Temporal runs; default the dev server (`dynamicConfig` above). */
  temporal?: RigTemporal;
  /**
   * A second worker, traced through it as deputy's traced worker is (src/tracing/), polling
   * `tracedTaskQueue` on the same server; the first stays untraced.
   */
  tracing?: Tracing;
  /**
   * One more untraced worker, the same as the first, polling `controlTaskQueue`: an A/A control.
   * What it "costs" against the first is how finely a comparison between two workers of one
   * process can measure on this machine.
   */
  control?: boolean;
}

export type RigTemporal =
  | { kind: 'dev-server' }
  /**
   * The cluster profile, under the rig's temp directory, dying with this process. Its
   * `dynamicConfigFile` as startCluster's (default deploy/temporal/dynamicconfig.yaml, tuned; an
   * empty file for Temporal's defaults). The worker keeps blobs in the cluster's PostgreSQL
   * (DEPUTY_BLOB_STORE_URL), as a cluster's workers do.
   */
  | { kind: 'cluster'; dynamicConfigFile?: string; log?: (line: string) => void };

export interface Rig {
  client: Client;
  taskQueue: string;
  workspace: string;
  /** The frontend's address, for workers in other processes. */
  address: string;
  /** The rig's temp directory (removed by run): room for other processes' files. */
  root: string;
  /** The cluster's blob store URL (a secret) for other workers; null on the dev server. */
  blobStoreUrl: string | null;
  /** The traced worker's queue, with `tracing`; else null. */
  tracedTaskQueue: string | null;
  /** The control worker's queue, with `control`; else null. */
  controlTaskQueue: string | null;
  /** Runs `body` while the worker polls, then stops everything and removes the temp directory. */
  run<T>(body: () => Promise<T>): Promise<T>;
}

export async function startRig(options: RigOptions): Promise<Rig> {
  const root = await mkdtemp(join(tmpdir(), `deputy-bench-${options.name}-`));
  const workspace = join(root, 'workspace');
  for (const [path, text] of Object.entries(options.files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), text);
  }
  const cleanups: Array<() => Promise<unknown>> = [
    () => rm(root, { recursive: true, force: true }),
  ];
  const cleanup = async () => {
    for (const step of cleanups.splice(0).reverse()) await step().catch(() => undefined);
  };
  try {
    const temporal = options.temporal ?? { kind: 'dev-server' };
    let server: { address: string; stop(): Promise<void> };
    let blobStoreUrl: string | null = null;
    if (temporal.kind === 'cluster') {
      // Its PostgreSQL runs as user postgres when we are root: it must enter the data directory.
      await chmod(root, 0o755);
      const cluster = await startCluster({
        dataDir: join(root, 'data'),
        detached: false,
        ui: false,
        ...(temporal.dynamicConfigFile === undefined
          ? {}
          : { dynamicConfigFile: temporal.dynamicConfigFile }),
        ...(temporal.log === undefined ? {} : { log: temporal.log }),
      });
      server = cluster;
      cleanups.push(() => cluster.stop());
      blobStoreUrl = await cluster.blobStoreUrl();
    } else {
      server = await startDevServer({
        dataDir: join(root, 'data'),
        headless: true,
        ...(options.dynamicConfig === undefined ? {} : { dynamicConfig: options.dynamicConfig }),
      });
      cleanups.push(() => server.stop());
    }
    const config = loadConfig(
      { workspace, temporalAddress: server.address },
      { DEPUTY_USER_DIR: join(root, 'user') },
    );
    const registry = createRegistry({ config });
    await registry.load();
    cleanups.push(() => registry.close());
    const blobs =
      blobStoreUrl === null
        ? undefined
        : createBlobStore({
            dataDir: config.dataDir,
            env: { [BLOB_STORE_URL_VARIABLE]: blobStoreUrl },
          });
    if (blobs !== undefined) cleanups.push(() => blobs.close());
    const nativeConnection = await NativeConnection.connect({ address: server.address });
    cleanups.push(() => nativeConnection.close());
    const taskQueue = `bench-${options.name}-${randomUUID().slice(0, 8)}`;
    const activities = {
      ...createActivities({
        config,
        agents: createAgentResolver(config, registry),
        ...(blobs === undefined ? {} : { blobs }),
      }),
      // bench/floor-workflow.ts: a step that does nothing, for Temporal's own cost.
      floorStep: () => Promise.resolve(),
    };
    const workerOn = (queue: string, tracing: Tracing | undefined) =>
      Worker.create({
        connection: nativeConnection,
        namespace: config.temporal.namespace,
        taskQueue: queue,
        workflowsPath: fileURLToPath(new URL('./bench-workflows.ts', import.meta.url)),
        activities,
        // As deputy's own worker runs (src/worker/worker.ts): its metric sink, cache, slots and heartbeat throttle.
        sinks:
          tracing === undefined
            ? workflowMetricSinks
            : { ...workflowMetricSinks, ...workflowSpanSink(tracing) },
        ...(tracing === undefined ? {} : { interceptors: workerInterceptors({ bundled: false }) }),
        ...workerTuningOptions(config.worker),
        maxHeartbeatThrottleInterval: '2 seconds',
      });
    const worker = await workerOn(taskQueue, undefined);
    const tracedTaskQueue = options.tracing === undefined ? null : `${taskQueue}-traced`;
    const traced =
      tracedTaskQueue === null ? null : await workerOn(tracedTaskQueue, options.tracing);
    const controlTaskQueue = options.control === true ? `${taskQueue}-control` : null;
    const control = controlTaskQueue === null ? null : await workerOn(controlTaskQueue, undefined);
    const connection = await Connection.connect({ address: server.address });
    cleanups.push(() => connection.close());
    const client = new Client({ connection, namespace: config.temporal.namespace });
    return {
      client,
      taskQueue,
      workspace,
      address: server.address,
      root,
      blobStoreUrl,
      tracedTaskQueue,
      controlTaskQueue,
      async run<T>(body: () => Promise<T>): Promise<T> {
        const polling = [worker, traced, control].filter((one) => one !== null);
        const whilePolling = polling.reduceRight<() => Promise<T>>(
          (inner, one) => () => one.runUntil(inner),
          body,
        );
        try {
          return await whilePolling();
        } finally {
          await cleanup();
        }
      },
    };
  } catch (error) {
    await cleanup();
    throw error;
  }
}

/** The input of deputy's `delegation` workflow for a scripted bench agent. */
export function delegationInput(delegationId: string, agent: string, task: string) {
  return {
    delegationId,
    agent,
    task,
    session: 'bench',
    caller: { id: null, roles: [] },
    options: {},
  };
}

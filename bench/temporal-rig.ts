/**
 * What the Temporal benches share: a workspace written from a map of files, a dev server (raised
 * or default dynamic config), and one worker whose bundle holds deputy's delegation and the bare
 * baselines (bench-workflows.ts), with deputy's real activities. Both sides of every comparison
 * run on this one server and worker, so neither gets a warmer cache or a freer queue.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client, Connection } from '@temporalio/client';
import { NativeConnection, Worker } from '@temporalio/worker';
import { createActivities } from '../src/activities/index.js';
import { createAgentResolver } from '../src/agent-resolver.js';
import { loadConfig } from '../src/config.js';
import { createRegistry } from '../src/definitions/registry.js';
import { startDevServer } from '../src/temporal/dev-server.js';
import { workerTuningOptions } from '../src/worker-tuning.js';

export interface RigOptions {
  /** Temp directory prefix. */
  name: string;
  /** Workspace files, path relative to the workspace to text. */
  files: Record<string, string>;
  /** Passed to startDevServer; `{}` = Temporal's defaults (see DevServerOptions). */
  dynamicConfig?: Readonly<Record<string, number>>;
}

export interface Rig {
  client: Client;
  taskQueue: string;
  workspace: string;
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
    const server = await startDevServer({
      dataDir: join(root, 'data'),
      headless: true,
      ...(options.dynamicConfig === undefined ? {} : { dynamicConfig: options.dynamicConfig }),
    });
    cleanups.push(() => server.stop());
    const config = loadConfig(
      { workspace, temporalAddress: server.address },
      { DEPUTY_USER_DIR: join(root, 'user') },
    );
    const registry = createRegistry({ config });
    await registry.load();
    cleanups.push(() => registry.close());
    const nativeConnection = await NativeConnection.connect({ address: server.address });
    cleanups.push(() => nativeConnection.close());
    const taskQueue = `bench-${options.name}-${randomUUID().slice(0, 8)}`;
    const worker = await Worker.create({
      connection: nativeConnection,
      namespace: config.temporal.namespace,
      taskQueue,
      workflowsPath: fileURLToPath(new URL('./bench-workflows.ts', import.meta.url)),
      activities: {
        ...createActivities({ config, agents: createAgentResolver(config, registry) }),
        // bench/floor-workflow.ts: a step that does nothing, for Temporal's own cost.
        floorStep: () => Promise.resolve(),
      },
      // As deputy's own worker runs (src/worker.ts): its cache, slots and heartbeat throttle.
      ...workerTuningOptions(config.worker),
      maxHeartbeatThrottleInterval: '2 seconds',
    });
    const connection = await Connection.connect({ address: server.address });
    cleanups.push(() => connection.close());
    const client = new Client({ connection, namespace: config.temporal.namespace });
    return {
      client,
      taskQueue,
      workspace,
      async run(body) {
        try {
          return await worker.runUntil(body);
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

/**
 * Integration harness: a real worker on a real Temporal dev server (started by
 * test/global-setup.ts), a temporary workspace with agent definitions and scripted-model
 * scripts, and its own task queue so test files running in parallel never share workers.
 */
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { promisify } from 'node:util';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { Client, Connection, type WorkflowHandle } from '@temporalio/client';
import { DefaultLogger, NativeConnection, Runtime, type Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import { createAgentResolver } from '../../../src/worker/agent-resolver.js';
import { loadConfig, PROJECT_ROOT } from '../../../src/config/load.js';
import { type DeputyConfig } from '../../../src/config/schema.js';
import {
  createRegistry,
  type DefinitionRegistry,
} from '../../../src/definitions/registry/registry.js';
import type { Caller } from '../../../src/shared/caller.js';
import { ANONYMOUS_CALLER } from '../../../src/shared/caller.js';
import type { DelegationOptions } from '../../../src/shared/delegation.js';
import { fixedConfig } from '../../../src/config/live-config.js';
import { createMcpRuntime, type McpRuntime } from '../../../src/mcp-client/mcp-runtime.js';
import { createDelegations, type Delegations } from '../../../src/temporal/delegations/facade.js';
import { createSessions, type Sessions } from '../../../src/temporal/sessions/facade.js';
import { ensureTemporalCli } from '../../../src/servers/dev/temporal-cli.js';
import {
  createDeputyWorker,
  TRACED_WORKFLOW_BUNDLE,
  WORKFLOW_BUNDLE,
} from '../../../src/worker/worker.js';
import type { delegation } from '../../../src/workflows/index.js';

// Worker INFO lines would bury test output; warnings and errors still show.
Runtime.install({ logger: new DefaultLogger('WARN') });

const sharedBundles = new Map<'plain' | 'traced', Promise<{ code: string }>>();

/**
 * The workflows as test/compiled-build.ts bundled them for this run, read once per test process:
 * bundling them again in every test file cost seconds of CPU each. A traced bundle has the
 * tracing interceptors, as `deputy worker` loads it when OTLP export is on.
 */
export function workflowBundle(kind: 'plain' | 'traced' = 'plain'): Promise<{ code: string }> {
  let bundle = sharedBundles.get(kind);
  if (bundle === undefined) {
    bundle = readFile(workflowBundlePath(kind), 'utf8').then((code) => ({ code }));
    sharedBundles.set(kind, bundle);
  }
  return bundle;
}

/** The bundle's file, for workers in child processes. */
export function workflowBundlePath(kind: 'plain' | 'traced'): string {
  return kind === 'traced' ? TRACED_WORKFLOW_BUNDLE : WORKFLOW_BUNDLE;
}

/** Writes `files` (workspace-relative path -> content) into `workspace`. */
export async function writeFiles(
  workspace: string,
  files: Record<string, string>,
): Promise<string> {
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(workspace, path)), { recursive: true });
    await writeFile(join(workspace, path), content);
  }
  return workspace;
}

export interface Harness {
  workspace: string;
  config: DeputyConfig;
  registry: DefinitionRegistry;
  client: Client;
  address: string;
  taskQueue: string;
  /** The facades the API and CLI use, on this harness's task queue. */
  delegations: Delegations;
  sessions: Sessions;
  /** The running worker's MCP clients (option `mcp`); null without them or while stopped. */
  mcp: McpRuntime | null;
  /** Starts a delegation on this harness's task queue. */
  start(
    agent: string,
    task: string,
    options?: DelegationOptions & { caller?: Caller; session?: string },
  ): Promise<WorkflowHandle<typeof delegation>>;
  startWorker(): Promise<void>;
  stopWorker(): Promise<void>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Default: the dev server of test/global-setup.ts. */
  address?: string;
  /** Reuse a workspace (after a server restart); `files` are then written into it. */
  workspace?: string;
  /** Reuse a task queue (to pick up delegations started by an earlier harness). */
  taskQueue?: string;
  /** Default true; false when the test runs its worker in a child process. */
  startWorker?: boolean;
  /**
   * Give the worker MCP clients, as `startWorkerRuntime` does: each started worker gets its own
   * runtime (a new pool), closed when the worker stops. `log` receives its connection news.
   */
  mcp?: boolean | { log?: (message: string) => void };
}

export async function createHarness(
  files: Record<string, string>,
  options: HarnessOptions = {},
): Promise<Harness> {
  const address = options.address ?? inject('temporalAddress');
  const workspace = await writeFiles(
    options.workspace ?? (await mkdtemp(join(tmpdir(), 'deputy-ws-'))),
    files,
  );
  const config = loadConfig(
    { workspace, temporalAddress: address },
    {
      DEPUTY_USER_DIR: join(workspace, '.user-config'),
    },
  );
  const registry = createRegistry({ config });
  await registry.load();
  const agents = createAgentResolver(config, registry, { homeDir: join(workspace, '.home') });
  // The SDK's 10 s to connect is not enough on 2 cores that also run PostgreSQL, a cluster and
  // three suites' workers (a CI run missed it once); a test connection is no speed claim.
  const connection = await Connection.connect({ address, connectTimeout: '60 seconds' });
  const client = new Client({ connection });
  const taskQueue = options.taskQueue ?? `test-${randomUUID()}`;
  const delegations = createDelegations(client, { namespace: 'default', taskQueue });
  const sessions = createSessions(client, delegations, { taskQueue });
  const nativeConnection = await NativeConnection.connect({ address });
  let worker: Worker | null = null;
  let running: Promise<void> | null = null;
  const mcpLog = typeof options.mcp === 'object' ? options.mcp.log : undefined;

  const harness: Harness = {
    workspace,
    config,
    registry,
    client,
    address,
    taskQueue,
    delegations,
    sessions,
    mcp: null,
    async start(agent, task, options = {}) {
      // Through the same facade the API and CLI use: search attributes and memo included.
      const { caller = ANONYMOUS_CALLER, session = 'test', ...rest } = options;
      const { workflowId } = await delegations.start({
        agent,
        task,
        session,
        caller,
        options: rest,
      });
      return client.workflow.getHandle<typeof delegation>(workflowId);
    },
    async startWorker() {
      if (worker) return;
      const mcp =
        options.mcp === undefined || options.mcp === false
          ? null
          : createMcpRuntime({
              settings: fixedConfig(config),
              definitions: registry,
              ...(mcpLog === undefined ? {} : { log: mcpLog }),
            });
      mcp?.connectAll();
      harness.mcp = mcp;
      worker = await createDeputyWorker({
        config,
        connection: nativeConnection,
        agents:
          mcp === null
            ? agents
            : createAgentResolver(config, registry, { homeDir: join(workspace, '.home') }, mcp),
        definitions: registry,
        taskQueue,
        workflowBundle: await workflowBundle(),
        ...(mcp === null ? {} : { mcp }),
      });
      running = worker.run();
    },
    async stopWorker() {
      if (!worker) return;
      worker.shutdown();
      await running;
      await harness.mcp?.close();
      harness.mcp = null;
      worker = null;
      running = null;
    },
    async close() {
      await harness.stopWorker();
      await nativeConnection.close();
      await connection.close();
    },
  };
  if (options.startWorker !== false) await harness.startWorker();
  return harness;
}

export { eventually } from '../../support/eventually.js';

/**
 * With DEPUTY_RECORD_HISTORIES=1 (`npm run record-histories`), writes the workflow's history to
 * test/fixtures/histories/<name>.json for the replay test. Otherwise does nothing.
 */
export async function recordHistory(handle: WorkflowHandle, name: string): Promise<void> {
  if (process.env.DEPUTY_RECORD_HISTORIES !== '1') return;
  // The CLI writes the canonical JSON form that historyFromJSON reads back.
  const { stdout } = await promisify(execFile)(
    await ensureTemporalCli(),
    [
      'workflow',
      'show',
      '--workflow-id',
      handle.workflowId,
      '--address',
      inject('temporalAddress'),
      '--output',
      'json',
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const directory = join(PROJECT_ROOT, 'test/fixtures/histories');
  await mkdir(directory, { recursive: true });
  await writeFile(join(directory, `${name}.json`), stdout);
}

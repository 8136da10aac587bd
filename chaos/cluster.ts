/**
 * The real processes a chaos scenario runs against: a Temporal dev server on its own SQLite file
 * (restartable on the same file and port), deputy workers as child processes, and the HTTP API
 * on loopback. Nothing here is simulated; only the model is scripted (see agents.ts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode } from '@temporalio/worker';
import { loadConfig, PROJECT_ROOT } from '../src/config/load.js';
import { startApiServer, type ApiServer } from '../src/server.js';
import { createDelegations, type Delegations } from '../src/temporal/delegations/facade.js';
import { freePort, startDevServer, type DevServer } from '../src/servers/dev/dev-server.js';
import { WORKFLOWS_PATH } from '../src/worker/worker.js';

export const sleep = (ms: number): Promise<void> =>
  new Promise((resolve) => setTimeout(resolve, ms));

/** A dev server that can be killed (any signal) and started again on the same file and port. */
export interface ChaosServer {
  readonly address: string;
  readonly pid: number;
  /** Signals the server process itself (not its watchdog) and waits until it has exited. */
  kill(signal: NodeJS.Signals): Promise<void>;
  /** Starts it again on the same database file and port; milliseconds it took. */
  restart(): Promise<number>;
  stop(): Promise<void>;
}

export async function startServer(dataDir: string): Promise<ChaosServer> {
  const port = await freePort();
  let server: DevServer = await startDevServer({ dataDir, port, headless: true });
  return {
    address: server.address,
    get pid() {
      return server.pid;
    },
    async kill(signal) {
      const pid = server.pid;
      try {
        process.kill(pid, signal);
      } catch {
        return; // already gone
      }
      // Up to the dev server's own 10 s grace for SIGTERM; SIGKILL is immediate.
      const deadline = Date.now() + 30_000;
      while (isAlive(pid) && Date.now() < deadline) await sleep(100);
      if (isAlive(pid))
        throw new Error(`temporal dev server ${pid} still alive 30 s after ${signal}`);
      // Clears the server record so the next start finds the database free.
      await server.stop();
    },
    async restart() {
      const started = Date.now();
      server = await startDevServer({ dataDir, port, headless: true });
      return Date.now() - started;
    },
    stop: () => server.stop(),
  };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** One scenario's place: a workspace, a log directory and a task queue of its own. */
export interface Site {
  readonly name: string;
  readonly workspace: string;
  readonly logs: string;
  readonly taskQueue: string;
}

export async function createSite(root: string, name: string): Promise<Site> {
  const workspace = join(root, name, 'ws');
  const logs = join(root, name, 'logs');
  await mkdir(workspace, { recursive: true });
  await mkdir(logs, { recursive: true });
  return { name, workspace, logs, taskQueue: `chaos-${name}-${process.pid}` };
}

export async function createRoot(): Promise<string> {
  return mkdtemp(join(tmpdir(), 'deputy-chaos-'));
}

/** Bundles the workflow code once and writes it where every worker process reads it. */
export async function writeBundle(root: string): Promise<string> {
  const { code } = await bundleWorkflowCode({
    workflowsPath: WORKFLOWS_PATH,
    logger: { log() {}, trace() {}, debug() {}, info() {}, warn() {}, error: console.error },
  });
  const path = join(root, 'workflow-bundle.js');
  await writeFile(path, code);
  return path;
}

export interface WorkerProcess {
  readonly pid: number;
  readonly child: ChildProcess;
  /** Settles when the process has exited, however. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** Sends `signal` and waits for the exit. */
  kill(signal: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface SpawnOptions {
  address: string;
  bundle: string;
  /** Run the real `deputy worker` command instead of chaos/worker-process.ts (bundles itself). */
  cli?: boolean;
  env?: Record<string, string>;
  /** Default 120 s: bundling under load on two cores is slow. */
  readyTimeoutMs?: number;
}

let spawned = 0;

/** A worker process on the site's task queue; resolves once it polls. Output goes to a log file. */
export async function spawnWorker(site: Site, options: SpawnOptions): Promise<WorkerProcess> {
  const script = options.cli ? ['src/cli/main.ts', 'worker'] : ['chaos/worker-process.ts'];
  const child = spawn(process.execPath, ['--import', 'tsx', ...script], {
    cwd: PROJECT_ROOT,
    env: {
      ...process.env,
      TEMPORAL_ADDRESS: options.address,
      DEPUTY_WORKSPACE: site.workspace,
      DEPUTY_USER_DIR: join(site.workspace, '.user-config'),
      DEPUTY_TASK_QUEUE: site.taskQueue,
      CHAOS_BUNDLE: options.bundle,
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = createWriteStream(join(site.logs, `worker-${++spawned}.log`));
  let output = '';
  const collect = (chunk: Buffer): void => {
    log.write(chunk);
    if (output.length < 20_000) output += chunk.toString();
  };
  child.stdout!.on('data', collect);
  child.stderr!.on('data', collect);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => {
      log.end();
      resolve({ code, signal });
    }),
  );
  // `deputy worker` says it polls on stderr; the chaos worker says `worker ready` on stdout.
  const ready = (): boolean => output.includes('worker ready') || output.includes('worker polling');
  const deadline = Date.now() + (options.readyTimeoutMs ?? 120_000);
  let gone = false;
  void exited.then(() => (gone = true));
  while (!ready()) {
    if (gone) throw new Error(`worker process exited before it was ready:\n${output.slice(-2000)}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`worker process not ready in time:\n${output.slice(-2000)}`);
    }
    await sleep(50);
  }
  return {
    pid: child.pid!,
    child,
    exited,
    kill(signal) {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

/**
 * Keeps `size` workers alive on a site: one that dies (killed by the suite, or by a bash tool
 * that `kill -9`s its own worker) is replaced at once, as a supervisor would. Counts the deaths.
 */
export interface WorkerPool {
  readonly workers: readonly WorkerProcess[];
  /** Workers that died while the pool ran (each was replaced). */
  readonly deaths: number;
  /** SIGKILLs one worker picked by `index` (modulo the pool size); replacement follows. */
  killOne(index: number): Promise<void>;
  /** Stops replacing and SIGKILLs everything left. */
  close(): Promise<void>;
}

export async function startPool(
  site: Site,
  size: number,
  options: SpawnOptions,
): Promise<WorkerPool> {
  const workers: WorkerProcess[] = [];
  let deaths = 0;
  let closed = false;
  const replacing = new Set<Promise<void>>();
  const watch = (worker: WorkerProcess): void => {
    void worker.exited.then(() => {
      const at = workers.indexOf(worker);
      if (at >= 0) workers.splice(at, 1);
      if (closed) return;
      deaths++;
      // While Temporal itself is down (server-restart scenario) a start fails: try again.
      const replacement = (async () => {
        while (!closed) {
          try {
            const next = await spawnWorker(site, options);
            if (closed) {
              void next.kill('SIGKILL');
              return;
            }
            workers.push(next);
            watch(next);
            return;
          } catch {
            await sleep(1_000);
          }
        }
      })();
      replacing.add(replacement);
      void replacement.finally(() => replacing.delete(replacement));
    });
  };
  for (const worker of await Promise.all(
    Array.from({ length: size }, () => spawnWorker(site, options)),
  )) {
    workers.push(worker);
    watch(worker);
  }
  return {
    workers,
    get deaths() {
      return deaths;
    },
    async killOne(index) {
      const worker = workers[index % Math.max(workers.length, 1)];
      if (worker) await worker.kill('SIGKILL');
    },
    async close() {
      closed = true;
      await Promise.allSettled([...replacing]);
      await Promise.all(workers.map((worker) => worker.kill('SIGKILL')));
    },
  };
}

/** The HTTP API on loopback, on the site's task queue, with its facade and a Temporal client. */
export interface Api {
  readonly url: string;
  readonly client: Client;
  readonly delegations: Delegations;
  /** Internal errors the API logged (each would have been a 500). */
  readonly internalErrors: string[];
  close(): Promise<void>;
}

export async function startApi(
  site: Site,
  address: string,
  agents: readonly string[],
): Promise<Api> {
  const config = loadConfig(
    { workspace: site.workspace, temporalAddress: address, port: 0 },
    { DEPUTY_TASK_QUEUE: site.taskQueue, DEPUTY_USER_DIR: join(site.workspace, '.user-config') },
  );
  const connection = await Connection.connect({ address });
  const client = new Client({ connection });
  const delegations = createDelegations(client, {
    namespace: 'default',
    taskQueue: site.taskQueue,
  });
  const internalErrors: string[] = [];
  const server: ApiServer = await startApiServer(config, {
    delegations,
    agentNames: () => [...agents],
    logger: {
      error: (message, error) => internalErrors.push(`${message}: ${String(error)}`),
      warn: () => {},
      info: () => {},
    },
  });
  return {
    url: server.url,
    client,
    delegations,
    internalErrors,
    async close() {
      await server.close();
      await connection.close();
    },
  };
}

export interface HttpAnswer {
  /** 0 when the request got no answer within its timeout (a hang) or the connection failed. */
  status: number;
  body: Record<string, unknown>;
  hung: boolean;
  ms: number;
}

/** One API request with a deadline: a hang is counted, never waited out. */
export async function http(
  api: Api,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  timeoutMs = 20_000,
): Promise<HttpAnswer> {
  const started = Date.now();
  try {
    const response = await fetch(`${api.url}${path}`, {
      method,
      signal: AbortSignal.timeout(timeoutMs),
      ...(body === undefined
        ? {}
        : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
    });
    const text = await response.text();
    let parsed: Record<string, unknown> = {};
    try {
      parsed = JSON.parse(text) as Record<string, unknown>;
    } catch {
      parsed = { text };
    }
    return { status: response.status, body: parsed, hung: false, ms: Date.now() - started };
  } catch (error) {
    const hung = (error as Error).name === 'TimeoutError';
    return {
      status: 0,
      body: { error: (error as Error).message },
      hung,
      ms: Date.now() - started,
    };
  }
}

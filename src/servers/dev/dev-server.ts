/**
 * Starts `temporal server start-dev` for machines without a Temporal cluster: persistent SQLite
 * under the data directory (WAL, so it survives a crash and stays fast), deputy's custom search
 * attributes registered, ports free or as configured. `TEMPORAL_ADDRESS` bypasses all of this.
 */
import { mkdir } from 'node:fs/promises';
import { connect, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { Connection } from '@temporalio/client';
import {
  CUSTOM_SEARCH_ATTRIBUTES,
  SEARCH_ATTRIBUTE_TYPE_NAMES,
} from '../../shared/workflow-contract/search-attributes.js';
import { TUNED_DYNAMIC_CONFIG } from '../cluster/server-config.js';
import { readDynamicConfig, type DynamicConfigValue } from '../dynamic-config.js';
import { OutputEnds } from '../../processes/output-ends.js';
import { spawnWatchedGroup } from '../../processes/watched-group.js';
import { databasePath, removeServerRecord, writeServerRecord } from './server-record.js';
import { claimDatabase } from './server-takeover.js';
import { ensureTemporalCli } from './temporal-cli.js';

export interface DevServerOptions {
  /** deputy's data directory; the server keeps `temporal/temporal.db` inside it. */
  dataDir: string;
  /** gRPC port; default: a free port. */
  port?: number;
  /** Web UI port; default: a free port. */
  uiPort?: number;
  /** No Web UI (tests). Default false. */
  headless?: boolean;
  /** Milliseconds to wait for the server to answer. Default 90 000. */
  readyTimeoutMs?: number;
  log?: (line: string) => void;
  /**
   * Dynamic config values passed as `--dynamic-config-value`. Default: DEV_SERVER_DYNAMIC_CONFIG.
   * `{}` runs Temporal's own defaults, as a small cluster has them (the bench compares both).
   */
  dynamicConfig?: Readonly<Record<string, DynamicConfigValue>>;
}

export interface DevServer {
  address: string;
  uiUrl: string | null;
  pid: number;
  /**
   * Settles once the server process has exited, however it ended. `stopped` is true when stop()
   * had asked for it; otherwise it died on its own (supervised-dev-server.ts restarts it).
   */
  exited: Promise<DevServerExit>;
  stop(): Promise<void>;
}

export interface DevServerExit {
  code: number | null;
  signal: NodeJS.Signals | null;
  stopped: boolean;
}

/** Milliseconds the server gets to shut down on SIGTERM before SIGKILL, however it is stopped. */
const STOP_GRACE_MS = 10_000;

/**
 * A port free to listen on now and not handed out again for a while. A port that is merely
 * closed goes back to the kernel's pool at once: the next `bind(0)` anywhere (a parallel dev
 * server choosing its history and matching ports, say) may take it before our server binds
 * it, and then one of the two dies at start-up. A connection closed from the listening side
 * leaves the port in TIME_WAIT, which `bind(0)` skips for a minute while an explicit bind with
 * SO_REUSEADDR (Node's, Go's and PostgreSQL's default) still succeeds. The Temporal CLI picks
 * its own ports the same way.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  const accepted = new Promise<Socket>((resolve) => server.once('connection', resolve));
  const client = connect(port, '127.0.0.1');
  client.on('error', () => {});
  const serverSide = await accepted;
  const clientClosed = new Promise((resolve) => client.once('close', resolve));
  // The listening side closes first, so the TIME_WAIT entry holds the listening port.
  serverSide.end();
  await new Promise((resolve) => client.once('end', resolve));
  client.end();
  await clientClosed;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * The dev server runs one history shard, and its transfer, timer and visibility queue
 * processors poll at most 20 times a second by default: after a short burst every workflow
 * task waits its turn (about 50 ms a step, bare workflows included). Lifting the limits takes a
 * step to about 10 ms on one machine. The values are the cluster profile's and docker-compose's
 * (deploy/temporal/dynamicconfig.yaml, one file for all three); a production cluster gets its
 * throughput from history shards sized for the load as well (docs/operations.md).
 */
export const DEV_SERVER_DYNAMIC_CONFIG: Readonly<Record<string, DynamicConfigValue>> =
  readDynamicConfig(TUNED_DYNAMIC_CONFIG);

export async function startDevServer(options: DevServerOptions): Promise<DevServer> {
  const log = options.log ?? (() => {});
  const stateDir = join(options.dataDir, 'temporal');
  await mkdir(stateDir, { recursive: true });
  // One server per SQLite file, and none left behind by a deputy that is gone.
  await claimDatabase(options.dataDir, { graceMs: STOP_GRACE_MS, log });
  const binary = await ensureTemporalCli(process.env, log);
  const port = options.port ?? (await freePort());
  const uiPort = options.headless ? null : (options.uiPort ?? (await freePort()));
  const args = [
    'server',
    'start-dev',
    '--ip',
    '127.0.0.1',
    '--port',
    String(port),
    '--db-filename',
    databasePath(options.dataDir),
    '--sqlite-pragma',
    'journal_mode=wal',
    '--sqlite-pragma',
    'synchronous=normal',
    '--log-level',
    'warn',
    ...Object.entries(options.dynamicConfig ?? DEV_SERVER_DYNAMIC_CONFIG).flatMap(
      ([key, value]) => ['--dynamic-config-value', `${key}=${JSON.stringify(value)}`],
    ),
    ...CUSTOM_SEARCH_ATTRIBUTES.flatMap((key) => [
      '--search-attribute',
      `${key.name}=${SEARCH_ATTRIBUTE_TYPE_NAMES[key.type]}`,
    ]),
    ...(uiPort === null
      ? ['--headless']
      : ['--ui-port', String(uiPort), '--ui-disable-news-fetch']),
  ];
  const address = `127.0.0.1:${port}`;
  const uiUrl = uiPort === null ? null : `http://127.0.0.1:${uiPort}`;
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await launch(binary, args, { ...options, address, uiUrl });
    } catch (error) {
      // The CLI picks its history, matching and worker ports itself, free when picked but not
      // held: a process on this machine that binds one first makes the server panic (exit 2)
      // before it answers. Fresh ports on the next try; a refusal of ours (exit 1, "can't set
      // frontend port") is final.
      if (!(error instanceof ServerExitedEarly) || error.exitCode !== 2) throw error;
      if (attempt === START_ATTEMPTS) throw error;
      log(`temporal dev server crashed during start-up (${error.firstLine}); starting it again`);
    }
  }
}

/** A Go panic's exit code is 2; its first line names the cause. */
class ServerExitedEarly extends Error {
  constructor(
    readonly exitCode: number,
    readonly output: string,
  ) {
    super(`temporal dev server exited with ${exitCode} before it was ready:\n${output}`);
  }

  get firstLine(): string {
    return this.output.split('\n').find((line) => line.trim() !== '') ?? 'no output';
  }
}

const START_ATTEMPTS = 3;

interface LaunchOptions extends DevServerOptions {
  address: string;
  uiUrl: string | null;
}

async function launch(binary: string, args: string[], options: LaunchOptions): Promise<DevServer> {
  const { address, uiUrl } = options;
  // Own process group: a terminal's Ctrl-C reaches deputy, which stops the worker first and the
  // server last; the server must not die under a worker that is still finishing its tasks. The
  // group's watchdog stops the server if deputy dies without doing so itself (SIGKILL included).
  const child = spawnWatchedGroup(binary, args, { graceMs: STOP_GRACE_MS });
  const signalGroup = (signal: NodeJS.Signals): void => {
    if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
    try {
      process.kill(-child.pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  };
  // Belt and braces for an ordinary exit that skipped stop(): no need to wait for the watchdog.
  const killOnExit = (): void => signalGroup('SIGKILL');
  process.once('exit', killOnExit);
  // The start-up banner goes to stdout; read and drop it so the pipe never fills.
  child.stdout.resume();
  // A Go panic names its cause in its first lines and its stack in the rest: keep both ends.
  const stderrEnds = new OutputEnds(4000);
  child.stderr.on('data', (chunk: Buffer) => stderrEnds.add(chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const exited = ended.then(({ code }) => code);

  try {
    // Recorded before it is ready: a second `deputy dev` starting meanwhile must find it taken.
    await writeServerRecord(options.dataDir, {
      address,
      uiUrl,
      pid: child.pid ?? -1,
      ownerPid: process.pid,
    });
    await waitUntilReady(address, exited, options.readyTimeoutMs ?? 90_000, () =>
      stderrEnds.toString(),
    );
  } catch (error) {
    process.removeListener('exit', killOnExit);
    signalGroup('SIGKILL');
    await exited;
    await removeServerRecord(options.dataDir);
    throw error;
  }

  let stopping: Promise<void> | null = null;
  // Dead on its own: nothing left for the exit hook to kill.
  void ended.then(() => process.removeListener('exit', killOnExit));
  return {
    address,
    uiUrl,
    pid: child.pid ?? -1,
    exited: ended.then((end) => ({ ...end, stopped: stopping !== null })),
    stop() {
      stopping ??= (async () => {
        process.removeListener('exit', killOnExit);
        await removeServerRecord(options.dataDir);
        if (child.exitCode !== null || child.signalCode !== null) return;
        signalGroup('SIGTERM');
        const timer = setTimeout(() => signalGroup('SIGKILL'), STOP_GRACE_MS);
        await exited;
        clearTimeout(timer);
      })();
      return stopping;
    },
  };
}

/** Ready = the frontend answers and lists every custom search attribute. */
async function waitUntilReady(
  address: string,
  exited: Promise<number | null>,
  timeoutMs: number,
  stderr: () => string,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let exitCode: number | undefined;
  void exited.then((code) => (exitCode = code ?? -1));
  let lastError = '';
  while (Date.now() < deadline) {
    if (exitCode !== undefined) throw new ServerExitedEarly(exitCode, stderr());
    try {
      const connection = await Connection.connect({ address, connectTimeout: 1000 });
      try {
        const response = await connection.operatorService.listSearchAttributes({
          namespace: 'default',
        });
        const known = Object.keys(response.customAttributes ?? {});
        if (CUSTOM_SEARCH_ATTRIBUTES.every((key) => known.includes(key.name))) return;
        lastError = 'search attributes not registered yet';
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(
    `temporal dev server on ${address} not ready after ${timeoutMs} ms: ${lastError}\n${stderr()}`,
  );
}

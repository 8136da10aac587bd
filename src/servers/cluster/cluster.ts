/**
 * The cluster profile: a real Temporal cluster on this machine, as users run one beyond a single
 * machine, under `<data dir>/cluster/`:
 *
 *   PostgreSQL (src/servers/cluster/postgres.ts) -> schemas set up and updated by the pinned SQL tool ->
 *   history, matching, frontend and worker as four server processes (each can be killed alone)
 *   -> the `default` namespace and deputy's search attributes -> the Temporal UI.
 *
 * The ports are chosen at first start and kept in `cluster.json` with the processes' pids, so a
 * restarted cluster keeps its address and `deputy cluster stop|status` in another process finds
 * it. Workers, the API and `deputy dev` use it through TEMPORAL_ADDRESS, as any other cluster.
 */
import { execFile } from 'node:child_process';
import { createServer } from 'node:net';
import { existsSync } from 'node:fs';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { Connection } from '@temporalio/client';
import { msToTs } from '@temporalio/common/lib/time.js';
import proto from '@temporalio/proto';
import { CUSTOM_SEARCH_ATTRIBUTES } from '../../shared/workflow-contract/search-attributes.js';
import { ensureClusterTools, type ClusterTools } from './cluster-tools.js';
import {
  connectionUrl,
  queryPostgres,
  restartPostgres,
  sqlPassword,
  startPostgres,
  stopPostgres,
  SQL_USER,
  type PostgresInstance,
} from './postgres.js';
import {
  renderClusterConfig,
  SQL_PASSWORD_ENV,
  TEMPORAL_SERVICES,
  TUNED_DYNAMIC_CONFIG,
  type ClusterPorts,
  type RenderedConfig,
  type TemporalService,
} from './server-config.js';
import { processInfo } from '../process-info.js';
import { attachService, spawnService, type ServiceProcess } from './service-process.js';

const run = promisify(execFile);

/** gRPC status codes (the client SDK reports them as numbers). */
const NOT_FOUND = 5;
const ALREADY_EXISTS = 6;
const INVALID_ARGUMENT = 3;

/** The operator API's type of each of deputy's search attributes, from Temporal's own enum. */
const { IndexedValueType } = proto.temporal.api.enums.v1;
const INDEXED_VALUE_TYPES: Record<(typeof CUSTOM_SEARCH_ATTRIBUTES)[number]['type'], number> = {
  KEYWORD: IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD,
  INT: IndexedValueType.INDEXED_VALUE_TYPE_INT,
  DATETIME: IndexedValueType.INDEXED_VALUE_TYPE_DATETIME,
};

export const NAMESPACE = 'default';

export interface ClusterOptions {
  /** deputy's data directory: the cluster lives in `cluster/` inside it. */
  dataDir: string;
  /**
   * true (`deputy cluster start`): the processes outlive this one. false (tests, benches): they
   * die with it.
   */
  detached: boolean;
  /** Serve the Temporal UI. Default true. */
  ui?: boolean;
  /**
   * The dynamic config file. Default: deploy/temporal/dynamicconfig.yaml (tuned). The bench
   * passes an empty file to measure Temporal's defaults.
   */
  dynamicConfigFile?: string;
  /** Frontend gRPC port at first start; default a free port. */
  port?: number;
  log?: (line: string) => void;
}

export interface Cluster {
  address: string;
  uiUrl: string | null;
  clusterDir: string;
  /** The processes as they are now (a restart replaces one). */
  services(): Readonly<Record<TemporalService, ServiceProcess>>;
  postgres(): PostgresInstance;
  /** SIGKILL one service and wait until it is gone (a fault the tests inject). */
  killService(service: TemporalService): Promise<void>;
  /** Start a stopped or killed service again; resolves once the cluster answers. */
  startService(service: TemporalService): Promise<void>;
  /** Fast shutdown of PostgreSQL, `downMs` without it, then the same instance again. */
  restartPostgres(downMs?: number): Promise<void>;
  /** The URL of database `deputy` for the blob store (DEPUTY_BLOB_STORE_URL): a secret. */
  blobStoreUrl(): Promise<string>;
  stop(): Promise<void>;
}

/** What `cluster.json` keeps: ports and pids, never the password. */
interface ClusterRecord {
  ports: ClusterPorts;
  pids: Partial<Record<TemporalService | 'postgres' | 'ui', number>>;
}

/** Nothing new comes in (UI, worker, frontend), then matching and history; PostgreSQL last. */
const STOP_ORDER = ['ui', 'worker', 'frontend', 'matching', 'history'] as const;

const clusterDirOf = (dataDir: string): string => join(dataDir, 'cluster');
const recordPath = (clusterDir: string): string => join(clusterDir, 'cluster.json');
const logPath = (clusterDir: string, name: string): string =>
  join(clusterDir, 'logs', `${name}.log`);

async function readRecord(clusterDir: string): Promise<ClusterRecord | null> {
  try {
    return JSON.parse(await readFile(recordPath(clusterDir), 'utf8')) as ClusterRecord;
  } catch {
    return null;
  }
}

async function writeRecord(clusterDir: string, record: ClusterRecord): Promise<void> {
  await writeFile(recordPath(clusterDir), `${JSON.stringify(record, null, 2)}\n`);
}

/**
 * A free port below 32 768: Temporal keeps membership ports in a PostgreSQL `smallint`, so the
 * kernel's ephemeral ports (32 768 and up on Linux) fail at the first heartbeat.
 */
async function freeLowPort(taken: Set<number>): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt += 1) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    if (!taken.has(port) && (await portIsFree(port))) {
      taken.add(port);
      return port;
    }
  }
  throw new Error('found no free port between 20000 and 32000 for the cluster');
}

async function choosePorts(frontend: number | undefined): Promise<ClusterPorts> {
  const taken = new Set<number>(frontend === undefined ? [] : [frontend]);
  const freePort = () => freeLowPort(taken);
  const perService = async () => {
    const ports = {} as Record<TemporalService, number>;
    for (const service of TEMPORAL_SERVICES) ports[service] = await freePort();
    return ports;
  };
  const grpc = await perService();
  if (frontend !== undefined) grpc.frontend = frontend;
  return {
    postgres: await freePort(),
    ui: await freePort(),
    frontendHttp: await freePort(),
    grpc,
    membership: await perService(),
  };
}

export async function startCluster(options: ClusterOptions): Promise<Cluster> {
  const log = options.log ?? (() => {});
  const clusterDir = clusterDirOf(options.dataDir);
  await mkdir(join(clusterDir, 'logs'), { recursive: true });
  await refuseIfRunning(options.dataDir, clusterDir);
  const tools = await ensureClusterTools(process.env, log);
  const ports = await portsFor(clusterDir, options.port);
  const record: ClusterRecord = { ports, pids: {} };
  await writeRecord(clusterDir, record);

  const detached = options.detached;
  let postgres = await startPostgres(
    { directory: join(clusterDir, 'postgres'), port: ports.postgres },
    { detached, log },
  );
  record.pids.postgres = postgres.process.pid;
  await writeRecord(clusterDir, record);
  const password = await sqlPassword(postgres.directory);
  const services = {} as Record<TemporalService, ServiceProcess>;
  let ui: ServiceProcess | null = null;
  const stopAll = async (): Promise<void> => {
    for (const name of STOP_ORDER) await (name === 'ui' ? ui : services[name])?.stop();
    await stopPostgres(postgres);
    await forgetProcesses(clusterDir);
  };
  try {
    await setUpSchemas(tools, ports.postgres, password, log);
    const rendered = await renderClusterConfig(
      clusterDir,
      ports,
      options.dynamicConfigFile ?? TUNED_DYNAMIC_CONFIG,
    );
    const launch = (service: TemporalService): ServiceProcess =>
      launchService(tools, rendered, service, password, clusterDir, detached);
    // History first, alone: on a fresh database each service would write the cluster's metadata
    // row at start, and all but the first fail on the conflict and exit.
    for (const service of TEMPORAL_SERVICES) {
      services[service] = launch(service);
      record.pids[service] = services[service].pid;
      await writeRecord(clusterDir, record);
      if (service === 'history') await waitForClusterMetadata(postgres, services.history);
    }
    const address = `127.0.0.1:${ports.grpc.frontend}`;
    await waitUntilServing(address, services, log);
    if (options.ui ?? true) {
      ui = startUi(tools, rendered, clusterDir, detached);
      record.pids.ui = ui.pid;
      await writeRecord(clusterDir, record);
    }
    log(
      `cluster ready: frontend ${address}, ${TEMPORAL_SERVICES.length} services, PostgreSQL :${ports.postgres}`,
    );
    let stopping: Promise<void> | null = null;
    return {
      address,
      uiUrl: ui === null ? null : `http://127.0.0.1:${ports.ui}`,
      clusterDir,
      services: () => services,
      postgres: () => postgres,
      async killService(service) {
        await services[service].kill();
      },
      async startService(service) {
        services[service] = launch(service);
        record.pids[service] = services[service].pid;
        await writeRecord(clusterDir, record);
        await waitUntilServing(address, services, log);
      },
      async restartPostgres(downMs = 0) {
        postgres = await restartPostgres(postgres, { detached, downMs });
        record.pids.postgres = postgres.process.pid;
        await writeRecord(clusterDir, record);
      },
      blobStoreUrl: () => connectionUrl(postgres, 'deputy'),
      stop() {
        stopping ??= stopAll();
        return stopping;
      },
    };
  } catch (error) {
    await stopAll().catch(() => {});
    throw error;
  }
}

/** One cluster per data directory: a second start would fight the first over its ports. */
async function refuseIfRunning(dataDir: string, clusterDir: string): Promise<void> {
  const running = await clusterStatus(dataDir);
  if (running.state !== 'stopped') {
    throw new Error(
      `a cluster already runs in ${clusterDir} (${running.state}; frontend ${running.address}): stop it first with \`deputy cluster stop\``,
    );
  }
}

/**
 * The ports of the cluster: those it was created with (kept with its data), or new ones. Asking
 * for another frontend port than the data was created with is refused, not silently ignored.
 */
async function portsFor(clusterDir: string, port: number | undefined): Promise<ClusterPorts> {
  const previous = await readRecord(clusterDir);
  if (previous !== null && port !== undefined && port !== previous.ports.grpc.frontend) {
    throw new Error(
      `this cluster's frontend listens on ${previous.ports.grpc.frontend} (kept with its data in ${clusterDir}); start it without --port, or delete it with \`deputy cluster stop --remove\` to choose another`,
    );
  }
  return previous?.ports ?? (await choosePorts(port));
}

/** The Temporal UI server, on the rendered configuration. */
function startUi(
  tools: ClusterTools,
  rendered: RenderedConfig,
  clusterDir: string,
  detached: boolean,
): ServiceProcess {
  return spawnService(
    'ui',
    tools.uiServer,
    ['--root', rendered.uiRoot, '--config', 'config', '--env', 'development', 'start'],
    { logFile: logPath(clusterDir, 'ui'), detached },
  );
}

function launchService(
  tools: ClusterTools,
  rendered: RenderedConfig,
  service: TemporalService,
  password: string,
  clusterDir: string,
  detached: boolean,
): ServiceProcess {
  return spawnService(
    service,
    tools.server,
    [
      '--root',
      rendered.serverRoot,
      '--config',
      'config',
      '--env',
      'development',
      '--allow-no-auth',
      'start',
      '--service',
      service,
    ],
    {
      logFile: logPath(clusterDir, service),
      detached,
      env: { ...process.env, [SQL_PASSWORD_ENV]: password },
    },
  );
}

/**
 * Creates the schema version tables (a no-op once done) and updates both databases to the
 * newest versioned schema the pinned server ships: a fresh database and one made by an older
 * deputy end the same.
 */
async function setUpSchemas(
  tools: ClusterTools,
  port: number,
  password: string,
  log: (line: string) => void,
): Promise<void> {
  const env = {
    ...process.env,
    SQL_PLUGIN: 'postgres12',
    SQL_HOST: '127.0.0.1',
    SQL_PORT: String(port),
    SQL_USER,
    SQL_PASSWORD: password,
  };
  for (const [database, schema] of [
    ['temporal', 'temporal'],
    ['temporal_visibility', 'visibility'],
  ] as const) {
    const sql = (args: string[]) =>
      run(tools.sqlTool, ['--database', database, ...args], { env }).catch((error: unknown) => {
        const failure = error as { stderr?: string; message: string };
        throw new Error(
          `temporal-sql-tool ${args[0]} on ${database}: ${failure.stderr?.trim() || failure.message}`,
        );
      });
    await sql(['setup-schema', '-v', '0.0']).catch((error: Error) => {
      // Already set up: the version table exists. Anything else is a real failure.
      if (!/already exists/.test(error.message)) throw error;
    });
    await sql(['update-schema', '-d', join(tools.postgresSchema, schema, 'versioned')]);
    log(`schema ${schema} up to date in database ${database}`);
  }
}

async function waitForClusterMetadata(
  postgres: PostgresInstance,
  history: ServiceProcess,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (!history.running()) {
      throw new Error(`Temporal history exited at start:\n${await history.logTail()}`);
    }
    const rows = await queryPostgres(
      postgres,
      'SELECT count(*) FROM cluster_metadata_info;',
      'temporal',
    );
    if (Number(rows.trim()) > 0) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Temporal history wrote no cluster metadata within ${timeoutMs} ms`);
}

/**
 * Ready = the frontend answers for `default`, which has deputy's search attributes: registered
 * here when missing. Every step retries: history and matching join the membership ring a few
 * seconds after they start, and a new namespace reaches the frontend's cache within ~10 s.
 */
async function waitUntilServing(
  address: string,
  services: Record<TemporalService, ServiceProcess>,
  log: (line: string) => void,
  timeoutMs = 120_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    for (const service of TEMPORAL_SERVICES) {
      if (!services[service].running()) {
        throw new Error(
          `Temporal ${service} exited while the cluster started:\n${await services[service].logTail()}`,
        );
      }
    }
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        await ensureNamespace(connection, log);
        const missing = await missingSearchAttributes(connection);
        if (
          missing.length === 0 &&
          (await frontendMapsSearchAttributes(connection)) &&
          (await historyAndMatchingServe(connection))
        ) {
          return;
        }
        if (missing.length > 0) {
          await connection.operatorService.addSearchAttributes({
            namespace: NAMESPACE,
            searchAttributes: Object.fromEntries(
              missing.map((key) => [key.name, INDEXED_VALUE_TYPES[key.type]]),
            ),
          });
          log(`registered search attributes ${missing.map((key) => key.name).join(', ')}`);
        }
      } finally {
        await connection.close();
      }
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  throw new Error(`Temporal cluster on ${address} not ready after ${timeoutMs} ms: ${lastError}`);
}

async function ensureNamespace(connection: Connection, log: (line: string) => void): Promise<void> {
  try {
    await connection.workflowService.describeNamespace({ namespace: NAMESPACE });
    return;
  } catch (error) {
    if ((error as { code?: number }).code !== NOT_FOUND) throw error;
  }
  try {
    await connection.workflowService.registerNamespace({
      namespace: NAMESPACE,
      workflowExecutionRetentionPeriod: msToTs('3 days'),
    });
    log(`registered namespace ${NAMESPACE}`);
  } catch (error) {
    if ((error as { code?: number }).code !== ALREADY_EXISTS) throw error;
  }
  throw new Error(`namespace ${NAMESPACE} registered, not yet visible to the frontend`);
}

/**
 * The frontend alone answers namespace calls; a workflow lookup needs the history shard that owns
 * the id, and a task-queue description needs matching. Sixteen ids reach all four shards with
 * high probability; "not found" is the answer of a serving shard.
 */
async function historyAndMatchingServe(connection: Connection): Promise<boolean> {
  for (let probe = 0; probe < 16; probe += 1) {
    try {
      await connection.workflowService.describeWorkflowExecution({
        namespace: NAMESPACE,
        execution: { workflowId: `deputy-cluster-probe-${probe}-${Date.now()}` },
      });
    } catch (error) {
      if ((error as { code?: number }).code !== NOT_FOUND) throw error;
    }
  }
  await connection.workflowService.describeTaskQueue({
    namespace: NAMESPACE,
    taskQueue: { name: 'deputy-cluster-probe' },
  });
  return true;
}

/**
 * The operator service lists an attribute as soon as it is stored, but the frontend maps names to
 * columns from its namespace cache, refreshed every ~10 s: until then a start naming the attribute
 * fails ("no mapping defined for search attribute"). A count query naming every attribute goes
 * through the same mapping without writing anything.
 */
async function frontendMapsSearchAttributes(connection: Connection): Promise<boolean> {
  const probe = { KEYWORD: "'probe'", INT: '0', DATETIME: "'1970-01-01T00:00:00Z'" } as const;
  try {
    await connection.workflowService.countWorkflowExecutions({
      namespace: NAMESPACE,
      query: CUSTOM_SEARCH_ATTRIBUTES.map((key) => `${key.name} = ${probe[key.type]}`).join(
        ' AND ',
      ),
    });
    return true;
  } catch (error) {
    if ((error as { code?: number }).code === INVALID_ARGUMENT) return false;
    throw error;
  }
}

async function missingSearchAttributes(connection: Connection) {
  const response = await connection.operatorService.listSearchAttributes({
    namespace: NAMESPACE,
  });
  const known = Object.keys(response.customAttributes ?? {});
  return CUSTOM_SEARCH_ATTRIBUTES.filter((key) => !known.includes(key.name));
}

export type ClusterStatus =
  | { state: 'stopped' }
  | {
      state: 'running' | 'degraded';
      address: string;
      uiUrl: string | null;
      processes: Record<string, { pid: number; running: boolean }>;
    };

/** What runs of the cluster in `dataDir`, from its record and the pids in it. */
export async function clusterStatus(dataDir: string): Promise<ClusterStatus> {
  const clusterDir = clusterDirOf(dataDir);
  const record = await readRecord(clusterDir);
  if (record === null || Object.keys(record.pids).length === 0) return { state: 'stopped' };
  const processes = Object.fromEntries(
    Object.entries(record.pids).map(([name, pid]) => [
      name,
      { pid, running: processInfo(pid).state !== 'gone' },
    ]),
  );
  const alive = Object.values(processes).filter((entry) => entry.running).length;
  if (alive === 0) return { state: 'stopped' };
  return {
    state: alive === Object.keys(processes).length ? 'running' : 'degraded',
    address: `127.0.0.1:${record.ports.grpc.frontend}`,
    uiUrl: record.pids.ui === undefined ? null : `http://127.0.0.1:${record.ports.ui}`,
    processes,
  };
}

/** DEPUTY_BLOB_STORE_URL of the cluster in `dataDir` (a secret), for `deputy cluster env`. */
export async function clusterBlobStoreUrl(dataDir: string): Promise<string> {
  const clusterDir = clusterDirOf(dataDir);
  const record = await readRecord(clusterDir);
  if (record === null) throw new Error(`no cluster in ${clusterDir}: start one first`);
  return connectionUrl(
    { directory: join(clusterDir, 'postgres'), port: record.ports.postgres },
    'deputy',
  );
}

/** Stops a cluster started by another process (`deputy cluster stop`). */
export async function stopCluster(dataDir: string): Promise<boolean> {
  const clusterDir = clusterDirOf(dataDir);
  const record = await readRecord(clusterDir);
  if (record === null || Object.keys(record.pids).length === 0) return false;
  for (const name of STOP_ORDER) {
    const pid = record.pids[name];
    if (pid !== undefined) await attachService(name, pid, logPath(clusterDir, name)).stop();
  }
  if (record.pids.postgres !== undefined) {
    await attachService('postgres', record.pids.postgres, logPath(clusterDir, 'postgres')).stop(
      'SIGINT',
    );
  }
  await forgetProcesses(clusterDir);
  return true;
}

/**
 * Stopped: no pids. The ports stay in the record, so the next start keeps the address that
 * workers and the API were given.
 */
async function forgetProcesses(clusterDir: string): Promise<void> {
  const record = await readRecord(clusterDir);
  if (record !== null) await writeRecord(clusterDir, { ...record, pids: {} });
}

/** `rm -rf` of the cluster's state (PostgreSQL data included); it must be stopped. */
export async function removeCluster(dataDir: string): Promise<void> {
  if ((await clusterStatus(dataDir)).state !== 'stopped') {
    throw new Error('the cluster is running: stop it before removing its data');
  }
  const clusterDir = clusterDirOf(dataDir);
  if (existsSync(clusterDir)) await rm(clusterDir, { recursive: true, force: true });
}

function portIsFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

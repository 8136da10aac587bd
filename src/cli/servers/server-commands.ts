/** Long-running commands: worker, api, and dev (Temporal dev server + worker + API in one). */
import type { Command } from 'commander';
import type { LiveConfig } from '../../config/live-config.js';
import type { McpRuntime } from '../../mcp-client/mcp-runtime.js';
import type { ApiServer } from '../../server.js';
import type { SupervisedDevServer } from '../../servers/dev/supervised-dev-server.js';
import { configFor, printConfigWarnings } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { Run } from '../exit-codes.js';
import type { Io } from '../io.js';
import type { WorkerRuntime } from '../../worker/worker.js';

/** The worker pulls in the native bridge and the bundler: load it only for commands that run one. */
async function startWorkerRuntime(
  settings: LiveConfig,
  address: string,
  io: Io,
): Promise<WorkerRuntime> {
  const { quietTemporalRuntime } = await import('./temporal-logging.js');
  const { liveSecretMasker } = await import('../../secrets/live-masker.js');
  const masker = liveSecretMasker(settings);
  const { metricsSettings } = await import('../../metrics/settings.js');
  const metrics = metricsSettings(settings.current());
  quietTemporalRuntime(masker, metrics.enabled ? metrics.temporalAddress : null);
  const worker = await import('../../worker/worker.js');
  // MCP news (a server connected, lost, or held back until a person approves it) is the
  // operator's to see; the lines name servers and reasons, and are masked all the same.
  return worker.startWorkerRuntime(settings, address, {
    log: (line) => io.err(`mcp: ${masker.text(line)}`),
  });
}

/** Which queues a worker runtime serves, for its start line. */
function queuesLine(worker: WorkerRuntime): string {
  const { taskQueue, toolQueue } = worker.queues;
  const shared = `task queue ${taskQueue} (workflows and activities)`;
  return toolQueue === null
    ? shared
    : `${shared} and tool queue ${toolQueue} (this workspace's activities)`;
}

/** Settles on the first SIGINT or SIGTERM. */
export function untilSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const handler = (signal: NodeJS.Signals) => {
      process.off('SIGINT', handler);
      process.off('SIGTERM', handler);
      resolve(signal);
    };
    process.on('SIGINT', handler);
    process.on('SIGTERM', handler);
  });
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${value} is not a TCP port`);
  }
  return port;
}

/**
 * A worker's graceful stop ends with a call to Temporal that waits 30 s for a server that is gone;
 * once deputy's own server could not be kept running there is nothing left to finish gracefully.
 */
const WORKER_STOP_WITHOUT_TEMPORAL_MS = 5_000;

/** Waits for `stopping` at most `ms`; `late` says so when it takes longer. */
async function stopWithin(stopping: Promise<void>, ms: number, late: () => void): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const timedOut = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), ms);
  });
  const outcome = await Promise.race([stopping.then(() => 'stopped' as const), timedOut]);
  clearTimeout(timer);
  if (outcome === 'late') late();
}

/** Stops everything started so far, newest first; every step runs even if one fails. */
async function stopAll(io: Io, steps: Array<[string, () => Promise<void>]>): Promise<void> {
  for (const [name, stop] of steps.reverse()) {
    try {
      await stop();
    } catch (error) {
      io.err(`stopping ${name} failed: ${(error as Error).message}`);
    }
  }
}

/**
 * @param mcp the process's MCP clients when it has some (`deputy dev`: the worker's, so each
 *   server has one client in the process); without them the API makes its own for its status
 *   routes, connects them in the background and closes them with the server.
 */
/** The Temporal UI the console links to when deputy did not start the server itself. */
function temporalUiFromEnv(): string | null {
  return process.env.DEPUTY_TEMPORAL_UI_URL?.trim() || null;
}

async function startApi(
  settings: LiveConfig,
  io: Io,
  mcp?: McpRuntime,
  temporalUi: string | null = temporalUiFromEnv(),
): Promise<{ server: ApiServer; close(): Promise<void> }> {
  const config = settings.current();
  // The HTTP server and the Temporal client are loaded only by the commands that run them.
  const [
    { startApiServer },
    { connectTemporal },
    { facadesFor },
    { liveSecretMasker },
    { definitionSecretSource },
  ] = await Promise.all([
    import('../../server.js'),
    import('../../temporal/connection.js'),
    import('../../temporal/facades.js'),
    import('../../secrets/live-masker.js'),
    import('../../secrets/definition-secrets.js'),
  ]);
  const temporal = await connectTemporal(config);
  // `deputy_delegations{status}` of GET /metrics: counted in visibility at scrape time.
  const { watchDelegationCounts } = await import('../../temporal/delegation-counts.js');
  const unwatchCounts = watchDelegationCounts(temporal.client, config.temporal.namespace);
  // The API checks agent names against the same definitions the worker resolves (kept live).
  const { createRegistry } = await import('../../definitions/registry/registry.js');
  // Saves check model handles against the catalog as it is now (the configuration is watched).
  const registry = createRegistry({ config, models: () => settings.current().models });
  let own: McpRuntime | undefined;
  try {
    await registry.load();
    if (mcp === undefined) {
      const { createMcpRuntime } = await import('../../mcp-client/mcp-runtime.js');
      own = createMcpRuntime({ settings, definitions: registry });
      own.connectAll();
    }
    const ownRuntime = own;
    await registry.watch(ownRuntime === undefined ? undefined : () => ownRuntime.connectAll());
    // Decisions are masked with what the API masks its answers with: every configuration seen
    // and the definitions' inline secrets.
    const secrets = liveSecretMasker(settings, process.env, definitionSecretSource(registry));
    const { delegations, sessions, schedules } = facadesFor(
      temporal.client,
      config.temporal,
      secrets,
    );
    const server = await startApiServer(config, {
      settings,
      delegations,
      sessions,
      schedules,
      definitions: registry,
      mcp: mcp ?? own,
      console: { temporalUi },
      allowUnauthenticatedBind: process.env.DEPUTY_ALLOW_UNAUTHENTICATED_BIND === '1',
      logger: {
        error: (message, error) =>
          io.err(`${message}: ${(error as Error)?.stack ?? String(error)}`),
        warn: (message) => io.err(`warning: ${message}`),
        info: (message) => io.err(message),
      },
    });
    return {
      server,
      close: async () => {
        unwatchCounts();
        await server.close();
        await registry.close();
        await own?.close();
        await temporal.close();
      },
    };
  } catch (error) {
    unwatchCounts();
    await registry.close();
    await own?.close();
    await temporal.close();
    throw error;
  }
}

// eslint-disable-next-line max-lines-per-function -- a register* table: one entry per command, each short.
export function registerServerCommands(
  program: Command,
  run: (command: Command, body: Run) => Promise<void>,
): void {
  program
    .command('worker')
    .description('run a worker on the delegation task queue until SIGINT/SIGTERM')
    .action(async (_options: unknown, command: Command) =>
      run(command, async (io): Promise<ExitCode> => {
        const config = await configFor(command);
        // `api` and `dev` print them from the API server, with its auth warnings.
        printConfigWarnings(config, io);
        const { temporalAddress } = await import('../../temporal/connection.js');
        const address = temporalAddress(config);
        const settings = await (await import('../watch-settings.js')).watchSettings(config, io);
        try {
          const worker = await startWorkerRuntime(settings, address, io);
          io.err(
            `worker polling ${address} (workspace ${config.workspace}) on ${queuesLine(worker)}; Ctrl-C stops it`,
          );
          if (worker.metricsUrl !== null) io.err(`worker metrics on ${worker.metricsUrl}`);
          const outcome = await Promise.race([
            untilSignal(),
            worker.done.then(() => 'done' as const),
          ]);
          await worker.stop();
          return outcome === 'done' ? EXIT.failed : EXIT.ok;
        } finally {
          await settings.close();
        }
      }),
    );

  program
    .command('api')
    .description('run the HTTP API only (needs a worker somewhere)')
    .option('--port <port>', 'API port (env DEPUTY_PORT)', parsePort)
    .action(async (options: { port?: number }, command: Command) =>
      run(command, async (io): Promise<ExitCode> => {
        const config = await configFor(
          command,
          options.port === undefined ? {} : { port: options.port },
        );
        const settings = await (await import('../watch-settings.js')).watchSettings(config, io);
        try {
          const api = await startApi(settings, io);
          io.out(`deputy API on ${api.server.url}  (console: ${api.server.url}/)`);
          await untilSignal();
          await api.close();
          return EXIT.ok;
        } finally {
          await settings.close();
        }
      }),
    );

  program
    .command('dev')
    .description(
      'Temporal dev server (unless TEMPORAL_ADDRESS is set), a worker and the API, in one process',
    )
    .option('--port <port>', 'API port (env DEPUTY_PORT)', parsePort)
    .option('--temporal-port <port>', 'Temporal gRPC port (default: a free port)', parsePort)
    .option('--ui-port <port>', 'Temporal UI port (default: a free port)', parsePort)
    .option('--data-dir <dir>', 'data directory (env DEPUTY_DATA_DIR)')
    .option('--workspace <dir>', 'workspace (env DEPUTY_WORKSPACE)')
    .action(
      async (
        options: {
          port?: number;
          temporalPort?: number;
          uiPort?: number;
          dataDir?: string;
          workspace?: string;
        },
        command: Command,
      ) =>
        run(command, async (io): Promise<ExitCode> => {
          const config = await configFor(command, {
            ...(options.port === undefined ? {} : { port: options.port }),
            ...(options.dataDir === undefined ? {} : { dataDir: options.dataDir }),
            ...(options.workspace === undefined ? {} : { workspace: options.workspace }),
          });
          const started: Array<[string, () => Promise<void>]> = [];
          const stop = () => stopAll(io, started);
          try {
            // One watcher for the worker and the API: both see the same edit at the same time.
            const settings = await (await import('../watch-settings.js')).watchSettings(config, io);
            started.push(['configuration watcher', () => settings.close()]);
            let uiUrl: string | null = null;
            let address: string;
            // Settles when deputy's own dev server died and could not be kept running.
            let serverFailed: Promise<Error> = new Promise(() => {});
            let temporalGone = false;
            if (config.temporal.address) {
              io.err(`using Temporal at ${config.temporal.address} (TEMPORAL_ADDRESS)`);
              address = config.temporal.address;
            } else {
              // Always a server of its own, which it stops on the way out: one recorded by
              // another deputy is refused if that deputy still runs it, stopped if not
              // (src/servers/dev/server-takeover.ts), never adopted.
              io.err(
                'starting the Temporal dev server (first run may install the temporal CLI)...',
              );
              const { startSupervisedDevServer } =
                await import('../../servers/dev/supervised-dev-server.js');
              const server: SupervisedDevServer = await startSupervisedDevServer({
                dataDir: config.dataDir,
                ...(options.temporalPort === undefined ? {} : { port: options.temporalPort }),
                ...(options.uiPort === undefined ? {} : { uiPort: options.uiPort }),
                log: (line) => io.err(line),
              });
              started.push(['Temporal dev server', () => server.stop()]);
              uiUrl = server.uiUrl;
              address = server.address;
              serverFailed = server.failed.then((reason) => {
                temporalGone = true;
                return reason;
              });
            }
            const worker: WorkerRuntime = await startWorkerRuntime(settings, address, io);
            started.push([
              'worker',
              () =>
                temporalGone
                  ? stopWithin(worker.stop(), WORKER_STOP_WITHOUT_TEMPORAL_MS, () =>
                      io.err(
                        `the worker did not stop within ${WORKER_STOP_WITHOUT_TEMPORAL_MS / 1000} s without Temporal; leaving it to the exit`,
                      ),
                    )
                  : worker.stop(),
            ]);
            const api = await startApi(settings, io, worker.mcp, uiUrl ?? temporalUiFromEnv());
            started.push(['API server', () => api.close()]);

            io.out(`console:      ${api.server.url}/`);
            io.out(`deputy API:   ${api.server.url}  (OpenAPI: ${api.server.url}/openapi.json)`);
            io.out(`Temporal:     ${address}${uiUrl ? `  UI: ${uiUrl}` : ''}`);
            if (api.server.socket !== null) io.out(`CLI socket:   ${api.server.socket}`);
            io.out(`workspace:    ${config.workspace}`);
            io.out(`worker:       ${queuesLine(worker)}`);
            io.out(
              'try the demo: deputy delegate demo "Greet the workspace"   (then: deputy cards / deputy approve <id>)',
            );
            io.out('Ctrl-C stops everything.');

            const outcome = await Promise.race([
              untilSignal(),
              worker.done.then(() => 'worker-ended' as const),
              serverFailed,
            ]);
            io.err(
              outcome instanceof Error
                ? `${outcome.message}; shutting down`
                : outcome === 'worker-ended'
                  ? 'the worker stopped; shutting down'
                  : 'shutting down...',
            );
            await stop();
            return outcome === 'SIGINT' || outcome === 'SIGTERM' ? EXIT.ok : EXIT.failed;
          } catch (error) {
            await stop();
            throw error;
          }
        }),
    );
}

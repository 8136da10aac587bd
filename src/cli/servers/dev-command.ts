/**
 * `deputy dev`: the Temporal dev server (unless TEMPORAL_ADDRESS is set), a worker and the API in
 * one process, stopped together.
 */
import type { Command } from 'commander';
import type { SupervisedDevServer } from '../../servers/dev/supervised-dev-server.js';
import type { WorkerRuntime } from '../../worker/worker.js';
import { configFor } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { Io } from '../io.js';
import { startApi, temporalUiFromEnv } from './api-runtime.js';
import { untilSignal } from './signals.js';
import { queuesLine, startWorkerRuntime } from './worker-runtime.js';

export interface DevOptions {
  port?: number;
  temporalPort?: number;
  uiPort?: number;
  dataDir?: string;
  workspace?: string;
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

export async function runDev(command: Command, io: Io, options: DevOptions): Promise<ExitCode> {
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
      io.err('starting the Temporal dev server (first run may install the temporal CLI)...');
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
}

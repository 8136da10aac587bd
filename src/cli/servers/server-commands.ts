/** Long-running commands: worker, api, and dev (Temporal dev server + worker + API in one). */
import type { Command } from 'commander';
import { configFor, printConfigWarnings } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { Run } from '../exit-codes.js';
import { startApi } from './api-runtime.js';
import { runDev, type DevOptions } from './dev-command.js';
import { untilSignal } from './signals.js';
import { queuesLine, startWorkerRuntime } from './worker-runtime.js';

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`${value} is not a TCP port`);
  }
  return port;
}

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
    .action(async (options: DevOptions, command: Command) =>
      run(command, (io) => runDev(command, io, options)),
    );
}

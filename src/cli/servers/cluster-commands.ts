/**
 * `deputy cluster start|stop|status|env`: the cluster profile (src/servers/cluster/cluster.ts), a real
 * Temporal cluster on PostgreSQL under the data directory.
 */
import type { Command } from 'commander';
import type * as ClusterProfile from '../../servers/cluster/cluster.js';
import type { Cluster } from '../../servers/cluster/cluster.js';
import { join } from 'node:path';
import { configFor } from '../context.js';
import { EXIT, type ExitCode } from '../exit-codes.js';
import type { Run } from '../exit-codes.js';
import { printJson, type Io } from '../io.js';

/** The cluster profile's code, loaded by the cluster commands alone (not by `--help`). */
function clusterProfile(): Promise<typeof ClusterProfile> {
  return import('../../servers/cluster/cluster.js');
}

function parsePort(value: string): number {
  const port = Number(value);
  if (!Number.isInteger(port) || port < 1 || port > 32767) {
    // Temporal keeps ports in a smallint column: 32767 is its ceiling.
    throw new Error(`${value} is not a port from 1 to 32767`);
  }
  return port;
}

function readyLines(io: Io, cluster: Pick<Cluster, 'address' | 'uiUrl' | 'clusterDir'>): void {
  io.out(`temporal:   ${cluster.address} (frontend; history, matching, worker run beside it)`);
  if (cluster.uiUrl !== null) io.out(`ui:         ${cluster.uiUrl}`);
  io.out(`data:       ${cluster.clusterDir}`);
  io.out(`use it:     export TEMPORAL_ADDRESS=${cluster.address}`);
  io.out(`blob store: eval "$(deputy cluster env)" also sets DEPUTY_BLOB_STORE_URL (a secret)`);
}

// eslint-disable-next-line max-lines-per-function -- a register* table: one entry per command, each short.
export function registerClusterCommands(
  program: Command,
  run: (command: Command, body: Run) => Promise<void>,
): void {
  const cluster = program
    .command('cluster')
    .description(
      'a Temporal cluster on PostgreSQL under the data directory: separate frontend, history, matching and worker processes',
    );

  cluster
    .command('start')
    .description('build (once) and start PostgreSQL, the four Temporal services and the UI')
    .option('--port <port>', 'frontend gRPC port at first start (default: a free one)', parsePort)
    .option('--no-ui', 'no Temporal UI')
    .option('--foreground', 'stay attached: Ctrl-C stops the cluster (what `npm run cluster` runs)')
    .action(
      async (options: { port?: number; ui: boolean; foreground?: boolean }, command: Command) =>
        run(command, async (io): Promise<ExitCode> => {
          const { dataDir } = await configFor(command);
          const started = await (
            await clusterProfile()
          ).startCluster({
            dataDir,
            detached: !options.foreground,
            ui: options.ui,
            ...(options.port === undefined ? {} : { port: options.port }),
            log: (line) => io.err(line),
          });
          readyLines(io, started);
          if (!options.foreground) {
            io.err('the cluster runs on; `deputy cluster stop` stops it');
            return EXIT.ok;
          }
          io.err('Ctrl-C stops the cluster');
          await new Promise<void>((resolve) => {
            process.once('SIGINT', () => resolve());
            process.once('SIGTERM', () => resolve());
          });
          io.err('stopping the cluster');
          await started.stop();
          return EXIT.ok;
        }),
    );

  cluster
    .command('stop')
    .description('stop the cluster (its data stays; `--remove` deletes it too)')
    .option('--remove', 'also delete its PostgreSQL data and configuration')
    .action(async (options: { remove?: boolean }, command: Command) =>
      run(command, async (io): Promise<ExitCode> => {
        const { dataDir } = await configFor(command);
        const stopped = await (await clusterProfile()).stopCluster(dataDir);
        io.err(stopped ? 'cluster stopped' : 'no cluster was running');
        if (options.remove) {
          await (await clusterProfile()).removeCluster(dataDir);
          io.err(`removed ${join(dataDir, 'cluster')}`);
        }
        return EXIT.ok;
      }),
    );

  cluster
    .command('status')
    .description('whether the cluster runs, its address, and each process')
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }, command: Command) =>
      run(command, async (io): Promise<ExitCode> => {
        const status = await (
          await clusterProfile()
        ).clusterStatus((await configFor(command)).dataDir);
        if (options.json) printJson(io, status);
        else if (status.state === 'stopped') io.out('stopped');
        else {
          io.out(`${status.state}: frontend ${status.address}`);
          if (status.uiUrl !== null) io.out(`ui: ${status.uiUrl}`);
          for (const [name, process] of Object.entries(status.processes)) {
            io.out(
              `  ${name.padEnd(9)} pid ${process.pid} ${process.running ? 'running' : 'GONE'}`,
            );
          }
        }
        return status.state === 'running' ? EXIT.ok : EXIT.unreachable;
      }),
    );

  cluster
    .command('env')
    .description(
      'shell lines for workers and the API: TEMPORAL_ADDRESS, DEPUTY_TEMPORAL_UI_URL and DEPUTY_BLOB_STORE_URL (holds the database password: for `eval`, not for logs)',
    )
    .action(async (_options: unknown, command: Command) =>
      run(command, async (io): Promise<ExitCode> => {
        const { dataDir } = await configFor(command);
        const status = await (await clusterProfile()).clusterStatus(dataDir);
        if (status.state === 'stopped') {
          io.err('no cluster is running: start one with `deputy cluster start`');
          return EXIT.unreachable;
        }
        const url = await (await clusterProfile()).clusterBlobStoreUrl(dataDir);
        io.out(`export TEMPORAL_ADDRESS=${status.address}`);
        // The console links each delegation to it.
        if (status.uiUrl !== null) io.out(`export DEPUTY_TEMPORAL_UI_URL=${status.uiUrl}`);
        io.out(`export DEPUTY_BLOB_STORE_URL='${url}'`);
        return EXIT.ok;
      }),
    );
}

/**
 * `deputy dev`'s Temporal dev server, kept running: one that dies on its own (a crash, an OOM
 * kill, a stray `kill -9`) is started again on the same port and SQLite file, so the worker and
 * the API reconnect by themselves and parked delegations go on where they were. A server that
 * keeps dying, or cannot be started again, is given up on: `failed` settles with the reason and
 * `deputy dev` stops everything rather than run a worker that retries forever against nothing.
 * A server stopped through stop() (Ctrl-C) is never restarted.
 */
import {
  startDevServer,
  type DevServer,
  type DevServerExit,
  type DevServerOptions,
} from './dev-server.js';
import { removeServerRecord } from './server-record.js';

export interface SupervisedDevServerOptions extends DevServerOptions {
  /** Deaths within `windowMs` that make it give up instead of restarting. Default 3. */
  maxDeaths?: number;
  /** Milliseconds over which deaths are counted. Default 60 000. */
  windowMs?: number;
}

export interface SupervisedDevServer {
  /** Stays the same across restarts: the port is kept. */
  readonly address: string;
  readonly uiUrl: string | null;
  /** The pid of the server process running now. */
  pid(): number;
  /** Settles with why it gave up; never settles while it runs or after stop(). */
  readonly failed: Promise<Error>;
  stop(): Promise<void>;
}

/** How a process ended, as a person reads it. */
export function describeExit(exit: Pick<DevServerExit, 'code' | 'signal'>): string {
  return exit.signal === null ? `exit code ${exit.code ?? 'unknown'}` : `signal ${exit.signal}`;
}

/** Deaths counted over a sliding window: `record()` says whether one more is still allowed. */
export class DeathBudget {
  readonly #times: number[] = [];

  constructor(
    readonly maxDeaths: number,
    readonly windowMs: number,
  ) {}

  /** Counts a death at `now`; false once `maxDeaths` fall within the window. */
  record(now: number): boolean {
    this.#times.push(now);
    while (this.#times.length > 0 && now - this.#times[0]! >= this.windowMs) this.#times.shift();
    return this.#times.length < this.maxDeaths;
  }
}

/** An error's first two non-empty lines: a failed start's second one is the server's reason. */
function summary(error: unknown): string {
  const lines = String((error as Error).message ?? error)
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  return lines.slice(0, 2).join(' ');
}

/** The port ending `127.0.0.1:7233` or `http://127.0.0.1:8233`. */
function portOf(address: string): number {
  return Number(address.slice(address.lastIndexOf(':') + 1));
}

export async function startSupervisedDevServer(
  options: SupervisedDevServerOptions,
): Promise<SupervisedDevServer> {
  const log = options.log ?? (() => {});
  const windowMs = options.windowMs ?? 60_000;
  const budget = new DeathBudget(options.maxDeaths ?? 3, windowMs);
  let server: DevServer = await startDevServer(options);
  // Restarts take the ports the first start chose: the worker's and the API's connections, the
  // server record the CLI reads and the console's UI link all name them.
  const sameAddress: DevServerOptions = {
    ...options,
    port: portOf(server.address),
    ...(server.uiUrl === null ? {} : { uiPort: portOf(server.uiUrl) }),
  };
  let stopped = false;
  let restarting: Promise<void> | null = null;
  let giveUp!: (reason: Error) => void;
  const failed = new Promise<Error>((resolve) => (giveUp = resolve));

  const fail = async (reason: string): Promise<void> => {
    // The dead server's record would send the CLI to a port nothing answers on.
    await removeServerRecord(options.dataDir).catch(() => undefined);
    giveUp(new Error(reason));
  };

  const watch = (current: DevServer): void => {
    void current.exited.then((exit) => {
      if (exit.stopped || stopped) return;
      const how = describeExit(exit);
      if (!budget.record(Date.now())) {
        log(`the Temporal dev server (pid ${current.pid}) died (${how})`);
        return void fail(
          `the Temporal dev server died ${budget.maxDeaths} times within ${windowMs / 1000} s (last: ${how}); giving up`,
        );
      }
      log(
        `the Temporal dev server (pid ${current.pid}) died (${how}); restarting it on ${current.address} with the same database`,
      );
      restarting = (async () => {
        try {
          server = await startDevServer(sameAddress);
        } catch (error) {
          return fail(`the Temporal dev server could not be restarted: ${summary(error)}`);
        } finally {
          restarting = null;
        }
        if (stopped) return server.stop();
        log(`the Temporal dev server is running again (pid ${server.pid})`);
        watch(server);
      })();
    });
  };
  watch(server);

  return {
    address: server.address,
    uiUrl: server.uiUrl,
    pid: () => server.pid,
    failed,
    async stop() {
      stopped = true;
      // A restart under way finishes first and then stops what it started.
      if (restarting !== null) await restarting;
      await server.stop();
    },
  };
}

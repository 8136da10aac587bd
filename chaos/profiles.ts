/**
 * How much each profile runs. `short` is what CI runs: about three minutes on a two-core
 * machine, dev-server start included, with every scenario running side by side. `long` gives
 * the figures the issue asks for (100 killed runs, 10 restarts, 1,000 decided delegations).
 */
import type { DecisionsOptions } from './scenarios/decisions.js';
import type { GracefulOptions } from './scenarios/graceful-shutdown.js';
import type { ServerRestartOptions } from './scenarios/server-restart.js';
import type { TwoWorkersOptions } from './scenarios/two-workers.js';
import type { WorkerKillOptions } from './scenarios/worker-kill.js';

export interface Profile {
  /** Run the scenarios side by side (each on its own task queue) rather than one by one. */
  parallel: boolean;
  kill: WorkerKillOptions;
  restart: ServerRestartOptions;
  decisions: DecisionsOptions;
  twoWorkers: TwoWorkersOptions;
  graceful: GracefulOptions;
}

export const PROFILES: Record<string, Profile> = {
  short: {
    parallel: true,
    kill: {
      runs: 16,
      wave: 16,
      workers: 2,
      plantedKills: 2,
      timedKills: 1,
      killWindowMs: 6_000,
      waveTimeoutMs: 150_000,
    },
    restart: { restarts: 2, parked: 4 },
    decisions: { runs: 30, raceShare: 0.4, terminalTimeoutMs: 90_000 },
    twoWorkers: { runs: 8 },
    graceful: { runs: 2, toolSeconds: 3 },
  },
  long: {
    parallel: false,
    kill: {
      runs: 100,
      wave: 25,
      workers: 2,
      plantedKills: 3,
      timedKills: 2,
      killWindowMs: 10_000,
      waveTimeoutMs: 240_000,
    },
    restart: { restarts: 10, parked: 10 },
    decisions: { runs: 1000, raceShare: 0.4, terminalTimeoutMs: 180_000 },
    twoWorkers: { runs: 40 },
    graceful: { runs: 6, toolSeconds: 3 },
  },
};

import { defineConfig } from 'vitest/config';

const temporalSuites = ['test/integration/**/*.test.ts', 'test/e2e/**/*.test.ts'];
// The web console in a real Chromium against a real `deputy dev` (test/browser/support).
const browserSuites = ['test/browser/**/*.test.ts'];
// On the cluster profile (`npm run test:cluster`): the cluster's own faults, and the durability,
// card, workspace-affinity and schedule suites again, on a cluster instead of the dev server.
const clusterSuites = ['test/cluster/**/*.test.ts'];
// A real model in the loop (`npm run smoke:model`): the local model or DEPUTY_SMOKE_MODEL's.
const smokeSuites = ['test/smoke/**/*.smoke.test.ts'];
/** Every project's: the loaded mode (DEPUTY_TEST_LOAD=1), off unless asked for. */
const loadSetup = 'test/load-setup.ts';
/** deputy compiled into `dist/` once per run, for the suites that start it as a child process. */
const compiledBuild = 'test/compiled-build.ts';
/**
 * A worker the suite SIGKILLs leaves its cached runs on its sticky queue until this passes, then
 * Temporal gives them to any worker: 2 s instead of Temporal's 10 s in every crash test. Child
 * processes (crash-test workers, `deputy dev`) inherit it from the test's environment.
 */
const testEnv = {
  DEPUTY_WORKER_STICKY_QUEUE_SCHEDULE_TO_START_TIMEOUT_SECONDS: '2',
  // `deputy` children (bin/deputy.mjs) run the compiled `dist/` that compiledBuild wrote.
  DEPUTY_COMPILED: '1',
};
const rerunOnCluster = [
  'test/integration/durability.test.ts',
  'test/integration/cards-without-worker.test.ts',
  'test/integration/cards-inbox.test.ts',
  'test/integration/card-deadlines.test.ts',
  'test/integration/workspace-affinity.test.ts',
  'test/integration/schedules.test.ts',
];

export default defineConfig({
  test: {
    // Temporal's native bridge is not safe to load in worker threads; forks isolate it.
    pool: 'forks',
    // The integration suites mostly wait (on Temporal, workers, child processes), so twice as many
    // forks as a 2-core machine's default keep both cores busy (96% over a whole quiet run).
    maxWorkers: 4,
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/**/*.test.ts'],
          // The unit files share their forks' module cache instead of importing deputy afresh
          // each: it halves the project's time (import was most of it), and they hold no
          // process-wide state a file leaves behind.
          isolate: false,
          globalSetup: [loadSetup],
          exclude: [...temporalSuites, ...browserSuites, ...clusterSuites, ...smokeSuites],
        },
      },
      {
        extends: true,
        test: {
          name: 'temporal',
          include: temporalSuites,
          // One real Temporal dev server for the whole run (see test/global-setup.ts).
          globalSetup: [loadSetup, compiledBuild, 'test/global-setup.ts'],
          env: testEnv,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: browserSuites,
          // After the others, on a Temporal dev server of its own: each file runs a `deputy dev`
          // and a Chromium, and beside the integration suites on 2 cores that load made other
          // suites' Temporal calls miss their deadlines.
          sequence: { groupOrder: 1 },
          globalSetup: [loadSetup, compiledBuild, 'test/global-setup.ts'],
          env: testEnv,
          testTimeout: 120_000,
          hookTimeout: 180_000,
        },
      },
      // Only when asked for: building the cluster's server takes minutes on a cold machine.
      ...(process.env.DEPUTY_TEST_PROFILE === 'cluster'
        ? [
            {
              extends: true as const,
              test: {
                name: 'cluster',
                include: [...clusterSuites, ...rerunOnCluster],
                globalSetup: [loadSetup, compiledBuild, 'test/global-setup.ts'],
                env: testEnv,
                testTimeout: 240_000,
                hookTimeout: 600_000,
              },
            },
          ]
        : []),
      // Only when asked for (`npm run smoke:model`): it installs a 1 GB model on first use and
      // runs it on the CPU for minutes.
      ...(process.env.DEPUTY_TEST_PROFILE === 'smoke'
        ? [
            {
              extends: true as const,
              test: {
                name: 'smoke',
                include: smokeSuites,
                // Temporal first (test/global-setup.ts), then the model it needs.
                globalSetup: [compiledBuild, 'test/global-setup.ts', 'test/smoke/model-setup.ts'],
                // One model server answers one request at a time: checks run one after another.
                fileParallelism: false,
                testTimeout: 300_000,
                hookTimeout: 180_000,
              },
            },
          ]
        : []),
    ],
    testTimeout: 30_000,
  },
});

/**
 * One real Temporal server for each project that needs one, read by tests with
 * `inject('temporalAddress')`:
 * - `temporal` and `browser`: a dev server started the way `deputy dev` starts it (installing
 *   the CLI when missing);
 * - `cluster` (`npm run test:cluster`): the cluster profile (src/cluster), PostgreSQL and four
 *   Temporal service processes, as `deputy cluster start` runs it (building the server once).
 * Set TEMPORAL_ADDRESS to run the suites against another server.
 */
import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { buildConsole as buildConsoleIfStale } from '../web/build.js';
import { startCluster } from '../src/servers/cluster/cluster.js';
import { startDevServer } from '../src/servers/dev/dev-server.js';
import { CHROMIUM } from './browser/support/chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    /** What serves it: tests that restart the dev server itself run only on their own. */
    temporalProfile: 'dev-server' | 'cluster' | 'external';
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.name === 'browser') await buildConsole();
  if (process.env.TEMPORAL_ADDRESS) {
    project.provide('temporalAddress', process.env.TEMPORAL_ADDRESS);
    project.provide('temporalProfile', 'external');
    return async () => {};
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'deputy-test-temporal-'));
  // The cluster's PostgreSQL runs as user postgres when we are root: it must enter this folder.
  await chmod(dataDir, 0o755);
  const server =
    project.name === 'cluster'
      ? await startCluster({
          dataDir,
          detached: false,
          ui: false,
          log: (line) => process.stderr.write(`[cluster] ${line}\n`),
        })
      : await startDevServer({ dataDir, headless: true });
  project.provide('temporalAddress', server.address);
  project.provide('temporalProfile', project.name === 'cluster' ? 'cluster' : 'dev-server');
  return async () => {
    await server.stop();
    await rm(dataDir, { recursive: true, force: true });
  };
}

/**
 * The browser suite (test/browser) drives the console as `deputy dev` serves it, so it is built
 * from the sources when they changed (2 s), never a stale web/dist. Without a Chromium the suite is
 * skipped, and this says so where nobody can miss it.
 */
async function buildConsole(): Promise<void> {
  await buildConsoleIfStale();
  if (CHROMIUM === null) {
    const line = '!'.repeat(78);
    process.stderr.write(
      `\n${line}\n!! THE BROWSER SUITE (test/browser) DID NOT RUN: no Chromium found.\n` +
        `!! Install Debian's chromium package (apt-get install chromium) or set DEPUTY_CHROMIUM.\n${line}\n\n`,
    );
  }
}

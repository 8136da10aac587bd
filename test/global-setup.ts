/**
 * One real Temporal dev server for each project that needs one (`temporal`, and `browser` after
 * it), started the same way `deputy dev` starts it (installing the CLI when missing). Tests read its address with
 * `inject('temporalAddress')`. Set TEMPORAL_ADDRESS to run the suites against another server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { buildConsole as buildConsoleIfStale } from '../web/build.js';
import { startDevServer } from '../src/temporal/dev-server.js';
import { CHROMIUM } from './browser/support/chromium.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.name === 'browser') await buildConsole();
  if (process.env.TEMPORAL_ADDRESS) {
    project.provide('temporalAddress', process.env.TEMPORAL_ADDRESS);
    return async () => {};
  }
  const dataDir = await mkdtemp(join(tmpdir(), 'deputy-test-temporal-'));
  const server = await startDevServer({ dataDir, headless: true });
  project.provide('temporalAddress', server.address);
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

/**
 * One real Temporal dev server for the whole `temporal` test project, started the same way
 * `deputy dev` starts it (installing the CLI when missing). Tests read its address with
 * `inject('temporalAddress')`. Set TEMPORAL_ADDRESS to run the suites against another server.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { startDevServer } from '../src/temporal/dev-server.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
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

/**
 * The dev server `deputy dev`, the tests and the bench start: a real `temporal server start-dev`
 * process, checked from outside (its command line as the kernel shows it) for the queue
 * processors' poll limits that take a step from ~50 ms to ~10 ms (docs/operations.md).
 */
import { readFile, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startDevServer, type DevServer } from '../../src/servers/dev/dev-server.js';

describe('dev server launcher', () => {
  let server: DevServer | undefined;
  let dataDir: string | undefined;

  afterAll(async () => {
    await server?.stop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('runs the server with the transfer, timer and visibility poll limits raised', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'deputy-dev-server-'));
    server = await startDevServer({ dataDir, headless: true });
    const argv = (await readFile(`/proc/${server.pid}/cmdline`, 'utf8')).split('\0');
    const values = argv.flatMap((arg, index) =>
      argv[index - 1] === '--dynamic-config-value' ? [arg] : [],
    );
    expect(values.sort()).toEqual([
      'history.timerProcessorMaxPollRPS=10000',
      'history.transferProcessorMaxPollRPS=10000',
      'history.visibilityProcessorMaxPollRPS=10000',
    ]);
  });
});

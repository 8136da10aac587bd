/**
 * The restart bound of `deputy dev`'s Temporal dev server, on real servers: a server
 * that keeps dying is restarted until `maxDeaths` deaths fall within the window, then given up on
 * with the reason, and its record is removed so no client is sent to a dead port.
 */
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startSupervisedDevServer } from '../../src/servers/dev/supervised-dev-server.js';
import { serverInfoPath } from '../../src/servers/dev/server-record.js';
import { useCleanups } from '../support/cleanups.js';
import { eventually } from '../support/eventually.js';
import { isRunning } from '../support/processes.js';

const cleanups = useCleanups();

describe('supervised dev server', () => {
  it('restarts a server that died, and gives up once it died maxDeaths times in the window', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deputy-supervised-'));
    const lines: string[] = [];
    const server = await startSupervisedDevServer({
      dataDir,
      headless: true,
      maxDeaths: 2,
      windowMs: 600_000,
      log: (line) => lines.push(line),
    });
    cleanups.push(() => server.stop());
    let gaveUp: Error | null = null;
    void server.failed.then((reason) => (gaveUp = reason));
    const first = server.pid();

    process.kill(first, 'SIGKILL');
    const second = await eventually(
      async () => (server.pid() !== first && isRunning(server.pid()) ? server.pid() : undefined),
      'the restarted server',
      90_000,
    );
    expect(lines).toContain(
      `the Temporal dev server (pid ${first}) died (signal SIGKILL); restarting it on ${server.address} with the same database`,
    );
    expect(lines).toContain(`the Temporal dev server is running again (pid ${second})`);
    expect(gaveUp).toBeNull();

    process.kill(second, 'SIGKILL');
    const reason = await server.failed;
    expect(reason.message).toBe(
      'the Temporal dev server died 2 times within 600 s (last: signal SIGKILL); giving up',
    );
    expect(server.pid()).toBe(second);
    expect(existsSync(serverInfoPath(dataDir))).toBe(false);
    await server.stop();
  }, 180_000);
});

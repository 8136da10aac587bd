import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../../src/servers/dev/dev-server.js';

async function listen(port: number): Promise<Server> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return server;
}

async function close(server: Server): Promise<void> {
  await new Promise((resolve) => server.close(resolve));
}

describe('freePort', () => {
  it('gives a port that can be listened on and that bind(0) does not hand out meanwhile', async () => {
    const port = await freePort();
    // A parallel process asking the kernel for any port (a dev server choosing its internal
    // ports) must not be given ours before our server binds it.
    for (let attempt = 0; attempt < 5000; attempt += 1) {
      const other = await listen(0);
      const taken = (other.address() as { port: number }).port;
      await close(other);
      expect(taken).not.toBe(port);
    }
    const ours = await listen(port);
    expect((ours.address() as { port: number }).port).toBe(port);
    await close(ours);
  });
});

import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { isLoopbackHost, startApiServer } from '../../src/server.js';
import { stubDelegations } from './stub-delegations.js';

describe('startApiServer', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'deputy-server-'));

  it('recognises loopback hosts', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]']) {
      expect(isLoopbackHost(host)).toBe(true);
    }
    for (const host of ['0.0.0.0', '::', '192.168.1.2', 'example.com']) {
      expect(isLoopbackHost(host)).toBe(false);
    }
  });

  it('refuses a non-loopback host when auth is disabled (API-7)', async () => {
    const config = loadConfig({ workspace, port: 0 }, { DEPUTY_HOST: '0.0.0.0' });
    await expect(
      startApiServer(config, { delegations: stubDelegations().delegations }),
    ).rejects.toThrow(/loopback/);
  });

  it('listens beyond loopback without auth only when explicitly allowed, and warns', async () => {
    const config = loadConfig({ workspace, port: 0 }, { DEPUTY_HOST: '0.0.0.0' });
    const warnings: string[] = [];
    const server = await startApiServer(config, {
      delegations: stubDelegations().delegations,
      allowUnauthenticatedBind: true,
      logger: { error: () => {}, info: () => {}, warn: (message) => warnings.push(message) },
    });
    try {
      expect(warnings.join('\n')).toContain('WITHOUT auth');
      expect((await fetch(`http://127.0.0.1:${server.port}/health`)).status).toBe(200);
    } finally {
      await server.close();
    }
  });

  it('serves real HTTP on loopback, on the port it picked', async () => {
    const config = loadConfig({ workspace, port: 0 }, {});
    const server = await startApiServer(config, { delegations: stubDelegations().delegations });
    try {
      expect(server.port).toBeGreaterThan(0);
      const response = await fetch(`${server.url}/health`);
      expect(await response.json()).toEqual({ ok: true, auth: false });
    } finally {
      await server.close();
    }
  });
});

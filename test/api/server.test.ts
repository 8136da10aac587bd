import { once } from 'node:events';
import { mkdtempSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import { isLoopbackHost, startApiServer, type ApiServer } from '../../src/server.js';
import { startedD1, stubDelegations } from './stub-delegations.js';

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

  it('refuses a non-loopback host when auth is disabled', async () => {
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
      expect(await response.json()).toMatchObject({ ok: true, auth: false });
    } finally {
      await server.close();
    }
  });
});

/**
 * The door on a real socket: Host, Origin, media type and size checks over loopback HTTP,
 * with node:http so the Host header and the body framing are exactly what a client sends.
 */
describe('the door over loopback HTTP', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'deputy-door-http-'));
  const listing = stubDelegations({
    list: async () => [],
    start: startedD1,
    stop: async () => ({ stopped: true as const }),
  });
  let server: ApiServer;

  beforeAll(async () => {
    server = await startApiServer(loadConfig({ workspace, port: 0 }, {}), {
      delegations: listing.delegations,
      allowedHosts: [],
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const startBody = JSON.stringify({ agent: 'demo', task: 'say hi' });

  it('refuses a rebound Host name with 421, listings included', async () => {
    const answer = await rawRequest(server.port, {
      path: '/delegations',
      headers: { host: `evil.example:${server.port}` },
    });
    expect(answer.status).toBe(421);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'misdirected_request' });
    const ok = await rawRequest(server.port, {
      path: '/delegations',
      headers: { host: `localhost:${server.port}` },
    });
    expect(ok.status).toBe(200);
  });

  it('refuses a start from a foreign web origin with 403', async () => {
    const answer = await rawRequest(server.port, {
      method: 'POST',
      path: '/delegations',
      headers: { 'content-type': 'application/json', origin: 'https://evil.example' },
      body: startBody,
    });
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body)).toMatchObject({ error: 'forbidden' });
  });

  it('refuses a form-encoded or text/plain start with 415', async () => {
    for (const type of ['text/plain', 'application/x-www-form-urlencoded']) {
      const answer = await rawRequest(server.port, {
        method: 'POST',
        path: '/delegations',
        headers: { 'content-type': type },
        body: startBody,
      });
      expect(answer.status, type).toBe(415);
      expect(JSON.parse(answer.body)).toMatchObject({ error: 'unsupported_media_type' });
    }
  });

  it('takes a bodyless stop as curl sends it (no length, no type)', async () => {
    const answer = await rawRequest(server.port, {
      method: 'POST',
      path: '/delegations/d-1/stop',
      headers: {},
      omitLength: true,
    });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.body)).toEqual({ stopped: true });
  });

  it.each([
    ['with Content-Length', false],
    ['chunked', true],
  ])('answers a 10 MB body (%s) with 413 at once, never a hang or a 500', async (_, chunked) => {
    const before = listing.calls.length;
    const answer = await rawRequest(server.port, {
      method: 'POST',
      path: '/delegations',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ agent: 'demo', task: 'x'.repeat(10 * 1024 * 1024) }),
      chunked,
    });
    expect(answer.status).toBe(413);
    expect(JSON.parse(answer.body)).toEqual({
      error: 'payload_too_large',
      code: 'payload_too_large',
      message: 'the request body is larger than the limit of 1048576 bytes',
    });
    expect(listing.calls.length).toBe(before);
    // The server is still fine afterwards.
    expect((await rawRequest(server.port, { path: '/health', headers: {} })).status).toBe(200);
  });

  it('answers like docker-compose runs it: 0.0.0.0 without auth, reached as localhost', async () => {
    const config = loadConfig({ workspace, port: 0 }, { DEPUTY_HOST: '0.0.0.0' });
    const compose = await startApiServer(config, {
      delegations: listing.delegations,
      allowUnauthenticatedBind: true,
      logger: { error: () => {}, info: () => {}, warn: () => {} },
    });
    try {
      for (const host of [`localhost:${compose.port}`, `127.0.0.1:${compose.port}`]) {
        const answer = await rawRequest(compose.port, { path: '/delegations', headers: { host } });
        expect(answer.status, host).toBe(200);
      }
      const other = await rawRequest(compose.port, {
        path: '/delegations',
        headers: { host: 'api:4780' },
      });
      expect(other.status).toBe(421);
    } finally {
      await compose.close();
    }
  });

  it('answers the names in DEPUTY_ALLOWED_HOSTS and a specific bind address', async () => {
    const config = loadConfig({ workspace, port: 0 }, { DEPUTY_HOST: '127.0.0.2' });
    process.env.DEPUTY_ALLOWED_HOSTS = 'api, deputy.internal:4780 http://bad/';
    const warnings: string[] = [];
    const named = await startApiServer(config, {
      delegations: listing.delegations,
      logger: { error: () => {}, info: () => {}, warn: (message) => warnings.push(message) },
    }).finally(() => delete process.env.DEPUTY_ALLOWED_HOSTS);
    try {
      expect(warnings.join('\n')).toContain(
        "DEPUTY_ALLOWED_HOSTS: 'http://bad/' is not a host name",
      );
      for (const host of ['api:4780', 'deputy.internal', `127.0.0.2:${named.port}`]) {
        const answer = await rawRequest(
          named.port,
          { path: '/delegations', headers: { host } },
          '127.0.0.2',
        );
        expect(answer.status, host).toBe(200);
      }
      const other = await rawRequest(
        named.port,
        { path: '/delegations', headers: { host: 'evil.example' } },
        '127.0.0.2',
      );
      expect(other.status).toBe(421);
    } finally {
      await named.close();
    }
  });
});

/**
 * A Host header that no URL can hold (an address past 255, a port past 65535, stray characters)
 * is the client's mistake: a 400 with a problem body, and nothing logged as a server error.
 */
describe('a malformed Host header', () => {
  const workspace = mkdtempSync(join(tmpdir(), 'deputy-bad-host-'));
  const errors: string[] = [];
  let server: ApiServer;

  beforeAll(async () => {
    server = await startApiServer(loadConfig({ workspace, port: 0 }, {}), {
      delegations: stubDelegations({ list: async () => [] }).delegations,
      allowedHosts: [],
      logger: {
        error: (message, error) => errors.push(`${message}: ${String(error)}`),
        info: () => {},
        warn: () => {},
      },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.each([
    '127.0.0.300',
    '127.0.0.300:4780',
    '127.999.0.1',
    'localhost:99999',
    '[::1',
    '[::1]:abc',
    'local host',
    'localhost:80:80',
    '127.0.0.1/x',
    'user@localhost',
  ])('answers Host %j with 400 and a problem body, logging no error', async (host) => {
    const answer = await rawRequest(server.port, { path: '/delegations', headers: { host } });
    expect(answer.status).toBe(400);
    expect(JSON.parse(answer.body)).toMatchObject({
      error: expect.any(String),
      message: expect.stringContaining('Host'),
    });
    expect(errors).toEqual([]);
  });

  it('still answers a well-formed loopback Host', async () => {
    for (const host of ['127.0.0.1', `localhost:${server.port}`, '[::1]:80', '127.255.255.254']) {
      const answer = await rawRequest(server.port, { path: '/delegations', headers: { host } });
      expect(answer.status, host).toBe(200);
    }
    expect(errors).toEqual([]);
  });
});

interface RawRequest {
  method?: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  chunked?: boolean;
  /** Send no Content-Length even without a body (as `curl -X POST` does). */
  omitLength?: boolean;
}

/** One request over node:http, which sends the Host header it is given, unlike fetch. */
function rawRequest(
  port: number,
  request: RawRequest,
  hostname = '127.0.0.1',
): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...request.headers };
    if (request.body !== undefined && !request.chunked) {
      headers['content-length'] = String(Buffer.byteLength(request.body));
    }
    const outgoing = httpRequest(
      { hostname, port, method: request.method ?? 'GET', path: request.path, headers },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString() }),
        );
        response.on('error', reject);
      },
    );
    // The server may answer (413) and close before the whole body is sent: not an error here.
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (error.code !== 'EPIPE' && error.code !== 'ECONNRESET') reject(error);
    });
    if (request.chunked) outgoing.setHeader('transfer-encoding', 'chunked');
    if (request.omitLength) outgoing.removeHeader('content-length');
    if (request.body === undefined) {
      outgoing.end();
      return;
    }
    // In 1 MiB pieces, as a real upload arrives, waiting whenever the socket is full. If the
    // server has answered and stopped reading, the rest is not sent (as a browser gives up).
    const buffer = Buffer.from(request.body);
    let answered = false;
    outgoing.once('response', () => (answered = true));
    void (async () => {
      for (let offset = 0; offset < buffer.length && !answered; offset += 1024 * 1024) {
        const more = outgoing.write(buffer.subarray(offset, offset + 1024 * 1024));
        if (!more) await once(outgoing, 'drain').catch(() => undefined);
      }
      outgoing.end();
    })();
  });
}

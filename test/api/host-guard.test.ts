/**
 * No cross-site call: without auth the API answers only to loopback Host names and
 * refuses requests from foreign web origins, so neither DNS rebinding nor a page in the user's
 * browser can start, list or decide anything. In-process app over the stub facade.
 */
import { describe, expect, it } from 'vitest';
import { bearer, jsonPost, makeApp } from './make-app.js';
import { startedD1 } from './stub-delegations.js';

const listing = { list: async () => [] };
const started = {
  start: startedD1,
};

async function expectRefused(
  response: Response,
  status: number,
  error: string,
  message: RegExp,
): Promise<void> {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toContain('application/json');
  const body = (await response.json()) as { error: string; message: string };
  expect(body.error).toBe(error);
  expect(body.message).toMatch(message);
}

describe('Host names (auth off)', () => {
  it.each([
    'localhost',
    'localhost:4780',
    'LOCALHOST:1',
    '127.0.0.1',
    '127.0.0.1:4780',
    '[::1]',
    '[::1]:4780',
  ])('answers to %s', async (host) => {
    const { app } = makeApp({ delegations: listing });
    const response = await app.request('/delegations', { headers: { host } });
    expect(response.status).toBe(200);
  });

  it.each([
    'evil.example',
    'evil.example:4780',
    'localhost.evil.example',
    '127.0.0.1.nip.io',
    '2130706433',
    '0.0.0.0:4780',
    '[::ffff:7f00:1]',
    '',
    'localhost:4780/x',
  ])('refuses %j with 421 and calls nothing', async (host) => {
    const { app, calls } = makeApp({ delegations: { ...listing, ...started } });
    const list = await app.request('/delegations', { headers: { host } });
    await expectRefused(list, 421, 'misdirected_request', /answers only to the host names/);
    const start = await app.request(
      '/delegations',
      jsonPost({ agent: 'demo', task: 'x' }, { host }),
    );
    expect(start.status).toBe(421);
    expect(calls).toEqual([]);
  });

  it('reads the URL when there is no Host header (in-process requests)', async () => {
    const { app, calls } = makeApp({ delegations: listing });
    const response = await app.request('http://rebound.example:4780/delegations');
    await expectRefused(response, 421, 'misdirected_request', /rebound\.example/);
    expect(calls).toEqual([]);
  });

  it('quotes at most 100 characters of a long Host', async () => {
    const { app } = makeApp({ delegations: listing });
    const host = `${'a'.repeat(5000)}.example`;
    const response = await app.request('/delegations', { headers: { host } });
    expect(response.status).toBe(421);
    expect((await response.text()).length).toBeLessThan(1000);
  });

  it('keeps /health open under any name', async () => {
    const { app } = makeApp();
    const response = await app.request('/health', { headers: { host: 'deputy-api.internal' } });
    expect(response.status).toBe(200);
  });

  it('answers the names it is told, with or without a port', async () => {
    const { app } = makeApp({ delegations: listing, hosts: { allowed: ['api', '[fd00::1]'] } });
    for (const host of ['api', 'api:4780', '[fd00::1]:4780']) {
      expect((await app.request('/delegations', { headers: { host } })).status, host).toBe(200);
    }
    expect((await app.request('/delegations', { headers: { host: 'other' } })).status).toBe(421);
  });
});

describe('Origin (auth off)', () => {
  it.each([
    'https://evil.example',
    'http://evil.example:4780',
    'null',
    'file://',
    'chrome-extension://abcdef',
    'http://localhost.evil.example',
    'not a url',
  ])('refuses a request from %j with 403, GET listings included', async (origin) => {
    const { app, calls } = makeApp({ delegations: { ...listing, ...started } });
    const start = await app.request(
      '/delegations',
      jsonPost({ agent: 'demo', task: 'x' }, { origin }),
    );
    await expectRefused(start, 403, 'forbidden', /web origin/);
    const list = await app.request('/delegations', { headers: { origin } });
    expect(list.status).toBe(403);
    const decide = await app.request('/cards/d-1.1', jsonPost({ decision: 'approve' }, { origin }));
    expect(decide.status).toBe(403);
    expect(calls).toEqual([]);
  });

  it.each(['http://localhost:3000', 'http://127.0.0.1:4780', 'https://[::1]:8443'])(
    'lets a page served from loopback (%s) call',
    async (origin) => {
      const { app } = makeApp({ delegations: listing });
      expect((await app.request('/delegations', { headers: { origin } })).status).toBe(200);
    },
  );

  it('refuses a cross-site request that carries no Origin (Sec-Fetch-Site)', async () => {
    const { app, calls } = makeApp({ delegations: listing });
    const response = await app.request('/delegations', {
      headers: { 'sec-fetch-site': 'cross-site' },
    });
    await expectRefused(response, 403, 'forbidden', /cross-site/);
    expect(calls).toEqual([]);
    const sameSite = await app.request('/delegations', {
      headers: { 'sec-fetch-site': 'same-origin' },
    });
    expect(sameSite.status).toBe(200);
  });
});

describe('with auth on', () => {
  it('leaves Host and Origin to the token by default', async () => {
    const { app } = makeApp({ auth: true, delegations: listing });
    const headers = { host: 'deputy.example', origin: 'https://console.example' };
    expect((await app.request('/delegations', { headers })).status).toBe(401);
    const withToken = await app.request('/delegations', {
      headers: { ...headers, ...bearer('reader') },
    });
    expect(withToken.status).toBe(200);
  });

  it('checks them too when told to, before the token', async () => {
    const { app, calls } = makeApp({
      auth: true,
      delegations: listing,
      hosts: { allowed: ['deputy.example'], checkWithAuth: true },
    });
    const ok = await app.request('/delegations', {
      headers: { host: 'deputy.example', ...bearer('reader') },
    });
    expect(ok.status).toBe(200);
    const wrongHost = await app.request('/delegations', {
      headers: { host: 'evil.example', ...bearer('admin') },
    });
    expect(wrongHost.status).toBe(421);
    const wrongOrigin = await app.request('/delegations', {
      headers: { origin: 'https://evil.example', ...bearer('admin') },
    });
    expect(wrongOrigin.status).toBe(403);
    expect(calls).toHaveLength(1);
  });
});

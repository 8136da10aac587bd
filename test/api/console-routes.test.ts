/**
 * The console's files as the API serves them (src/api/console-routes.ts): from a real build
 * folder on disk, only the files the build holds, public even with auth on, with a self-only
 * policy; and a plain 503 that says how to build it when there is no build.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import { AUTH_CONFIG, bearer, config, TOKEN_ENV } from './make-app.js';
import { stubDelegations } from './stub-delegations.js';

const silent = { error: () => {}, warn: () => {}, info: () => {} };

function builtConsole(): string {
  const dist = mkdtempSync(join(tmpdir(), 'deputy-console-dist-'));
  mkdirSync(join(dist, 'assets'));
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>console</title>');
  writeFileSync(join(dist, 'assets', 'index-abc123.js'), 'console.log("bundle")');
  writeFileSync(join(dist, 'assets', 'index-abc123.css'), 'body{}');
  writeFileSync(join(dist, '.build-stamp'), 'digest');
  return dist;
}

function appFor(dist: string, auth = false) {
  return createApp({
    delegations: stubDelegations().delegations,
    config,
    auth: createAuth({ auth: auth ? AUTH_CONFIG : undefined }, TOKEN_ENV),
    logger: silent,
    console: { dist, temporalUi: 'http://127.0.0.1:8233' },
  });
}

describe('the console routes', () => {
  const dist = builtConsole();

  it('serves the page at / and its bundles, with the policy and cache headers', async () => {
    const app = appFor(dist);
    const page = await app.request('/');
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(page.headers.get('content-security-policy')).toContain("connect-src 'self'");
    expect(await page.text()).toContain('<title>console</title>');

    const bundle = await app.request('/assets/index-abc123.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(bundle.headers.get('cache-control')).toContain('immutable');
    const again = await app.request('/assets/index-abc123.js', {
      headers: { 'if-none-match': bundle.headers.get('etag')! },
    });
    expect(again.status).toBe(304);
  });

  it('serves nothing else: no other file, no way out of the build folder', async () => {
    const app = appFor(dist);
    for (const path of [
      '/.build-stamp',
      '/assets/missing.js',
      '/assets/../index.html',
      '/assets/..%2f..%2fpackage.json',
      '/assets/%2e%2e/index.html',
      '/index.html/',
    ]) {
      // URL normalisation may turn a dot-dot path into `/index.html`: still the page, nothing more.
      const response = await app.request(path);
      if (response.status !== 404) {
        expect(response.status, path).toBe(200);
        expect(await response.text(), path).toBe('<!doctype html><title>console</title>');
      }
    }
  });

  it('is public with auth on, and tells the page that a token is needed; the API is not', async () => {
    const app = appFor(dist, true);
    expect((await app.request('/')).status).toBe(200);
    expect((await app.request('/assets/index-abc123.css')).status).toBe(200);
    const settings = await app.request('/console/settings');
    expect(settings.status).toBe(200);
    expect(await settings.json()).toEqual({
      v: 1,
      authEnabled: true,
      temporalUi: 'http://127.0.0.1:8233',
      namespace: 'default',
    });
    expect((await app.request('/workspace/tools')).status).toBe(401);
    expect((await app.request('/workspace/tools', { headers: bearer('admin') })).status).toBe(200);
  });

  it('answers / with 503 and how to build it when the console is not built', async () => {
    const app = appFor(mkdtempSync(join(tmpdir(), 'deputy-console-unbuilt-')));
    const page = await app.request('/');
    expect(page.status).toBe(503);
    expect(await page.text()).toContain('npm run build:console');
    expect((await app.request('/console/settings')).status).toBe(200);
  });
});

/**
 * The API on the watched configuration, in-process: `/health` says whether the file on
 * disk is the one in use, a token added to `auth.tokens` works on the next request, and answers
 * mask a secret the edit added. Real files and a real watcher; Temporal is the recording stub.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/api/app.js';
import type { Logger } from '../../src/api/http/errors.js';
import { liveAuth } from '../../src/api/http/live-auth.js';
import { loadConfig } from '../../src/config/load.js';
import { type DeputyConfig } from '../../src/config/schema.js';
import { watchConfig, type ConfigWatcher } from '../../src/config/watch.js';
import type { LiveConfig } from '../../src/config/live-config.js';
import { REDACTED } from '../../src/shared/redact.js';
import { stubDelegations } from './stub-delegations.js';

const suffix = randomBytes(4).toString('hex').toUpperCase();
const TOKEN_VARIABLE = `DEPUTY_LIVE_CONFIG_TEST_TOKEN_${suffix}`;
const TOKEN = `live-token-${randomBytes(9).toString('hex')}`;
const LITERAL = `live-literal-${randomBytes(9).toString('hex')}`;

const watchers: ConfigWatcher[] = [];
afterEach(async () => {
  vi.unstubAllEnvs();
  while (watchers.length > 0) await watchers.pop()!.close();
});

const until = (check: () => Promise<void> | void) =>
  vi.waitFor(check, { timeout: 10_000, interval: 20 });

async function liveApp(initial: string) {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-live-api-')));
  mkdirSync(join(workspace, '.subagents'));
  const file = join(workspace, '.subagents', 'config.yaml');
  const write = (text: string) => writeFileSync(file, text);
  write(initial);
  const config = loadConfig({ workspace }, { DEPUTY_USER_DIR: '/nonexistent' });
  const watcher = watchConfig(config);
  watchers.push(watcher);
  await watcher.ready;
  const lines: string[] = [];
  const logger: Logger = {
    error: (message) => lines.push(message),
    warn: (message) => lines.push(message),
    info: (message) => lines.push(message),
  };
  const stub = stubDelegations({
    list: async () => [{ delegationId: 'd-1', task: `use ${LITERAL} please` }] as never,
  });
  // No `auth`: the app's default follows the watched configuration.
  const app = createApp({ delegations: stub.delegations, config, settings: watcher, logger });
  return { app, write, file, watcher, lines };
}

describe('the API on the watched configuration', () => {
  it('/health says whether the file on disk is in use; an invalid edit keeps it 200', async () => {
    const { app, write, file } = await liveApp('models:\n  default: scripted:a.yaml\n');
    const healthy = await app.request('/health');
    expect(healthy.status).toBe(200);
    expect(await healthy.json()).toEqual({
      ok: true,
      auth: false,
      temporal: 'reachable',
      config: { ok: true },
      mcpJson: { ok: true },
    });

    write(`models: { default: scripted:b.yaml\nvault: ${LITERAL}\n`);
    await until(async () => {
      const body = (await (await app.request('/health')).json()) as { config: { ok: boolean } };
      expect(body.config.ok).toBe(false);
    });
    const broken = await app.request('/health');
    expect(broken.status).toBe(200);
    const body = (await broken.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      ok: true,
      temporal: 'reachable',
      config: { ok: false, message: expect.stringContaining(`${file}: not valid YAML`) },
    });
    expect(new Date((body.config as { since: string }).since).getTime()).not.toBeNaN();
    expect(JSON.stringify(body)).not.toContain(LITERAL);

    write('models:\n  default: scripted:c.yaml\n');
    await until(async () => {
      expect(await (await app.request('/health')).json()).toMatchObject({ config: { ok: true } });
    });
  });

  it('an edit that breaks .mcp.json takes its servers out and says why; config.yaml stays in use', async () => {
    const { app, file, watcher } = await liveApp('models:\n  default: scripted:a.yaml\n');
    const mcpJson = join(file, '..', '..', '.mcp.json');
    writeFileSync(mcpJson, JSON.stringify({ mcpServers: { files: { command: 'files-mcp' } } }));
    await until(() => expect(Object.keys(watcher.current().mcpServers)).toEqual(['files']));

    writeFileSync(mcpJson, `{ "mcpServers": { "files": { "command": "${LITERAL}" `);
    await until(() => expect(watcher.current().mcpServers).toEqual({}));
    const broken = await app.request('/health');
    expect(broken.status).toBe(200);
    const body = (await broken.json()) as Record<string, unknown>;
    expect(body).toMatchObject({
      ok: true,
      config: { ok: true },
      mcpJson: { ok: false, message: expect.stringMatching(/unexpected end of input at line 1/) },
    });
    expect(JSON.stringify(body)).not.toContain(LITERAL);

    writeFileSync(mcpJson, JSON.stringify({ mcpServers: {} }));
    await until(async () =>
      expect(await (await app.request('/health')).json()).toMatchObject({ mcpJson: { ok: true } }),
    );
  });

  it('a token added to auth.tokens works on the next request, without a restart', async () => {
    vi.stubEnv(TOKEN_VARIABLE, TOKEN);
    const { app, write } = await liveApp('models:\n  default: scripted:a.yaml\n');
    // Auth off: anyone on loopback, and the Host check guards the door.
    expect((await app.request('/delegations')).status).toBe(200);
    expect((await app.request('/delegations', { headers: { host: 'evil.example' } })).status).toBe(
      421,
    );

    write(`auth:\n  tokens:\n    ${TOKEN_VARIABLE}: { user: alice, roles: [admin] }\n`);
    await until(async () => expect((await app.request('/delegations')).status).toBe(401));
    const authorized = { Authorization: `Bearer ${TOKEN}` };
    expect((await app.request('/delegations', { headers: authorized })).status).toBe(200);
    expect(
      (await app.request('/delegations', { headers: { Authorization: 'Bearer wrong-token' } }))
        .status,
    ).toBe(401);
    expect(await (await app.request('/health')).json()).toMatchObject({ auth: true });

    // Removed again: open to loopback callers once more.
    write('models:\n  default: scripted:a.yaml\n');
    await until(async () => expect((await app.request('/delegations')).status).toBe(200));
  });

  it('answers mask a literal secret the edit added, and keep masking it once removed', async () => {
    const { app, write, lines } = await liveApp('models:\n  default: scripted:a.yaml\n');
    const task = async () =>
      ((await (await app.request('/delegations')).json()) as { delegations: { task: string }[] })
        .delegations[0]?.task;
    expect(await task()).toBe(`use ${LITERAL} please`);

    write(`mcpServers:\n  vault:\n    transport: stdio\n    env: { VAULT_TOKEN: ${LITERAL} }\n`);
    await until(async () => expect(await task()).toBe(`use ${REDACTED} please`));

    write('models:\n  default: scripted:a.yaml\n');
    await until(async () =>
      expect(await (await app.request('/health')).json()).toMatchObject({ config: { ok: true } }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(await task()).toBe(`use ${REDACTED} please`);
    expect(lines.join('\n')).not.toContain(LITERAL);
  });
});

describe('live auth beyond loopback', () => {
  it('stays on when an edit removes the auth section', () => {
    const base = loadConfig(
      { workspace: realpathSync(mkdtempSync(join(tmpdir(), 'deputy-live-auth-'))) },
      {},
    );
    let current: DeputyConfig = {
      ...base,
      auth: { tokens: { [TOKEN_VARIABLE]: { user: 'alice', roles: [] } } },
    };
    const settings: Pick<LiveConfig, 'current'> = { current: () => current };
    const warnings: string[] = [];
    const auth = liveAuth(settings, {
      env: { [TOKEN_VARIABLE]: TOKEN },
      keepEnabled: true,
      warn: (line) => warnings.push(line),
    });
    expect(auth.authenticate(`Bearer ${TOKEN}`)).toEqual({ id: 'alice', roles: [] });

    current = { ...base, auth: undefined };
    expect(auth.enabled).toBe(true);
    expect(() => auth.authenticate(`Bearer ${TOKEN}`)).toThrow(/not valid/);
    expect(warnings).toEqual([expect.stringContaining('every request is refused')]);

    // Without auth from the start it stays off: the server's own check then refuses to listen.
    expect(liveAuth({ current: () => base }, { keepEnabled: true }).enabled).toBe(false);
  });
});

/**
 * The watched workspace configuration: real files in a temporary workspace, a real
 * chokidar watcher. A valid edit applies, an invalid one keeps the last good configuration and
 * says why (never with a secret value), a later valid edit recovers; creating and deleting the
 * file (and its folder) are seen; the live masker never masks less after an edit.
 */
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigError } from '../src/shared/config-error.js';
import { loadConfig } from '../src/config/load.js';
import { type DeputyConfig } from '../src/config/schema.js';
import { watchConfig, type ConfigWatcher } from '../src/config/watch.js';
import { liveSecretMasker } from '../src/secrets/live-masker.js';
import { REDACTED } from '../src/shared/redact.js';

/** Random and shaped like no known token format: only the configured-value masker knows it. */
const SECRET = `planted-literal-${randomBytes(9).toString('hex')}`;
const ENV = { DEPUTY_USER_DIR: '/nonexistent-user-dir' };

const watchers: ConfigWatcher[] = [];
afterEach(async () => {
  while (watchers.length > 0) await watchers.pop()!.close();
});

function workspace(config?: string): { dir: string; file: string; write(text: string): void } {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-config-watch-')));
  const file = join(dir, '.subagents', 'config.yaml');
  const write = (text: string): void => {
    mkdirSync(join(dir, '.subagents'), { recursive: true });
    writeFileSync(file, text);
  };
  if (config !== undefined) write(config);
  return { dir, file, write };
}

interface Lines {
  warn: string[];
  info: string[];
}

async function watch(
  config: DeputyConfig,
  options: { now?: () => Date } = {},
): Promise<{ watcher: ConfigWatcher; lines: Lines }> {
  const lines: Lines = { warn: [], info: [] };
  const watcher = watchConfig(config, {
    env: ENV,
    logger: { warn: (line) => lines.warn.push(line), info: (line) => lines.info.push(line) },
    ...options,
  });
  watchers.push(watcher);
  await watcher.ready;
  return { watcher, lines };
}

const until = (check: () => void) => vi.waitFor(check, { timeout: 10_000, interval: 20 });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const models = (handle: string) => `models:\n  default: ${handle}\n`;

describe('the watched configuration', () => {
  it('applies a valid edit; the locations, Temporal and the API stay as they started', async () => {
    const ws = workspace(models('scripted:one.yaml'));
    const dataDir = join(ws.dir, 'elsewhere');
    const config = loadConfig({ workspace: ws.dir, dataDir, port: 4999 }, ENV);
    const { watcher, lines } = await watch(config);
    const seen: string[] = [];
    watcher.onChange((next) => seen.push(next.models.default));
    expect(watcher.current().models.default).toBe('scripted:one.yaml');

    ws.write(`${models('scripted:two.yaml')}writableRoots: [../out]\n`);
    await until(() => expect(watcher.current().models.default).toBe('scripted:two.yaml'));
    const now = watcher.current();
    expect(now.writableRoots).toEqual(['../out']);
    expect(seen).toContain('scripted:two.yaml');
    expect(watcher.problem()).toBeNull();
    expect({ ...now, models: null, writableRoots: null, secrets: null }).toEqual({
      ...config,
      models: null,
      writableRoots: null,
      secrets: null,
    });
    expect(now).toMatchObject({ dataDir, api: { port: 4999 }, workspace: ws.dir });
    expect(lines.warn).toEqual([]);
  });

  it('keeps the last good configuration on an invalid edit, says why once, and recovers', async () => {
    const ws = workspace(models('scripted:good.yaml'));
    const config = loadConfig({ workspace: ws.dir }, ENV);
    const { watcher, lines } = await watch(config, {
      now: () => new Date('2030-01-02T03:04:05.000Z'),
    });

    // Bad YAML, with a literal secret on the very line the parser complains about.
    const badYaml = `models:\n  default: scripted:bad.yaml\nmcpServers: { vault: { env: { VAULT_TOKEN: ${SECRET} }\n`;
    ws.write(badYaml);
    await until(() => expect(watcher.problem()).not.toBeNull());
    const yamlProblem = watcher.problem()!;
    expect(yamlProblem.message).toContain(ws.file);
    expect(yamlProblem.message).toMatch(/not valid YAML: .*line \d+, column \d+/);
    expect(yamlProblem.since).toBe('2030-01-02T03:04:05.000Z');
    expect(watcher.current().models.default).toBe('scripted:good.yaml');
    expect(lines.warn).toHaveLength(1);
    expect(lines.warn[0]).toContain('last good one stays in use');

    // The same problem again (the file saved once more) is not said twice.
    ws.write(badYaml);
    await pause(300);
    expect(lines.warn).toHaveLength(1);
    expect(watcher.problem()).toEqual(yamlProblem);

    // A schema error, the secret in a value the schema refuses: a new problem, said once.
    ws.write(
      `models:\n  default: scripted:bad.yaml\n  catalog:\n    x: { provider: ${SECRET}, model: m }\nunknownKey: ${SECRET}\n`,
    );
    await until(() => expect(watcher.problem()?.message).toContain('is invalid'));
    const schemaProblem = watcher.problem()!;
    expect(schemaProblem.message).toContain('models.catalog.x.provider');
    expect(schemaProblem.message).toContain('unknownKey');
    expect(schemaProblem.message).not.toContain('\n');
    expect(watcher.current().models.default).toBe('scripted:good.yaml');
    expect(lines.warn).toHaveLength(2);

    for (const text of [yamlProblem.message, schemaProblem.message, ...lines.warn]) {
      expect(text).not.toContain(SECRET);
    }

    ws.write(models('scripted:fixed.yaml'));
    await until(() => expect(watcher.current().models.default).toBe('scripted:fixed.yaml'));
    expect(watcher.problem()).toBeNull();
    expect(lines.info).toEqual([`${ws.file} is valid again and in use`]);
  });

  it('sees the file created and deleted, and the folder deleted and re-created', async () => {
    const ws = workspace();
    const config = loadConfig({ workspace: ws.dir }, ENV);
    const builtIn = config.models.default;
    const { watcher } = await watch(config);

    ws.write(models('scripted:created.yaml'));
    await until(() => expect(watcher.current().models.default).toBe('scripted:created.yaml'));

    // No file: the defaults, like a start without one.
    rmSync(ws.file);
    await until(() => expect(watcher.current().models.default).toBe(builtIn));

    ws.write(models('scripted:again.yaml'));
    await until(() => expect(watcher.current().models.default).toBe('scripted:again.yaml'));
    rmSync(join(ws.dir, '.subagents'), { recursive: true });
    await until(() => expect(watcher.current().models.default).toBe(builtIn));
    ws.write(models('scripted:recreated.yaml'));
    await until(() => expect(watcher.current().models.default).toBe('scripted:recreated.yaml'));
  });

  it("says a literal secret an edit adds by its field, and masks it; never less after it's removed", async () => {
    const ws = workspace(models('scripted:a.yaml'));
    const config = loadConfig({ workspace: ws.dir }, ENV);
    const { watcher, lines } = await watch(config);
    const masker = liveSecretMasker(watcher, ENV);
    expect(masker.text(`x ${SECRET} y`)).toBe(`x ${SECRET} y`);

    ws.write(
      `${models('scripted:a.yaml')}mcpServers:\n  vault:\n    transport: stdio\n    env:\n      VAULT_TOKEN: ${SECRET}\n`,
    );
    await until(() => expect(masker.text(`x ${SECRET} y`)).toBe(`x ${REDACTED} y`));
    expect(lines.warn).toEqual([
      'mcpServers.vault.env.VAULT_TOKEN holds a literal secret; write ${VAULT_TOKEN} and set it in the environment',
    ]);

    ws.write(models('scripted:b.yaml'));
    await until(() => expect(watcher.current().models.default).toBe('scripted:b.yaml'));
    expect(masker.text(`x ${SECRET} y`)).toBe(`x ${REDACTED} y`);
    expect(masker.value({ note: SECRET })).toEqual({ note: REDACTED });
  });

  it('stops reading the file once closed', async () => {
    const ws = workspace(models('scripted:before.yaml'));
    const { watcher } = await watch(loadConfig({ workspace: ws.dir }, ENV));
    await watcher.close();
    ws.write(models('scripted:after.yaml'));
    await pause(300);
    expect(watcher.current().models.default).toBe('scripted:before.yaml');
  });
});

describe('loadConfig problems at start', () => {
  it('never quote the file: a YAML error names the position, not the line', () => {
    const ws = workspace(`auth: { tokens: ${SECRET}: [\n`);
    let thrown: unknown;
    try {
      loadConfig({ workspace: ws.dir }, ENV);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ConfigError);
    expect((thrown as Error).message).toMatch(/not valid YAML: .*line \d+, column \d+$/);
    expect((thrown as Error).message).not.toContain(SECRET);
  });
});

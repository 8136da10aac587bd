/**
 * The browser suite's parts, all real: `deputy dev` as a child process (on the browser project's
 * Temporal server, its own workspace, data directory and task queue), Debian's Chromium driven
 * headless by playwright-core, and axe-core run inside each page. The only scripted part is the
 * model (agents name `scripted:` scripts).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { PROJECT_ROOT } from '../../../src/config/load.js';
import { eventually } from '../../support/eventually.js';

const DEPUTY_BIN = join(PROJECT_ROOT, 'bin', 'deputy.mjs');

import { CHROMIUM } from './chromium.js';

export { CHROMIUM };

/** A fake Temporal UI base: the console only links to it, and the tests check the links. */
export const TEMPORAL_UI = 'http://127.0.0.1:1/temporal-ui';

export interface RunningConsole {
  /** `http://127.0.0.1:<port>` with no trailing slash. */
  url: string;
  workspace: string;
  dataDir: string;
  userDir: string;
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts `deputy dev` on a new workspace holding `files` (paths relative to the workspace) and
 * resolves when its banner says where the console is.
 */
export async function startConsole(files: Record<string, string> = {}): Promise<RunningConsole> {
  const workspace = mkdtempSync(join(tmpdir(), 'deputy-browser-ws-'));
  const dataDir = mkdtempSync(join(tmpdir(), 'deputy-browser-data-'));
  const userDir = join(workspace, '.user-config');
  writeFileSync(join(workspace, 'README.md'), '# browser suite workspace\n');
  for (const [path, text] of Object.entries(files)) {
    const target = join(workspace, path);
    mkdirSync(dirname(target), { recursive: true });
    writeFileSync(target, text);
  }
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TEMPORAL_ADDRESS: inject('temporalAddress'),
    DEPUTY_TASK_QUEUE: `browser-${process.pid}-${Date.now()}`,
    DEPUTY_USER_DIR: userDir,
    DEPUTY_TEMPORAL_UI_URL: TEMPORAL_UI,
  };
  delete env.DEPUTY_PORT;
  const child: ChildProcess = spawn(
    process.execPath,
    [DEPUTY_BIN, 'dev', '--workspace', workspace, '--data-dir', dataDir, '--port', '0'],
    { env, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
  };
  try {
    const url = await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`deputy dev exited early:\n${output}`);
        return /console:\s+(http:\/\/127\.0\.0\.1:\d+)\//.exec(output)?.[1];
      },
      'the console URL in the banner of deputy dev',
      120_000,
      200,
    );
    return { url, workspace, dataDir, userDir, output: () => output, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export interface ConsoleAndBrowser {
  readonly dev: RunningConsole;
  readonly browser: Browser;
}

/**
 * One `deputy dev` on a workspace holding `files` and one browser for the calling describe
 * block: started before its tests, stopped after them. Read them inside tests (`running.dev`).
 */
export function useConsole(files: Record<string, string> = {}): ConsoleAndBrowser {
  let dev: RunningConsole | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    [dev, browser] = await Promise.all([startConsole(files), launchBrowser()]);
  });
  afterAll(async () => {
    await browser?.close();
    await dev?.stop();
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is not started yet (read it inside a test)`);
    return value;
  };
  return {
    get dev() {
      return started(dev, 'deputy dev');
    },
    get browser() {
      return started(browser, 'the browser');
    },
  };
}

export async function launchBrowser(): Promise<Browser> {
  if (CHROMIUM === null)
    throw new Error('no Chromium: install Debian chromium or set DEPUTY_CHROMIUM');
  // --no-sandbox: CI runs as root, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
}

/** A new page on `url`, failing the test on any uncaught page error or console error. */
export async function openPage(
  browser: Browser,
  url: string,
): Promise<{ page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  });
  await page.goto(url);
  return { page, problems };
}

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

export interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  targets: string[];
}

/** axe-core's serious and critical violations on the page as it is now (WCAG A and AA rules). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  // Evaluated through the DevTools protocol: the page's own policy forbids inline scripts.
  await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as {
        axe: {
          run: (options: unknown) => Promise<{
            violations: Array<{
              id: string;
              impact: string | null;
              help: string;
              nodes: Array<{ target: string[] }>;
            }>;
          }>;
        };
      }
    ).axe;
    const result = await axe.run({
      runOnly: {
        type: 'tag',
        values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'],
      },
    });
    return result.violations.map((violation) => ({
      id: violation.id,
      impact: violation.impact,
      help: violation.help,
      targets: violation.nodes.map((node) => node.target.join(' ')),
    }));
  });
  return violations.filter(
    (violation) => violation.impact === 'serious' || violation.impact === 'critical',
  );
}

/** Screenshots for docs/console.md and for a failing run: .deputy/screenshots/<name>.png. */
export async function screenshot(page: Page, name: string): Promise<string> {
  const path = join(PROJECT_ROOT, '.deputy', 'screenshots', `${name}.png`);
  await page.screenshot({ path, fullPage: false });
  return path;
}

/**
 * The console's MCP servers page from a real `deputy dev` in Chromium: a server `.mcp.json` names
 * is shown waiting, with what it would run and its hash, and is not started until the person
 * presses Approve; then it connects. A `.mcp.json` that is not JSON is said on top of the page
 * and on the agents page. The fixture server's FIXTURE_PID_FILE is the marker of a start.
 */
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { tmpdir } from 'node:os';
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readPids, stdioFixtureCommand } from '../fixtures/mcp/start.js';
import {
  CHROMIUM,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
} from './support/console.js';

const fixture = stdioFixtureCommand();
const marker = join(tmpdir(), `deputy-browser-mcp-${randomUUID()}.pids`);

describe.skipIf(CHROMIUM === null)('the MCP servers page', () => {
  const running = useConsole({
    '.mcp.json': JSON.stringify({
      mcpServers: {
        marker: { command: fixture.command, args: fixture.args, env: { FIXTURE_PID_FILE: marker } },
      },
    }),
  });

  it('shows a .mcp.json server waiting, starts it only once approved', async () => {
    const { page, problems } = await openPage(running.browser, `${running.dev.url}/#/mcp`);
    const approval = page.getByRole('region', { name: /marker is new in \.mcp\.json/ });
    await approval.waitFor();
    expect(await approval.textContent()).toContain(fixture.args.join(' '));
    expect(await approval.textContent()).toContain('FIXTURE_PID_FILE');
    const row = page.getByRole('row', { name: /marker/ });
    expect(await row.textContent()).toContain('untrusted');
    expect(existsSync(marker)).toBe(false);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'mcp-approval');

    await approval.getByRole('button', { name: 'Approve marker' }).click();
    await row.getByText('connected').waitFor({ timeout: 30_000 });
    expect(readPids(marker)).toHaveLength(1);
    expect(await page.getByRole('region', { name: /marker is new/ }).count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('says that a .mcp.json that is not JSON is not read, on this page and the agents page', async () => {
    writeFileSync(join(running.dev.workspace, '.mcp.json'), '{ not json');
    const { page } = await openPage(running.browser, `${running.dev.url}/#/mcp`);
    await page
      .getByRole('alert')
      .filter({ hasText: /\.mcp\.json is not read/ })
      .waitFor({ timeout: 15_000 })
      .catch(async () => {
        // The watcher may not have read the edit when the page loaded: once more.
        await page.reload();
        await page
          .getByRole('alert')
          .filter({ hasText: /\.mcp\.json is not read/ })
          .waitFor();
      });
    expect(await page.getByRole('alert').first().textContent()).toMatch(
      /not valid JSON: .* at line 1, column 3/,
    );
    await page.goto(`${running.dev.url}/#/agents`);
    await page
      .getByRole('alert')
      .filter({ hasText: /\.mcp\.json: .*not valid JSON/ })
      .waitFor();
  });
});

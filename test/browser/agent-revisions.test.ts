/// <reference lib="dom" />
/**
 * An agent's revisions on its view page: a revision compared with the current file as a line
 * diff (what a restore brings back, what it takes away; an inline server's secret shown as
 * `__redacted__`, never in the page), then restored from the comparison after a confirmation.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
} from './support/console.js';

const SECRET = 'vault-token-4f9a2c7e1b';
const ORIGINAL = [
  '---',
  'name: journal',
  'description: journal v0',
  'tools: [read]',
  'mcpServers:',
  '  - name: vault',
  '    transport: stdio',
  '    command: node',
  '    args: [vault-server.js]',
  '    env:',
  `      VAULT_TOKEN: ${SECRET}`,
  '---',
  'Journal body v0.',
  '',
].join('\n');

describe.skipIf(CHROMIUM === null)("an agent's revision diff", () => {
  const running = useConsole({ '.subagents/agents/journal.md': ORIGINAL });
  const open = (route: string) => openPage(running.browser, `${running.dev.url}/#${route}`);
  const region = (page: Page, name: string): Locator =>
    page.getByRole('region', { name, exact: true });

  it('compares a revision with the current file, then restores it after a confirmation', async () => {
    const answer = await fetch(`${running.dev.url}/workspace/agents/journal?level=project`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'journal v1' }),
    });
    expect(answer.status).toBe(200);
    const file = join(running.dev.workspace, '.subagents', 'agents', 'journal.md');

    const { page, problems } = await open('/agents/journal?level=project');
    await page.getByText('journal v1', { exact: true }).waitFor();
    const compare = region(page, 'Revisions').getByRole('button', { name: /^Compare/ });
    await compare.waitFor();
    await compare.click();
    expect(await compare.getAttribute('aria-pressed')).toBe('true');
    const diff = page.getByRole('region', { name: /^Changes since the version replaced at / });
    const table = diff.getByRole('table', { name: /Line differences/ });
    await table.waitFor();
    const rows = await table
      .locator('tbody tr')
      .evaluateAll((trs) =>
        trs.map((tr) => `${tr.className}|${tr.querySelector('.diff-text')?.textContent ?? ''}`),
      );
    // The description line changed; the lines around it kept; the secret never in the page.
    expect(rows).toContain('diff-removed|−only in this version: description: journal v0');
    expect(rows).toContain('diff-added|+only in the current file: description: journal v1');
    expect(rows).toContain('diff-same| name: journal');
    expect(rows.filter((row) => !row.startsWith('diff-same'))).toHaveLength(2);
    expect(await diff.textContent()).toContain('1 line only in this version');
    expect(await page.content()).not.toContain(SECRET);
    expect(await seriousViolations(page)).toEqual([]);
    await diff.scrollIntoViewIfNeeded();
    await screenshot(page, 'agent-revision-diff');

    // Restore from the comparison, keyboard only: focus, Enter, then the dialog's own button.
    await diff.getByRole('button', { name: 'Restore this version' }).focus();
    await page.keyboard.press('Enter');
    const dialog = page.getByRole('dialog', { name: 'Restore this version?' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Restore' }).focus();
    await page.keyboard.press('Enter');
    await page.getByText('journal v0', { exact: true }).waitFor();
    expect(readFileSync(file, 'utf8')).toBe(ORIGINAL);
    await diff.waitFor({ state: 'detached' });
    expect(problems).toEqual([]);
  });

  it('answers 404 for a revision the agent does not have', async () => {
    const answer = await fetch(
      `${running.dev.url}/workspace/agents/journal/revisions/20260101T000000000Z-00000000`,
    );
    expect(answer.status).toBe(404);
  });
});

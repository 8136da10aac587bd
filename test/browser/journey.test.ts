/**
 * The console end to end, as a person uses it: write an agent with a typo'd tool (the chip says
 * why and the save waits until it is gone), fix it with the picker, delegate to it, approve its
 * card from the inbox, and watch it complete in the delegations view; the file it was allowed to
 * write is on disk. A real `deputy dev`, a real Chromium; the agent's model is scripted.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { eventually } from '../support/eventually.js';
import { CHROMIUM, openPage, screenshot, useConsole } from './support/console.js';

const GREETING = 'Hello from the console journey\n';

const FILES: Record<string, string> = {
  // A new agent's model is `default`: here a script that writes a greeting, then says so.
  '.subagents/config.yaml': 'models:\n  default: scripted:scripts/greeter.yaml\n',
  'scripts/greeter.yaml': [
    'turns:',
    "  - text: 'I will write the greeting.'",
    '    toolCalls:',
    '      - name: write',
    `        arguments: { path: greeting.txt, content: ${JSON.stringify(GREETING)} }`,
    "  - text: 'Wrote greeting.txt.'",
    '',
  ].join('\n'),
};

describe.skipIf(CHROMIUM === null)('the console, end to end', () => {
  const running = useConsole(FILES);

  it('writes an agent, fixes its typo, delegates, approves its card and sees it complete', async () => {
    const { page, problems } = await openPage(running.browser, `${running.dev.url}/#/agents/new`);
    await page.getByRole('heading', { level: 1, name: 'New agent' }).waitFor();
    const picker = page.getByRole('group', { name: 'Add to allowed tools' });
    await picker.getByRole('option', { name: 'FileSystem:write' }).waitFor({ state: 'attached' });

    // Written as a file in the YAML tab, with a typo.
    await page.getByLabel('Name', { exact: true }).fill('greeter');
    await page.getByRole('tab', { name: 'YAML' }).click();
    await page
      .getByLabel('Agent file: YAML frontmatter, then the system prompt')
      .fill(
        [
          '---',
          'name: greeter',
          'description: Writes a greeting',
          'tools: [read, wirte]',
          '---',
          'You write greetings.',
          '',
        ].join('\n'),
      );
    await page.getByRole('tab', { name: 'Form' }).click();
    const chip = page.getByRole('button', { name: /^wirte: resolves to nothing/ });
    await chip.waitFor();
    expect(await chip.getAttribute('title')).toMatch(/'wirte' names no tool or provider/);
    const save = page.getByRole('button', { name: 'Save', exact: true });
    expect(await save.isDisabled()).toBe(true);

    // Fixed: the chip removed, the real tool picked.
    await chip.click();
    await picker.getByLabel('Add from').selectOption('builtin');
    await picker.getByLabel('Tool').selectOption('FileSystem:write');
    await picker.getByRole('button', { name: 'Add to allowed tools' }).click();
    await eventually(async () => (await save.isEnabled()) || undefined, 'Save enabled');
    await save.click();
    await page.waitForURL(/#\/agents\/greeter\?level=project$/);
    expect(
      readFileSync(join(running.dev.workspace, '.subagents', 'agents', 'greeter.md'), 'utf8'),
    ).toContain('- FileSystem:write');

    // Delegated from the agent's page.
    await page.getByLabel('Task', { exact: true }).fill('Greet the workspace');
    await page.getByRole('button', { name: 'Start delegation' }).click();
    await page.waitForURL(/#\/delegations\/[^/]+$/);
    const delegationId = decodeURIComponent(page.url().split('#/delegations/')[1]!);

    // Its card, approved from the inbox.
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Approvals' })
      .click();
    const card = page
      .getByRole('list', { name: /^Waiting for a decision/ })
      .getByRole('article')
      .filter({ has: page.getByRole('link', { name: delegationId, exact: true }) });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.getByRole('heading').textContent()).toBe('greeter asks to run write');
    await card.getByRole('button', { name: 'Approve' }).click();
    await card.waitFor({ state: 'detached' });

    // Complete, in the delegations view.
    await page
      .getByRole('navigation', { name: 'Console' })
      .getByRole('link', { name: 'Delegations' })
      .click();
    const row = page
      .getByRole('row')
      .filter({ has: page.getByRole('link', { name: delegationId }) });
    await eventually(
      async () => {
        await page.getByRole('button', { name: 'Refresh' }).click();
        return (await row.locator('.badge.status-completed').count()) > 0 || undefined;
      },
      'the delegation completed in the list',
      30_000,
      500,
    );
    await row.getByRole('link', { name: delegationId }).click();
    await page.getByText('Wrote greeting.txt.').first().waitFor();
    await screenshot(page, 'journey-complete');
    expect(readFileSync(join(running.dev.workspace, 'greeting.txt'), 'utf8')).toBe(GREETING);
    expect(problems).toEqual([]);
  });
});

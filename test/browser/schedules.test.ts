/// <reference lib="dom" />
/**
 * The Schedules page from a real `deputy dev` in Chromium: a schedule created through
 * the form is listed; Run now starts a run, listed with a link to its delegation's page; Pause
 * shows it paused; Delete (confirmed) removes it; and a cron Temporal cannot read shows the
 * API's own message under the form.
 */
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
} from './support/console.js';

/** The suites share one Temporal namespace: names of this run's own. */
const RUN = Date.now().toString(36);
const NAME = `nightly-${RUN}`;
const BAD = `badcron-${RUN}`;

describe.skipIf(CHROMIUM === null)('the Schedules page', () => {
  const running = useConsole();

  afterAll(async () => {
    // A failed test must not leave a schedule running in the shared namespace.
    for (const name of [NAME, BAD]) {
      await fetch(`${running.dev.url}/schedules/${name}`, { method: 'DELETE' }).catch(
        () => undefined,
      );
    }
  });

  async function openForm(page: Page) {
    await page.getByText('Create a schedule…').click();
    const form = page.getByRole('form', { name: 'Create a schedule' });
    await form.getByLabel('Agent').locator('option', { hasText: 'demo' }).first().waitFor({
      state: 'attached',
    });
    return form;
  }

  it('creates a schedule, runs it now, pauses it and deletes it', async () => {
    const { page, problems } = await openPage(running.browser, `${running.dev.url}/#/schedules`);
    const nav = page.getByRole('navigation', { name: 'Console' });
    expect(await nav.getByRole('link', { name: 'Schedules' }).getAttribute('aria-current')).toBe(
      'page',
    );
    await page.getByText('No schedules yet.').waitFor();

    const form = await openForm(page);
    await form.getByLabel('Name').fill(NAME);
    await form.getByLabel('Agent').selectOption('demo');
    await form.getByLabel('Task').fill('Greet the workspace every night');
    await form.getByLabel('Cron expression').fill('0 3 * * *');
    await form.getByLabel('Time zone (optional)').fill('Europe/Paris');
    await form.getByLabel('Overlap').selectOption('buffer-one');
    await form.getByLabel('Max tokens (optional)').fill('5000');
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Create schedule' }).click();

    await form
      .getByRole('status')
      .filter({ hasText: `Created ${NAME}.` })
      .waitFor();
    expect(await form.getByLabel('Name').inputValue()).toBe('');
    const card = page.getByRole('article', { name: NAME });
    await card.waitFor();
    const fact = (term: string) => card.locator('dt', { hasText: term }).locator('+ dd');
    expect(await fact('Agent').textContent()).toBe('demo');
    expect(await fact('When').textContent()).toBe('cron 0 3 * * * (Europe/Paris)');
    expect(await fact('Overlap').textContent()).toBe('buffer-one');
    expect(await fact('Next run').textContent()).not.toMatch(/^none/);
    expect(await card.locator('.badge.schedule-active').textContent()).toBe('active');

    // Run now: the run shows (from visibility, a moment later) as a link to its delegation.
    await card.getByRole('button', { name: 'Run now' }).click();
    await card.getByRole('status').filter({ hasText: 'Run started' }).waitFor();
    const run = card
      .getByRole('list', { name: `Recent runs of ${NAME}` })
      .getByRole('link', { name: new RegExp(`^${NAME}-\\d{8}T\\d{6}Z$`) });
    await run.waitFor({ timeout: 30_000 });
    const runId = (await run.textContent()) ?? '';
    expect(await run.getAttribute('href')).toBe(`#/delegations/${runId}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByText('Create a schedule…').click();
    await screenshot(page, 'console-schedules');

    await card.getByRole('button', { name: 'Pause' }).click();
    await card.locator('.badge.schedule-paused').waitFor();
    expect(await fact('Next run').textContent()).toBe('none while paused');
    await card.getByRole('button', { name: 'Resume' }).waitFor();

    await card.getByRole('button', { name: 'Delete' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete schedule ${NAME}?` });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete schedule' }).click();
    await card.waitFor({ state: 'detached' });
    await page.getByText('No schedules yet.').waitFor();
    const gone = await fetch(`${running.dev.url}/schedules/${NAME}`);
    expect(gone.status).toBe(404);

    // The run goes on as an ordinary delegation: its page opens from the link.
    await page.goto(`${running.dev.url}/#/delegations/${runId}`);
    await page.getByRole('heading', { level: 1, name: new RegExp(runId) }).waitFor();
    expect(problems).toEqual([]);
  });

  it("shows the API's message for a cron Temporal cannot read, keeping the form as typed", async () => {
    const { page, problems } = await openPage(running.browser, `${running.dev.url}/#/schedules`);
    const form = await openForm(page);
    await form.getByLabel('Name').fill(BAD);
    await form.getByLabel('Task').fill('Never runs');
    await form.getByLabel('Cron expression').fill('every tuesday');
    await form.getByRole('button', { name: 'Create schedule' }).click();
    const alert = form.getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/Temporal refused the schedule: .*\(HTTP 422\)/);
    expect(await form.getByLabel('Cron expression').inputValue()).toBe('every tuesday');
    expect(await page.getByRole('article', { name: BAD }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    // Chromium logs the refused request itself; nothing else may go wrong on the page.
    expect(problems).toEqual([
      'console error: Failed to load resource: the server responded with a status of 422 (Unprocessable Entity)',
    ]);
  });
});

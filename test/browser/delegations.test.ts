/// <reference lib="dom" />
/**
 * The delegations list and a delegation's page as a user sees them from `deputy dev`: filters
 * that the URL keeps, a live timeline from model turn to result with the card decided on the
 * page, Stop on a parked delegation (its card denied), and the link to the Temporal UI.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ApprovalCard, DelegationState } from '../../src/shared/delegation.js';
import { eventually } from '../support/eventually.js';
import {
  CHROMIUM,
  TEMPORAL_UI,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
} from './support/console.js';

/** An agent that needs no card: it reads README.md and answers with what it read. */
const FILES: Record<string, string> = {
  '.subagents/agents/reader.md': [
    '---',
    'name: reader',
    'description: Reads README.md on the scripted model',
    'model: scripted:scripts/reader.yaml',
    'tools: [read]',
    '---',
    'You read.',
    '',
  ].join('\n'),
  'scripts/reader.yaml': [
    'turns:',
    '  - text: Reading the README.',
    '    toolCalls:',
    '      - name: read',
    '        arguments: { path: README.md }',
    "  - text: 'The README says: ${lastToolResult}'",
    '',
  ].join('\n'),
};

/**
 * The suites share the test run's Temporal namespace, whose listing holds every suite's
 * delegations: this one's run in a session of their own, and the list is filtered to it.
 */
const SESSION = `delegations-${Date.now().toString(36)}`;

/** The console's route and its query, as a plain object (the order of keys aside). */
function routeOf(url: string): { path: string; query: Record<string, string> } {
  const hash = new URL(url).hash.slice(1);
  const [path = '', query = ''] = hash.split('?');
  return { path, query: Object.fromEntries(new URLSearchParams(query)) };
}

describe.skipIf(CHROMIUM === null)('the delegations pages', () => {
  const running = useConsole(FILES);
  /** Parked on its write card until the detail page approves it. */
  let approved: string;
  /** Completed without a card. */
  let reader: string;
  /** Parked on its write card until the detail page stops it. */
  let stopped: string;

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${running.dev.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) {
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    }
    return (await response.json()) as T;
  }
  const start = async (agent: string, task: string) =>
    (
      await call<{ delegationId: string }>('POST', '/delegations', {
        agent,
        task,
        session: SESSION,
      })
    ).delegationId;
  const stateOf = (id: string) => call<DelegationState>('GET', `/delegations/${id}`);
  const settledAs = (id: string, status: DelegationState['status']) =>
    eventually(async () => {
      const state = await stateOf(id);
      return state.status === status ? state : undefined;
    }, `${id} ${status}`);

  beforeAll(async () => {
    approved = await start('demo', 'Greet the workspace');
    reader = await start('reader', 'Read the README');
    stopped = await start('demo', 'Greet, to be stopped');
    await Promise.all([
      settledAs(approved, 'parked'),
      settledAs(reader, 'completed'),
      settledAs(stopped, 'parked'),
    ]);
  });

  const open = (route: string) => openPage(running.browser, `${running.dev.url}/#${route}`);
  const rowIds = async (page: Page): Promise<string[]> =>
    (await page.locator('table tbody').getByRole('link').allTextContents()).sort();
  /** Waits until the table lists exactly `ids` (the list re-reads visibility, which may lag). */
  const listsExactly = (page: Page, ids: string[]) =>
    eventually(
      async () => {
        const shown = await rowIds(page);
        return JSON.stringify(shown) === JSON.stringify([...ids].sort()) ? shown : undefined;
      },
      `the table to list ${ids.join(', ')}`,
    );
  const timelineEntry = (page: Page, title: string | RegExp): Locator =>
    page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('listitem')
      .filter({ has: page.locator('.timeline-title', { hasText: title }) });

  it('filters by status and agent, and the URL keeps the filter', async () => {
    const { page, problems } = await open(`/delegations?session=${SESSION}`);
    await listsExactly(page, [approved, reader, stopped]);
    expect(await page.getByLabel('Session').inputValue()).toBe(SESSION);
    const row = page.getByRole('row').filter({ hasText: reader });
    expect(await row.getByRole('cell').allTextContents()).toEqual([
      reader,
      'reader',
      'completed',
      SESSION,
      expect.any(String),
      '0',
      expect.stringMatching(/^[\d,]+$/),
      'Read the README',
    ]);
    expect(await row.locator('.badge.status-completed').count()).toBe(1);
    expect(await page.getByRole('link', { name: approved }).getAttribute('href')).toBe(
      `#/delegations/${approved}`,
    );

    await page.getByLabel('Status').selectOption('parked');
    await page.waitForURL((url) => url.hash.includes('status=parked'));
    expect(routeOf(page.url())).toEqual({
      path: '/delegations',
      query: { session: SESSION, status: 'parked' },
    });
    await listsExactly(page, [approved, stopped]);
    const parkedRow = page.getByRole('row').filter({ hasText: approved });
    expect(await parkedRow.locator('.badge.status-parked').textContent()).toBe('parked');
    expect((await parkedRow.getByRole('cell').allTextContents())[5]).toBe('1');

    await page.getByLabel('Status').selectOption('');
    await page.getByLabel('Agent').selectOption('reader');
    await page.waitForURL((url) => url.hash.includes('agent=reader'));
    expect(routeOf(page.url())).toEqual({
      path: '/delegations',
      query: { session: SESSION, agent: 'reader' },
    });
    await listsExactly(page, [reader]);
    expect(await seriousViolations(page)).toEqual([]);

    // A linked filtered view opens filtered, its controls showing the filter.
    const linked = await open(`/delegations?agent=demo&status=parked&session=${SESSION}`);
    await listsExactly(linked.page, [approved, stopped]);
    expect(await linked.page.getByLabel('Agent').inputValue()).toBe('demo');
    expect(await linked.page.getByLabel('Status').inputValue()).toBe('parked');
    expect(await linked.page.getByLabel('Session').inputValue()).toBe(SESSION);
    await screenshot(linked.page, 'delegations-list');
    expect(await seriousViolations(linked.page)).toEqual([]);
    expect([...problems, ...linked.problems]).toEqual([]);
  });

  it('shows the timeline live, from the model turn to the result, with the card decided on the page', async () => {
    const { page, problems } = await open(`/delegations/${approved}`);
    await page.getByRole('heading', { name: `Delegation ${approved}`, level: 1 }).waitFor();
    const header = page.locator('.detail-header');
    expect(await header.locator('.badge.status-parked').textContent()).toBe('parked');
    await header.getByText('Greet the workspace', { exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Stop' }).isVisible()).toBe(true);
    const state = await stateOf(approved);
    expect(await page.getByRole('link', { name: 'Open in Temporal UI' }).getAttribute('href')).toBe(
      `${TEMPORAL_UI}/namespaces/default/workflows/${encodeURIComponent(state.workflowId)}`,
    );

    // The pending card, decided here with the inbox's own card.
    const pending = page.getByRole('region', { name: /^Waiting for a decision/ });
    const card = pending.getByRole('article', { name: 'demo asks to run write' });
    await card.waitFor();
    expect(await card.locator('pre').textContent()).toContain('"path": "hello.txt"');
    await timelineEntry(page, 'Card opened for write').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await card.getByLabel('Reason').fill('looks right');
    await card.getByRole('button', { name: 'Approve' }).click();

    // The rest arrives live, ending with the result.
    const finished = timelineEntry(page, /^Finished/);
    await finished.waitFor({ timeout: 30_000 });
    expect(await finished.locator('.badge').textContent()).toBe('completed');
    expect(await finished.textContent()).toContain(
      'Read README.md and wrote hello.txt with a one-line greeting.',
    );
    expect(await timelineEntry(page, 'Model turn 1').textContent()).toContain(
      "I will look at the workspace's README first.",
    );
    const read = timelineEntry(page, 'Tool call read · allowed by policy');
    // A call that needed no card shows its arguments too (the event carries them).
    expect(await read.getByRole('figure', { name: 'Arguments' }).textContent()).toContain(
      '"path": "README.md"',
    );
    expect(await read.getByRole('figure', { name: 'Result' }).textContent()).toContain(
      '# browser suite workspace',
    );
    expect(await timelineEntry(page, 'Card for write approved').textContent()).toContain(
      'Approved: looks right',
    );
    const write = timelineEntry(page, 'Tool call write · approved on its card');
    expect(await write.getByRole('figure', { name: 'Arguments' }).textContent()).toContain(
      '"path": "hello.txt"',
    );
    expect(await write.getByRole('figure', { name: 'Result' }).textContent()).toContain(
      'hello.txt',
    );
    await header.locator('.badge.status-completed').waitFor();
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    expect(await pending.getByRole('article').count()).toBe(0);
    await page
      .getByRole('status')
      .filter({ hasText: 'Finished; the timeline is complete.' })
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'delegation-detail');
    expect(problems).toEqual([]);
  });

  it('stops a parked delegation from its page: stopped, its card denied', async () => {
    const { page, problems } = await open(`/delegations/${stopped}`);
    const header = page.locator('.detail-header');
    await header.locator('.badge.status-parked').waitFor();
    await page
      .getByRole('region', { name: /^Waiting for a decision/ })
      .getByRole('article')
      .waitFor();

    await page.getByRole('button', { name: 'Stop' }).click();
    const dialog = page.getByRole('dialog', { name: `Stop delegation ${stopped}?` });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain('Its pending card is denied.');
    // The safe choice has the focus: Enter right away cancels.
    expect(
      await dialog
        .getByRole('button', { name: 'Cancel' })
        .evaluate((node) => node === document.activeElement),
    ).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Stop delegation' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await header.locator('.badge.status-stopped').waitFor({ timeout: 30_000 });
    await timelineEntry(page, 'Card for write denied').waitFor();
    await timelineEntry(page, /^Finished/)
      .locator('.badge.status-stopped')
      .waitFor();
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    // A closed run's state is its worker's answer to a query; on a busy machine the API may first
    // answer from visibility, which holds no decided cards (docs/http-api.md): ask until the
    // worker's answer comes, then hold it to the same expectation.
    const state = await eventually(async () => {
      const answer = await stateOf(stopped);
      return answer.decidedCards.length > 0 ? answer : undefined;
    }, `${stopped} decided cards`);
    expect(state.status).toBe('stopped');
    expect(state.decidedCards.map((decided: ApprovalCard) => decided.state.status)).toEqual([
      'denied',
    ]);
    expect(problems).toEqual([]);
  });
});

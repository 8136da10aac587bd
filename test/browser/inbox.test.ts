/// <reference lib="dom" />
/**
 * The approvals inbox as a user sees it from `deputy dev`: cards of delegations started after the
 * page loaded arrive live, the keys alone decide them (and the delegations go on accordingly), a
 * card decided elsewhere leaves within a second, and a card already decided when the page acts
 * is told plainly on the page.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ApprovalCard, DelegationState } from '../../src/shared/delegation.js';
import { budgetFrom } from '../support/calibration.js';
import { eventually } from '../support/eventually.js';
import {
  CHROMIUM,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
} from './support/console.js';

/** A second agent that asks: a write under approvalMode confirm opens a card. */
const FILES: Record<string, string> = {
  '.subagents/agents/notetaker.md': [
    '---',
    'name: notetaker',
    'description: Asks to write notes.txt on the scripted model',
    'model: scripted:scripts/notetaker.yaml',
    'tools: [write]',
    'approvalMode: confirm',
    '---',
    'You take notes.',
    '',
  ].join('\n'),
  'scripts/notetaker.yaml': [
    'turns:',
    '  - text: I will write the notes down.',
    '    toolCalls:',
    '      - name: write',
    '        arguments: { path: notes.txt, content: "${task}" }',
    '  - text: Wrote notes.txt.',
    '',
  ].join('\n'),
};

/**
 * The suites share the test run's Temporal namespace, whose listings (cards, delegations) hold
 * every suite's: this one's delegations run in sessions of their own, and the page is filtered
 * to them wherever it counts cards.
 */
const RUN = Date.now().toString(36);
const SESSION = `inbox-${RUN}`;
const NIGHT = `inbox-night-${RUN}`;

/** What Chromium logs for the 409 the race test provokes on purpose. */
const CONFLICT_LOGGED =
  'console error: Failed to load resource: the server responded with a status of 409 (Conflict)';

describe.skipIf(CHROMIUM === null)('the approvals inbox', () => {
  const running = useConsole(FILES);

  async function call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${running.dev.url}${path}`, {
      method,
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok)
      throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return (await response.json()) as T;
  }
  const start = async (agent: string, task: string, more: Record<string, string> = {}) =>
    (
      await call<{ delegationId: string }>('POST', '/delegations', {
        agent,
        task,
        session: SESSION,
        ...more,
      })
    ).delegationId;
  const openInbox = () =>
    openPage(running.browser, `${running.dev.url}/#/approvals?session=${SESSION}`);
  const emptyText = `No cards are waiting in session ${SESSION}.`;
  const stateOf = (id: string) => call<DelegationState>('GET', `/delegations/${id}`);
  const pendingCardOf = (delegationId: string) =>
    eventually(
      async () =>
        (await call<{ cards: ApprovalCard[] }>('GET', '/cards')).cards.find(
          (card) => card.delegationId === delegationId,
        ),
      `the pending card of ${delegationId}`,
    );

  const pendingList = (page: Page): Locator =>
    page.getByRole('list', { name: /^Waiting for a decision/ });
  const cardOf = (page: Page, delegationId: string): Locator =>
    pendingList(page)
      .getByRole('article')
      .filter({ has: page.getByRole('link', { name: delegationId, exact: true }) });
  const settled = (page: Page): Locator => page.getByRole('region', { name: 'Just settled' });

  it('shows cards opened after it loaded, live, and decides them with the keys alone', async () => {
    const { page, problems } = await openInbox();
    await page.getByText(emptyText).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'Live' }).isVisible()).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'inbox-empty');

    const greeter = await start('demo', 'Greet');
    await cardOf(page, greeter).waitFor();
    const notes = await start('notetaker', 'remember the milk', { cardTimeout: '30m' });
    await cardOf(page, notes).waitFor();
    expect(await pendingList(page).getByRole('article').count()).toBe(2);

    // Everything a card must show.
    const first = cardOf(page, greeter);
    expect(await first.getByRole('heading').textContent()).toBe('demo asks to run write');
    const text = await first.textContent();
    expect(text).toContain(
      'Why it asks: write to hello.txt needs approval under approvalMode confirm',
    );
    expect(text).toContain(`Session${SESSION}`);
    expect(await first.locator('pre').textContent()).toBe(
      JSON.stringify(
        { path: 'hello.txt', content: "Hello from deputy's demo agent (scripted model).\n" },
        null,
        2,
      ),
    );
    const age = first.locator('time').first();
    expect(await age.textContent()).toMatch(/^opened (just now|\d+ s ago)$/);
    expect(Date.parse((await age.getAttribute('datetime')) ?? '')).not.toBeNaN();
    expect(await age.getAttribute('title')).not.toBe('');
    expect(await first.getByText(/^deadline /).count()).toBe(0);
    expect(
      await cardOf(page, notes)
        .getByText(/^deadline in (29|30) min$/)
        .isVisible(),
    ).toBe(true);
    expect(await first.getByRole('link', { name: greeter }).getAttribute('href')).toBe(
      `#/delegations/${greeter}`,
    );
    expect(
      await page.getByText(/Keys: j \/ k next \/ previous card · a approve · d deny/).isVisible(),
    ).toBe(true);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'inbox');

    // j / k move the selection (oldest first: the greeter's card, then the notes').
    const second = cardOf(page, notes);
    await page.keyboard.press('j');
    expect(await second.evaluate((node) => node === document.activeElement)).toBe(true);
    expect(await second.getAttribute('aria-current')).toBe('true');
    expect(await first.getAttribute('aria-current')).toBeNull();
    await page.keyboard.press('k');
    expect(await first.evaluate((node) => node === document.activeElement)).toBe(true);
    expect(await first.getAttribute('aria-current')).toBe('true');

    // a approves the selected card; the selection passes to the next one.
    await page.keyboard.press('a');
    await settled(page).getByText('Approved', { exact: true }).waitFor();
    await first.waitFor({ state: 'detached' });
    expect(await second.getAttribute('aria-current')).toBe('true');
    await eventually(
      async () =>
        (await second.evaluate((node) => node === document.activeElement)) ? true : undefined,
      'the focus on the remaining card',
    );

    // d goes to the reason field; letters typed there are text, not keys; Enter denies.
    const reason = 'do not add a journal, keep it short';
    await page.keyboard.press('d');
    const reasonField = second.getByLabel('Reason');
    expect(await reasonField.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.keyboard.type(reason);
    expect(await reasonField.inputValue()).toBe(reason);
    expect(await pendingList(page).getByRole('article').count()).toBe(1);
    await page.keyboard.press('Enter');
    await settled(page).getByText(`Denied: ${reason}`).waitFor();
    await page.getByText(emptyText).waitFor();

    // The delegations went on as decided.
    const approved = await eventually(async () => {
      const state = await stateOf(greeter);
      // A partial state (no worker answered in time) does not know the decided cards.
      return state.status === 'completed' && state.partial === undefined ? state : undefined;
    }, 'the approved delegation to complete');
    expect(approved.decidedCards[0]?.state.status).toBe('approved');
    expect(readFileSync(join(running.dev.workspace, 'hello.txt'), 'utf8')).toBe(
      "Hello from deputy's demo agent (scripted model).\n",
    );
    const denied = await eventually(async () => {
      const state = await stateOf(notes);
      return state.result === null || state.partial !== undefined ? undefined : state;
    }, 'the denied delegation to finish');
    expect(denied.decidedCards[0]?.state).toMatchObject({ status: 'denied', reason });
    expect(existsSync(join(running.dev.workspace, 'notes.txt'))).toBe(false);
    expect(problems).toEqual([]);
  });

  it('drops a card approved from outside about as fast as the API answered the decision', async () => {
    const { page, problems } = await openInbox();
    await page.getByText(emptyText).waitFor();
    const id = await start('notetaker', 'approved elsewhere');
    const card = await pendingCardOf(id);
    const shown = cardOf(page, id);
    await shown.waitFor();

    const sent = Date.now();
    await call('POST', `/cards/${card.id}`, { decision: 'approve', reason: 'from the CLI' });
    // Measured from the API's answer: the decision has been applied by then (200).
    const applied = Date.now();
    // The stream looks again at once on a decision made through its API, or at its next poll
    // (0.3 s, on purpose); then the page drops the card. The work of that is of the kind the
    // decision's own round trip just did: 5 of those, or 1.2 s, on top of the poll.
    const budget = budgetFrom('POST /cards, sent to answered', applied - sent, {
      factor: 5,
      floorMs: 1_200,
      plusMs: 300,
    });
    await shown.waitFor({ state: 'detached', timeout: budget.boundMs + 5_000 });
    budget.expectWithin(Date.now() - applied, 'the card gone from the page after the answer');
    // The outcome: on the close itself, or a moment later (card-outcome) when the delegation
    // was slow to tell how the card was settled.
    await settled(page).getByText('Decided elsewhere: Approved: from the CLI').waitFor();
    expect(problems).toEqual([]);
  });

  it('tells plainly that a card was already decided when the page acts on it', async () => {
    const id = await start('notetaker', 'decided twice');
    const card = await pendingCardOf(id);
    // The page's live stream is held at a snapshot from before the decision (as a stalled
    // connection would be): the page still shows the card after the API decided it, so its own
    // decision races for real and the server answers 409. The decisions go to the real API.
    const context = await running.browser.newContext({ viewport: { width: 1280, height: 860 } });
    let held = false;
    await context.route('**/cards/events**', async (route) => {
      if (held) return; // a reconnect once the race is set: left hanging, the stream stays stalled
      await route.fulfill({
        status: 200,
        headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' },
        body: `event: snapshot\ndata: ${JSON.stringify({ cards: [card] })}\n\n`,
      });
    });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
    });
    await page.goto(`${running.dev.url}/#/approvals`);
    const shown = cardOf(page, id);
    await shown.waitFor();
    held = true;
    // The held stream ended and cannot be reopened: the page says so, and that it keeps trying.
    await page
      .getByRole('status')
      .filter({ hasText: /^Live updates are down \(the stream ended\); reconnecting…$/ })
      .waitFor();

    await call('POST', `/cards/${card.id}`, { decision: 'deny', reason: 'not from here' });
    await page.keyboard.press('a');
    const note = settled(page).getByText(/^Already decided: /);
    await note.waitFor();
    expect(await note.textContent()).toMatch(
      new RegExp(`^Already decided: card ${card.id.replace(/[.]/g, '\\.')} was already denied`),
    );
    await shown.waitFor({ state: 'detached' });
    expect(await page.getByText('No cards are waiting.').isVisible()).toBe(true);
    expect(await page.getByRole('alert').count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([CONFLICT_LOGGED]);
    await context.close();
  });

  it('filters by session, the URL keeping the filter', async () => {
    const day = await start('notetaker', 'a day session card');
    const night = await start('notetaker', 'a night session card', { session: NIGHT });
    const [dayCard, nightCard] = await Promise.all([pendingCardOf(day), pendingCardOf(night)]);
    const { page, problems } = await openPage(running.browser, `${running.dev.url}/#/approvals`);
    await cardOf(page, day).waitFor();
    await cardOf(page, night).waitFor();
    const listed = async () =>
      (await pendingList(page).getByRole('article').getByRole('link').allTextContents()).sort();

    await page.getByLabel('Session').selectOption(NIGHT);
    await page.waitForURL(new RegExp(`#/approvals\\?session=${NIGHT}$`));
    // A new filter is a new stream: the list reloads (the old one can still be on screen for a
    // moment, then none while the snapshot comes), then shows that session's cards only.
    await expect.poll(listed, { timeout: 15_000 }).toEqual([night]);
    await page.getByLabel('Session').selectOption(SESSION);
    await page.waitForURL(new RegExp(`#/approvals\\?session=${SESSION}$`));
    await expect.poll(listed, { timeout: 15_000 }).toEqual([day]);

    const linked = await openPage(
      running.browser,
      `${running.dev.url}/#/approvals?session=${NIGHT}`,
    );
    await cardOf(linked.page, night).waitFor();
    expect(await linked.page.getByLabel('Session').inputValue()).toBe(NIGHT);
    await call('POST', `/cards/${nightCard.id}`, { decision: 'deny', reason: 'tidy up' });
    await linked.page.getByText(`No cards are waiting in session ${NIGHT}.`).waitFor();
    await call('POST', `/cards/${dayCard.id}`, { decision: 'deny', reason: 'tidy up' });
    expect([...problems, ...linked.problems]).toEqual([]);
  });
});

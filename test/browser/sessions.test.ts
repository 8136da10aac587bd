/// <reference lib="dom" />
/**
 * The Sessions page and a session's chat view as a user sees them from `deputy dev`, on the
 * built-in scripted `demo-lead` (it hands each message to `demo` with a foreground `Task`, whose
 * write opens a card): the list links each session; a message typed and sent with the keyboard
 * alone comes back as the task, its card inline (approved with the keyboard too) and the
 * session's reply; Stop ends a parked session and denies its task's card.
 */
import type { Locator, Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DelegationState } from '../../src/shared/delegation.js';
import type { SessionState } from '../../src/shared/session.js';
import { eventually } from '../support/eventually.js';
import {
  CHROMIUM,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
} from './support/console.js';

/** The suites share one Temporal namespace: ids of this run's own. */
const RUN = Date.now().toString(36);
const CHAT = `chat-${RUN}`;
const STOPPED = `stop-${RUN}`;

describe.skipIf(CHROMIUM === null)('the sessions pages', () => {
  const running = useConsole();

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
  const stateOf = (id: string) => call<SessionState>('GET', `/sessions/${id}`);
  const settledAs = (id: string, status: SessionState['status']) =>
    eventually(async () => {
      const state = await stateOf(id);
      return state.status === status ? state : undefined;
    }, `session ${id} ${status}`);

  beforeAll(async () => {
    // One waits for its first message (sent from the page); one is parked on its task's card.
    await call('POST', '/sessions', { agent: 'demo-lead', sessionId: CHAT });
    await call('POST', '/sessions', {
      agent: 'demo-lead',
      sessionId: STOPPED,
      message: 'Greet, to be stopped',
    });
    await Promise.all([
      settledAs(CHAT, 'idle'),
      eventually(async () => {
        const state = await stateOf(STOPPED);
        return state.tasks.some((task) => task.pendingCards > 0) ? state : undefined;
      }, `${STOPPED} waiting on its task's card`),
    ]);
  });

  const open = (route: string) => openPage(running.browser, `${running.dev.url}/#${route}`);
  const region = (page: Page, name: string | RegExp): Locator => page.getByRole('region', { name });
  /** Tab (forwards) until the focused element is `target`: keyboard only, no clicks. */
  async function tabTo(page: Page, target: Locator, what: string): Promise<void> {
    for (let presses = 0; presses < 80; presses += 1) {
      if (await target.evaluate((node) => node === document.activeElement)) return;
      await page.keyboard.press('Tab');
    }
    throw new Error(`Tab never reached ${what}`);
  }

  it('lists the sessions, each linked to its chat view', async () => {
    const { page, problems } = await open('/sessions');
    const nav = page.getByRole('navigation', { name: 'Console' });
    expect(await nav.getByRole('link', { name: 'Sessions' }).getAttribute('aria-current')).toBe(
      'page',
    );
    const row = page.getByRole('row').filter({ hasText: STOPPED });
    await row.waitFor();
    const cells = await row.getByRole('cell').allTextContents();
    expect(cells[0]).toBe(STOPPED);
    expect(cells[1]).toBe('demo-lead');
    expect(cells[5]).toBe('Greet, to be stopped');
    expect(await page.getByRole('link', { name: CHAT }).getAttribute('href')).toBe(
      `#/sessions/${CHAT}`,
    );
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByRole('link', { name: CHAT }).click();
    await page.getByRole('heading', { level: 1, name: `Session ${CHAT}` }).waitFor();
    expect(new URL(page.url()).hash).toBe(`#/sessions/${CHAT}`);
    expect(problems).toEqual([]);
  });

  it('sends a message with the keyboard alone, and shows the task, its card and the reply', async () => {
    const { page, problems } = await open(`/sessions/${CHAT}`);
    const conversation = region(page, 'Conversation');
    await page.getByRole('status').filter({ hasText: 'Live' }).waitFor();
    const box = page.getByRole('form', { name: 'Send a message' });
    const field = box.getByLabel('Message');
    await tabTo(page, field, 'the message field');
    await page.keyboard.type('Please greet the workspace');
    await page.keyboard.press('Enter');
    await box.getByText('Sent. The session answers it in turn.').waitFor();
    expect(await field.inputValue()).toBe('');

    // The message as taken up, the task it started, and the task's card inline.
    await conversation
      .getByRole('article', { name: /^You at / })
      .filter({ hasText: 'Please greet the workspace' })
      .waitFor();
    await conversation.getByText('Task started: demo: demo greeting').waitFor();
    const card = conversation.getByRole('article', { name: 'demo asks to run write' });
    await card.waitFor({ timeout: 30_000 });
    expect(await card.locator('pre').textContent()).toContain('"path": "hello.txt"');
    const tasks = region(page, /^Tasks \(1\)/);
    await tasks.locator('.badge.status-parked').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'session-chat');

    // Approved with the keyboard too; then the task ends and the session answers.
    await tabTo(page, card.getByRole('button', { name: 'Approve' }), 'Approve');
    await page.keyboard.press('Enter');
    const reply = conversation
      .getByRole('article', { name: /^demo-lead at / })
      .filter({ hasText: 'The demo agent answered:' });
    await reply.waitFor({ timeout: 30_000 });
    await conversation.getByText(/^Task finished: demo: demo greeting/).waitFor();
    await conversation.getByText(/Card: demo asked to run write: Approved/).waitFor();
    await tasks.locator('.badge.status-completed').waitFor();
    expect(
      await conversation.getByRole('article', { name: 'demo asks to run write' }).count(),
    ).toBe(0);
    await page.locator('.detail-title .badge.status-idle').waitFor();
    const state = await settledAs(CHAT, 'idle');
    expect(state.tasks.map((task) => task.status)).toEqual(['completed']);
    expect(await seriousViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  });

  it("stops a parked session from its page: stopped, its task's card denied", async () => {
    const { page, problems } = await open(`/sessions/${STOPPED}`);
    const conversation = region(page, 'Conversation');
    await conversation.getByRole('article', { name: 'demo asks to run write' }).waitFor();
    await page.getByRole('button', { name: 'Stop' }).click();
    const dialog = page.getByRole('dialog', { name: `Stop session ${STOPPED}?` });
    await dialog.waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Stop session' }).click();
    await dialog.waitFor({ state: 'hidden' });

    await page.locator('.detail-title .badge.status-stopped').waitFor({ timeout: 30_000 });
    await conversation.getByText(/^The session ended/).waitFor();
    expect(
      await conversation.getByRole('article', { name: 'demo asks to run write' }).count(),
    ).toBe(0);
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    expect(await page.getByRole('textbox', { name: 'Message' }).isDisabled()).toBe(true);
    const [task] = (await settledAs(STOPPED, 'stopped')).tasks;
    // The task's own state, from its worker (visibility holds no decided cards): ask until then.
    const decided = await eventually(async () => {
      const child = await call<DelegationState>('GET', `/delegations/${task?.taskId ?? ''}`);
      return child.decidedCards.length > 0 ? child.decidedCards : undefined;
    }, `${STOPPED}'s task decided cards`);
    expect(decided.map((card) => card.state.status)).toEqual(['denied']);
    expect(problems).toEqual([]);
  });
});

/// <reference lib="dom" />
/**
 * Guiding a delegation from the console: the start form on the Delegations page
 * (agent from the list, task, session, unattended), the steer box on a delegation's page (a
 * message queued while it is parked, delivered at its next round and shown in the timeline;
 * sent by keys alone; a refusal shown with the text kept), and Resume on a finished one, which
 * opens the new delegation going on from its transcript.
 */
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { DelegationState } from '../../src/shared/delegation.js';
import { eventually } from '../support/eventually.js';
import {
  CHROMIUM,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
} from './support/console.js';

/**
 * Writes `<task>.txt` (a card: write asks), then answers with the last user message, which is a
 * message sent meanwhile; resumed, it answers with the resume's message.
 */
const FILES: Record<string, string> = {
  '.subagents/agents/steerable.md': [
    '---',
    'name: steerable',
    'description: Writes a file, then says what it was told',
    'model: scripted:scripts/steerable.yaml',
    'tools: [write]',
    '---',
    'You write.',
    '',
  ].join('\n'),
  'scripts/steerable.yaml': [
    'turns:',
    '  - text: Writing the notes.',
    '    toolCalls:',
    '      - name: write',
    "        arguments: { path: '${task}.txt', content: 'notes' }",
    "  - text: 'Told: ${lastUserMessage}'",
    "  - text: 'Resumed with: ${lastUserMessage}'",
    '',
  ].join('\n'),
};

const SESSION = `steering-${Date.now().toString(36)}`;

describe.skipIf(CHROMIUM === null)('guiding a delegation in the console', () => {
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
  const stateOf = (id: string) => call<DelegationState>('GET', `/delegations/${id}`);
  const settledAs = (id: string, status: DelegationState['status']) =>
    eventually(async () => {
      const state = await stateOf(id);
      return state.status === status ? state : undefined;
    }, `${id} ${status}`);
  const open = (route: string) => openPage(running.browser, `${running.dev.url}/#${route}`);
  const delegationIdOf = (page: Page) => /#\/delegations\/([^/?]+)$/.exec(page.url())?.[1];
  const timelineEntry = (page: Page, title: string | RegExp) =>
    page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('listitem')
      .filter({ has: page.locator('.timeline-title', { hasText: title }) });

  it('starts a delegation from the Delegations page and opens it; unattended denies at once', async () => {
    const { page, problems } = await open('/delegations');
    await page.getByText('Start a delegation…').click();
    const form = page.getByRole('form', { name: 'Start a delegation' });
    await form.getByLabel('Agent').selectOption('steerable');
    await form.getByLabel('Task').fill('unattended-run');
    await form.getByLabel('Session (optional)').fill(SESSION);
    await form.getByLabel('Unattended').check();
    expect(await seriousViolations(page)).toEqual([]);
    await form.getByRole('button', { name: 'Start delegation' }).click();

    const id = await eventually(async () => delegationIdOf(page), 'the new delegation page');
    await page.getByRole('heading', { name: `Delegation ${id}`, level: 1 }).waitFor();
    const state = await settledAs(id, 'completed');
    expect(state.agent).toBe('steerable');
    expect(state.session).toBe(SESSION);
    // Unattended: the write that would ask is denied by policy, no card opened.
    expect(state.deniedCalls.map((denied) => [denied.tool, denied.by])).toEqual([
      ['write', 'policy'],
    ]);
    expect(state.decidedCards).toEqual([]);

    // A refusal (a blank task) shows under the task, which keeps its text.
    const again = await open('/delegations');
    await again.page.getByText('Start a delegation…').click();
    const second = again.page.getByRole('form', { name: 'Start a delegation' });
    await second.getByLabel('Task').fill('   ');
    await second.getByRole('button', { name: 'Start delegation' }).click();
    await second.getByRole('alert').waitFor();
    expect(await second.getByLabel('Task').inputValue()).toBe('   ');
    expect(again.page.url()).toContain('#/delegations');
    expect(delegationIdOf(again.page)).toBeUndefined();
    // The refusal's own 422 is logged by Chromium as a failed load; nothing else may be.
    expect([...problems, ...again.problems].filter((problem) => !problem.includes('422'))).toEqual(
      [],
    );
  });

  it('steers a parked delegation by keys alone, delivers the message, then resumes it', async () => {
    const { delegationId: id } = await call<{ delegationId: string }>('POST', '/delegations', {
      agent: 'steerable',
      task: 'steered',
      session: SESSION,
    });
    await settledAs(id, 'parked');
    const { page, problems } = await open(`/delegations/${id}`);
    const messages = page.getByRole('region', { name: /^Messages/ });
    await messages.getByText('No message was sent to this delegation.').waitFor();

    // Keys only: Tab to the box, type, Ctrl+Enter sends.
    const box = messages.getByLabel('Message to the delegation');
    await eventually(async () => {
      await page.keyboard.press('Tab');
      return (await box.evaluate((node) => node === document.activeElement)) || undefined;
    }, 'the focus on the message box');
    await page.keyboard.type('Say hello to the team');
    await page.keyboard.press('Control+Enter');
    const queued = messages.getByRole('listitem').filter({ hasText: 'Say hello to the team' });
    await queued.getByText('waiting for the next round').waitFor();
    expect(await box.inputValue()).toBe('');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'delegation-steer');

    // The card decided here; the message reaches the model at its next round.
    await page
      .getByRole('region', { name: /^Waiting for a decision/ })
      .getByRole('button', { name: 'Approve' })
      .click();
    await timelineEntry(page, /^Message/).waitFor({ timeout: 30_000 });
    expect(await timelineEntry(page, /^Message/).textContent()).toContain('Say hello to the team');
    await timelineEntry(page, /^Finished/).waitFor({ timeout: 30_000 });
    expect(await timelineEntry(page, /^Finished/).textContent()).toContain(
      'Told: Say hello to the team',
    );
    await queued.getByText(/delivered before round \d+/).waitFor();
    expect(await messages.getByRole('listitem').count()).toBe(1);
    const state = await settledAs(id, 'completed');
    expect(state.messages?.map((message) => message.text)).toEqual(['Say hello to the team']);

    // Finished: no box, a Resume form instead, which opens the new delegation.
    expect(await page.getByLabel('Message to the delegation').count()).toBe(0);
    const resume = page.getByRole('region', { name: 'Resume' });
    await resume.getByLabel('New message').fill('Now tidy up');
    expect(await seriousViolations(page)).toEqual([]);
    await resume.getByRole('button', { name: 'Resume delegation' }).click();
    const resumed = await eventually(async () => {
      const shown = delegationIdOf(page);
      return shown !== undefined && shown !== id ? shown : undefined;
    }, 'the resumed delegation page');
    await page.getByRole('heading', { name: `Delegation ${resumed}`, level: 1 }).waitFor();
    await timelineEntry(page, /^Finished/).waitFor({ timeout: 30_000 });
    expect(await timelineEntry(page, /^Finished/).textContent()).toContain(
      'Resumed with: Now tidy up',
    );
    await settledAs(resumed, 'completed');
    const { origin } = await call<{ origin?: unknown }>('GET', `/delegations/${resumed}`);
    expect(origin).toMatchObject({ delegationId: id, resumed: true });
    expect(problems).toEqual([]);
  });

  it('shows a refused message under the box and keeps its text', async () => {
    const { delegationId: id } = await call<{ delegationId: string }>('POST', '/delegations', {
      agent: 'steerable',
      task: 'refused',
      session: SESSION,
    });
    await settledAs(id, 'parked');
    const { page, problems } = await open(`/delegations/${id}`);
    const box = page.getByLabel('Message to the delegation');
    // Over the 64 KiB a message may hold: the API refuses it (422) with its reason.
    const long = 'x'.repeat(70_000);
    await box.fill(long);
    await page.getByRole('button', { name: 'Send message' }).click();
    const alert = page.getByRole('region', { name: /^Messages/ }).getByRole('alert');
    await alert.waitFor();
    expect(await alert.textContent()).toMatch(/^Not sent: text: .*65536.*\(HTTP 422\)$/);
    expect((await box.inputValue()).length).toBe(70_000);
    expect(await seriousViolations(page)).toEqual([]);
    await call('POST', `/delegations/${id}/stop`);
    expect(problems.filter((problem) => !problem.includes('422'))).toEqual([]);
  });
});

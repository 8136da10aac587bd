/// <reference lib="dom" />
/**
 * The richer card decisions in the console: answer instead (by keys alone, in the inbox: the text
 * becomes the tool's result and the tool does not run), approve with edited arguments (a form of
 * the card's arguments; a widening edit is refused with the card still pending), and allow for
 * the rest of the delegation (the next call of the same scope runs without a card), its grant
 * listed on the delegation's page and revoked there; and several cards denied in one request.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
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

const agent = (name: string) =>
  [
    '---',
    `name: ${name}`,
    `description: Writes files on the scripted model`,
    `model: scripted:scripts/${name}.yaml`,
    'tools: [write]',
    '---',
    'You write.',
    '',
  ].join('\n');

const write = (path: string, content: string) => [
  '    toolCalls:',
  '      - name: write',
  `        arguments: { path: '${path}', content: '${content}' }`,
];

const FILES: Record<string, string> = {
  // One write of `<task>.txt` (a card), then its result as the answer.
  '.subagents/agents/writer.md': agent('writer'),
  'scripts/writer.yaml': [
    'turns:',
    '  - text: Writing.',
    ...write('${task}.txt', 'draft'),
    "  - text: 'Result: ${lastToolResult}'",
    '',
  ].join('\n'),
  // The same file twice (the second covered by a grant), then another file (a card again).
  '.subagents/agents/granted.md': agent('granted'),
  'scripts/granted.yaml': [
    'turns:',
    '  - text: First.',
    ...write('${task}.txt', 'one'),
    '  - text: Second.',
    ...write('${task}.txt', 'two'),
    '  - text: Third.',
    ...write('${task}-other.txt', 'three'),
    '  - text: Done.',
    '',
  ].join('\n'),
};

const SESSION = `rich-${Date.now().toString(36)}`;

describe.skipIf(CHROMIUM === null)('rich decisions in the console', () => {
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
  const start = async (name: string, task: string, session = SESSION) =>
    (
      await call<{ delegationId: string }>('POST', '/delegations', {
        agent: name,
        task,
        session,
      })
    ).delegationId;
  const stateOf = (id: string) => call<DelegationState>('GET', `/delegations/${id}`);
  const settledAs = (id: string, status: DelegationState['status']) =>
    eventually(async () => {
      const state = await stateOf(id);
      return state.status === status ? state : undefined;
    }, `${id} ${status}`);
  const open = (route: string) => openPage(running.browser, `${running.dev.url}/#${route}`);
  const focusedText = (page: Page) =>
    page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
  /** Tab (keys only) until the focused element is the one `matches` says, within 60 presses. */
  const tabTo = async (page: Page, matches: (page: Page) => Promise<boolean>, what: string) => {
    for (let presses = 0; presses < 60; presses += 1) {
      await page.keyboard.press('Tab');
      if (await matches(page)) return;
    }
    throw new Error(`Tab never reached ${what}`);
  };
  const timelineEntry = (page: Page, title: string | RegExp) =>
    page
      .getByRole('region', { name: 'Timeline' })
      .getByRole('listitem')
      .filter({ has: page.locator('.timeline-title', { hasText: title }) });

  it('answers instead of the tool in the inbox, by keys alone: the tool does not run', async () => {
    const id = await start('writer', 'answered');
    await settledAs(id, 'parked');
    const { page, problems } = await open(`/approvals?session=${SESSION}`);
    const card = page.getByRole('article', { name: 'writer asks to run write' });
    await card.waitFor();

    await tabTo(page, async (p) => (await focusedText(p)) === 'Answer instead', 'Answer instead');
    await page.keyboard.press('Enter');
    const answer = card.getByLabel('Answer in place of write');
    await answer.waitFor();
    await page.keyboard.press('Tab');
    expect(await answer.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.keyboard.type('The file is already there.');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'inbox-answer-instead');
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Send answer');
    await page.keyboard.press('Enter');

    await card.waitFor({ state: 'detached' });
    await page.getByText('Answered: The file is already there.').waitFor();
    const state = await settledAs(id, 'completed');
    expect(state.result?.text).toContain('The file is already there.');
    expect(state.result?.text).toContain('did not run: a person answered in its place');
    expect(state.decidedCards.map((decided) => decided.state.status)).toEqual(['answered']);
    expect(existsSync(join(running.dev.workspace, 'answered.txt'))).toBe(false);
    expect(problems).toEqual([]);
  });

  it('approves with edited arguments; a widening edit is refused and the card stays', async () => {
    const id = await start('writer', 'edited');
    await settledAs(id, 'parked');
    const { page, problems } = await open(`/delegations/${id}`);
    const card = page
      .getByRole('region', { name: /^Waiting for a decision/ })
      .getByRole('article', { name: 'writer asks to run write' });
    await card.getByText('Edit arguments').click();
    // Labelled as write's schema (GET /workspace/tools) says: both arguments required.
    const path = card.getByLabel('path (required)', { exact: true });
    const content = card.getByLabel('content (required)', { exact: true });
    expect(await path.inputValue()).toBe('edited.txt');
    expect(await content.inputValue()).toBe('draft');
    expect(await seriousViolations(page)).toEqual([]);

    // Another path widens the call: refused (422), the card still pending.
    await path.fill('elsewhere.txt');
    await card.getByRole('button', { name: 'Approve with these arguments' }).click();
    const note = card.getByRole('status');
    await note.getByText(/did not go through: .*\(HTTP 422\)/).waitFor();
    expect((await stateOf(id)).pendingCards).toHaveLength(1);

    await path.fill('edited.txt');
    await content.fill('edited by a person');
    await card.getByRole('button', { name: 'Approve with these arguments' }).click();
    await page.getByText(/with edited arguments/).waitFor();
    await timelineEntry(page, /^Finished/).waitFor({ timeout: 30_000 });
    await settledAs(id, 'completed');
    expect(readFileSync(join(running.dev.workspace, 'edited.txt'), 'utf8')).toBe(
      'edited by a person',
    );
    expect(existsSync(join(running.dev.workspace, 'elsewhere.txt'))).toBe(false);
    // The refused edit's 422 is logged by Chromium as a failed load; nothing else may be.
    expect(problems.filter((problem) => !problem.includes('422'))).toEqual([]);
  });

  it("builds a write card's edit form from write's schema; a keyboard-only edit submits", async () => {
    const session = `${SESSION}-keys`;
    const id = await start('writer', 'keyed', session);
    await settledAs(id, 'parked');
    const { page, problems } = await open(`/approvals?session=${session}`);
    const asked: string[] = [];
    page.on('request', (request) => asked.push(new URL(request.url()).pathname));
    const card = page.getByRole('article', { name: 'writer asks to run write' });
    await card.waitFor();

    await tabTo(page, async (p) => (await focusedText(p)) === 'Edit arguments', 'Edit arguments');
    await page.keyboard.press('Enter');
    // The fields come from the schema: required marked, its descriptions as each field's help.
    const path = card.getByLabel('path (required)', { exact: true });
    const content = card.getByLabel('content (required)', { exact: true });
    await content.waitFor();
    expect(asked).toContain('/workspace/tools');
    const helpOf = (field: typeof path) =>
      field.evaluate((node) =>
        (node.getAttribute('aria-describedby') ?? '')
          .split(' ')
          .map((hint) => document.getElementById(hint)?.textContent ?? '')
          .join(' '),
      );
    expect(await helpOf(path)).toBe('File path, relative to the workspace root.');
    expect(await helpOf(content)).toBe('The complete new content of the file.');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'inbox-edit-arguments-schema');

    await page.keyboard.press('Tab');
    expect(await path.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.keyboard.press('Tab');
    expect(await content.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.type('typed by keys');
    await page.keyboard.press('Tab');
    expect(await focusedText(page)).toBe('Approve with these arguments');
    await page.keyboard.press('Enter');

    await card.waitFor({ state: 'detached' });
    await settledAs(id, 'completed');
    expect(readFileSync(join(running.dev.workspace, 'keyed.txt'), 'utf8')).toBe('typed by keys');
    expect(problems).toEqual([]);
  });

  it('allows the rest of the delegation, lists the grant, and revokes it', async () => {
    const id = await start('granted', 'granted');
    await settledAs(id, 'parked');
    const { page, problems } = await open(`/delegations/${id}`);
    const pending = page.getByRole('region', { name: /^Waiting for a decision/ });
    const first = pending.getByRole('article', { name: 'granted asks to run write' });
    await first
      .getByText(/granted\.txt/)
      .first()
      .waitFor();
    await first.getByLabel('Allow for the rest of this delegation').check();
    await first.getByRole('button', { name: 'Approve' }).click();

    // The second write of the same file runs without a card; the third (another file) asks.
    await pending
      .getByRole('article')
      .locator('pre', { hasText: 'granted-other.txt' })
      .waitFor({ timeout: 30_000 });
    expect(readFileSync(join(running.dev.workspace, 'granted.txt'), 'utf8')).toBe('two');
    const grants = page.getByRole('region', { name: /^Allowed for the rest/ });
    const grant = grants.getByRole('listitem').filter({ hasText: 'Grant 1' });
    await grant.waitFor();
    expect(await grant.textContent()).toMatch(/write.*granted\.txt/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'delegation-grants');

    await grant.getByRole('button', { name: 'Revoke grant 1' }).click();
    await grants.getByText('Grant 1 revoked: its next call asks again.').waitFor();
    await grant.getByText(/revoked/).waitFor();
    expect(await grant.getByRole('button').count()).toBe(0);
    const state = await stateOf(id);
    expect(state.grants?.[0]?.revoked).toBeDefined();
    await call('POST', `/delegations/${id}/stop`);
    expect(problems).toEqual([]);
  });

  it('decides several cards in one request, each with its own reason', async () => {
    const batch = `${SESSION}-batch`;
    const [first, second] = await Promise.all([
      start('writer', 'batch-a', batch),
      start('writer', 'batch-b', batch),
    ]);
    await Promise.all([settledAs(first!, 'parked'), settledAs(second!, 'parked')]);
    const { page, problems } = await open(`/approvals?session=${batch}`);
    const posts: string[] = [];
    page.on('request', (request) => {
      if (request.method() === 'POST') posts.push(new URL(request.url()).pathname);
    });
    const cards = page.getByRole('list', { name: /^Waiting for a decision/ }).getByRole('article');
    await eventually(async () => ((await cards.count()) === 2 ? true : undefined), 'two cards');
    const bar = page.getByRole('group', { name: 'Several cards at once' });
    expect(await bar.getByRole('button', { name: 'Deny selected' }).isDisabled()).toBe(true);
    await bar.getByRole('button', { name: 'Select all' }).click();
    await bar.getByText('2 of 2 selected').waitFor();
    const cardOf = (task: string) => cards.filter({ hasText: `${task}.txt` });
    await cardOf('batch-a').getByLabel('Reason').fill('not this one');
    expect(await seriousViolations(page)).toEqual([]);
    await bar.getByRole('button', { name: 'Deny selected' }).click();

    await page.getByText('No cards are waiting', { exact: false }).waitFor();
    const [a, b] = await Promise.all([
      settledAs(first!, 'completed'),
      settledAs(second!, 'completed'),
    ]);
    expect(a.deniedCalls.map((denied) => [denied.by, denied.reason])).toEqual([
      ['human', expect.stringContaining('not this one')],
    ]);
    expect(b.deniedCalls.map((denied) => denied.by)).toEqual(['human']);
    expect(existsSync(join(running.dev.workspace, 'batch-a.txt'))).toBe(false);
    // One request for both (POST /cards/decisions), none per card.
    expect(posts).toEqual(['/cards/decisions']);
    expect(problems).toEqual([]);
  });
});

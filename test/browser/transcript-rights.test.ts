/// <reference lib="dom" />
/**
 * A delegation's page with auth on, from `deputy dev` in Chromium: its owner reads the
 * timeline; a reader (no roles) gets a page that says it may not, with the delegation's summary
 * and the card it may decide, and no transcript anywhere on the page. The README holds a marker
 * that reaches a delegation only through a tool result.
 */
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DelegationState } from '../../src/shared/delegation.js';
import { eventually } from '../support/eventually.js';
import {
  CHROMIUM,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
} from './support/console.js';

const MARKER = 'OKAPI-3-LEDGER';
const TOKENS = {
  alice: 'tok-console-alice', // admin
  bob: 'tok-console-bob', // starts the reader; no admin role
  carol: 'tok-console-carol', // a reader: no roles
} as const;
type Who = keyof typeof TOKENS;
// `deputy dev` inherits this process's environment: the variables the config names.
process.env.CONSOLE_T_ALICE = TOKENS.alice;
process.env.CONSOLE_T_BOB = TOKENS.bob;
process.env.CONSOLE_T_CAROL = TOKENS.carol;

const agent = (name: string, tools: string, turns: string[]) => ({
  [`.subagents/agents/${name}.md`]: `---\nname: ${name}\ndescription: ${name} on the scripted model\nmodel: scripted:scripts/${name}.yaml\ntools: [${tools}]\n---\nGo.\n`,
  [`scripts/${name}.yaml`]: `turns:\n${turns.join('\n')}\n`,
});

const FILES: Record<string, string> = {
  '.subagents/config.yaml': [
    'auth:',
    '  tokens:',
    '    CONSOLE_T_ALICE: { user: alice, roles: [admin] }',
    '    CONSOLE_T_BOB: { user: bob, roles: [ops] }',
    '    CONSOLE_T_CAROL: { user: carol, roles: [] }',
    '',
  ].join('\n'),
  'plan.md': `The plan is ${MARKER}.\n`,
  ...agent('reader', 'read', [
    '  - text: Reading the plan.',
    '    toolCalls: [{ name: read, arguments: { path: plan.md } }]',
    "  - text: 'The plan says: ${lastToolResult}'",
  ]),
  ...agent('peeker', 'read', [
    '  - text: Looking outside.',
    '    toolCalls: [{ name: read, arguments: { path: ../outside.txt } }]',
    '  - text: Done looking.',
  ]),
};

const SESSION = `transcripts-${Date.now().toString(36)}`;

/** Chromium reports each refused fetch on the console; the 403 of the events is expected. */
const REFUSED_LOAD = /Failed to load resource: the server responded with a status of 403/;

describe.skipIf(CHROMIUM === null)("a delegation's page with auth on", () => {
  const running = useConsole(FILES);
  /** bob's, completed: its timeline carries the marker. */
  let bobs: string;
  /** alice's, parked on a read card (anyone may decide it). */
  let alices: string;

  async function call<T>(who: Who, method: 'GET' | 'POST', path: string, body?: unknown) {
    const response = await fetch(`${running.dev.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${TOKENS[who]}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status}`);
    return (await response.json()) as T;
  }
  const start = async (who: Who, name: string) =>
    (
      await call<{ delegationId: string }>(who, 'POST', '/delegations', {
        agent: name,
        task: 'Look',
        session: SESSION,
      })
    ).delegationId;
  const settledAs = (id: string, status: DelegationState['status']) =>
    eventually(async () => {
      const state = await call<DelegationState>('alice', 'GET', `/delegations/${id}`);
      return state.status === status ? state : undefined;
    }, `${id} ${status}`);

  beforeAll(async () => {
    bobs = await start('bob', 'reader');
    alices = await start('alice', 'peeker');
    await Promise.all([settledAs(bobs, 'completed'), settledAs(alices, 'parked')]);
  });

  /** The delegation's page, as `who` after giving the token prompt their token. */
  async function openAs(who: Who, id: string): Promise<{ page: Page; problems: string[] }> {
    const opened = await openPage(running.browser, `${running.dev.url}/#/delegations/${id}`);
    await opened.page.getByLabel('API token').fill(TOKENS[who]);
    await opened.page.getByRole('button', { name: 'Use token' }).click();
    await opened.page.getByRole('heading', { name: `Delegation ${id}`, level: 1 }).waitFor();
    return opened;
  }
  const timeline = (page: Page) => page.getByRole('region', { name: 'Timeline' });

  it('shows its owner the whole timeline', async () => {
    const { page, problems } = await openAs('bob', bobs);
    await timeline(page)
      .getByText(/Finished/)
      .first()
      .waitFor();
    await page
      .getByRole('status')
      .filter({ hasText: 'Finished; the timeline is complete.' })
      .waitFor();
    expect(await page.locator('main').textContent()).toContain(MARKER);
    expect(await page.getByText('Summary only').count()).toBe(0);
    expect(problems).toEqual([]);
  });

  it('shows a reader a clear "not allowed" page with the summary, and no transcript', async () => {
    const { page, problems } = await openAs('carol', bobs);
    const header = page.locator('.detail-header');
    await header.locator('.badge.status-completed').waitFor();
    await page.getByRole('status').filter({ hasText: 'Not allowed' }).waitFor();
    expect(await timeline(page).textContent()).toContain(
      `Not allowed: reading the events of delegation ${bobs} (its transcript, tool results, messages and answers) needs the 'admin' role or being the user who started it`,
    );
    expect(
      await page.getByRole('status').filter({ hasText: 'Summary only' }).textContent(),
    ).toContain('needs the admin role or being the user who started it');
    // The summary a dashboard needs: the task, the agent, the rounds. The task and start time
    // come from the listing, read once the state is in: waited for, not raced (CI saw "Task —").
    await header.filter({ hasText: 'Look' }).waitFor();
    expect(await header.textContent()).toContain('Look');
    expect(await header.textContent()).toContain('reader');
    expect(await page.locator('main').textContent()).not.toContain(MARKER);
    expect(await page.getByRole('button', { name: 'Stop' }).count()).toBe(0);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'delegation-not-allowed');
    expect(problems.filter((problem) => !REFUSED_LOAD.test(problem))).toEqual([]);
  });

  it('lets a reader decide, from the page, the card anyone may decide', async () => {
    const { page, problems } = await openAs('carol', alices);
    await page.getByRole('status').filter({ hasText: 'Not allowed' }).waitFor();
    const pending = page.getByRole('region', { name: /^Waiting for a decision/ });
    const card = pending.getByRole('article', { name: 'peeker asks to run read' });
    await card.waitFor();
    expect(await card.locator('pre').textContent()).toContain('"path": "../outside.txt"');
    await card.getByRole('button', { name: 'Deny' }).click();
    await settledAs(alices, 'completed');
    expect(problems.filter((problem) => !REFUSED_LOAD.test(problem))).toEqual([]);
  });
});

/// <reference lib="dom" />
/**
 * A one-tap link as a person opens it: `deputy dev` with a link key, the demo agent's
 * card, links minted by `POST /cards/:id/links`, and Chromium. The page shows the card and
 * decides nothing; pressing its button (a real form post, with the Origin and Sec-Fetch-Site a
 * browser sends under the page's referrer policy) approves the card once, and the delegation
 * finishes; the keyboard alone does it too.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { CardLinks } from '../../src/shared/cards/card-links.js';
import type { ApprovalCard, DelegationState } from '../../src/shared/delegation.js';
import { eventually } from '../support/eventually.js';
import {
  CHROMIUM,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
} from './support/console.js';

// Read by `deputy dev`, which startConsole gives this process's environment.
process.env.DEPUTY_LINK_SECRET = `browser-${randomUUID()}-${randomUUID()}`;

const SESSION = `links-${Date.now().toString(36)}`;

describe.skipIf(CHROMIUM === null)('one-tap links in a browser', () => {
  const running = useConsole();

  async function api<T>(path: string, body?: unknown): Promise<T> {
    const response = await fetch(`${running.dev.url}${path}`, {
      method: body === undefined ? 'GET' : 'POST',
      headers: body === undefined ? {} : { 'content-type': 'application/json' },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    expect(response.ok, `${path}: ${response.status}`).toBe(true);
    return (await response.json()) as T;
  }

  async function parkedCard(): Promise<ApprovalCard> {
    await api('/delegations', { agent: 'demo', task: 'Greet', session: SESSION });
    return eventually(async () => {
      const { cards } = await api<{ cards: ApprovalCard[] }>(`/cards?session=${SESSION}`);
      return cards[0];
    }, 'the demo card');
  }

  async function finished(card: ApprovalCard): Promise<DelegationState> {
    return eventually(async () => {
      const state = await api<DelegationState>(`/delegations/${card.delegationId}`);
      return state.status === 'completed' ? state : undefined;
    }, 'the delegation to complete');
  }

  it('shows the card, decides nothing until the button is pressed, then approves once', async () => {
    const card = await parkedCard();
    const links = await api<CardLinks>(`/cards/${card.id}/links`, {});
    const { page, problems } = await openPage(running.browser, links.approve);
    await expect.poll(() => page.title()).toBe('Approve write for demo?');
    const text = await page.locator('main').innerText();
    expect(text).toContain('hello.txt');
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'card-link-confirm');
    const state = await api<DelegationState>(`/delegations/${card.delegationId}`);
    expect(state.pendingCards.map((pending) => pending.id)).toEqual([card.id]);

    await page.getByRole('button', { name: 'Approve' }).click();
    await expect.poll(() => page.locator('h1').innerText()).toBe('Approved');
    expect((await finished(card)).decidedCards).toMatchObject([
      { id: card.id, state: { status: 'approved' } },
    ]);
    await screenshot(page, 'card-link-approved');

    // Back to the link and press again: the card is decided, the page says so.
    await page.goto(links.approve);
    await expect.poll(() => page.locator('h1').innerText()).toBe('Already decided');
    expect(await page.getByRole('button').count()).toBe(0);
    expect(problems.filter((problem) => !problem.includes('409'))).toEqual([]);
    await page.context().close();
  }, 90_000);

  it('decides with the keyboard alone', async () => {
    const card = await parkedCard();
    const links = await api<CardLinks>(`/cards/${card.id}/links`, {});
    const { page } = await openPage(running.browser, links.deny);
    await expect.poll(() => page.title()).toBe('Deny write for demo?');
    await page.keyboard.press('Tab');
    const button = page.getByRole('button', { name: 'Deny' });
    expect(await button.evaluate((node) => node === document.activeElement)).toBe(true);
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('h1').innerText()).toBe('Denied');
    const state = await finished(card);
    expect(state.decidedCards).toMatchObject([{ id: card.id, state: { status: 'denied' } }]);
    await page.context().close();
  }, 90_000);
});

/**
 * The console's shell as a browser sees it from `deputy dev`: the page and its bundles come
 * from the API's own origin under a self-only policy, the navigation works, and the settings
 * the page starts from are public.
 */
import { describe, expect, it } from 'vitest';
import {
  CHROMIUM,
  TEMPORAL_UI,
  openPage,
  screenshot,
  seriousViolations,
  useConsole,
} from './support/console.js';

describe.skipIf(CHROMIUM === null)('the console shell', () => {
  const running = useConsole();

  it('serves the page at / with a self-only policy, and its settings without a token', async () => {
    const page = await fetch(`${running.dev.url}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await page.text();
    const bundle = /src="\.\/(assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(bundle).toBeDefined();
    const script = await fetch(`${running.dev.url}/${bundle}`);
    expect(script.status).toBe(200);
    expect(script.headers.get('cache-control')).toContain('immutable');

    const settings = await fetch(`${running.dev.url}/console/settings`);
    expect(await settings.json()).toEqual({
      v: 1,
      authEnabled: false,
      temporalUi: TEMPORAL_UI,
      namespace: 'default',
    });
    expect((await fetch(`${running.dev.url}/assets/not-a-bundle.js`)).status).toBe(404);
  });

  it('opens on the approvals inbox and navigates, with no serious accessibility violations', async () => {
    const { page, problems } = await openPage(running.browser, `${running.dev.url}/`);
    await page.waitForURL(/#\/approvals$/);
    const nav = page.getByRole('navigation', { name: 'Console' });
    await nav.getByRole('link', { name: 'Agents' }).click();
    await page.waitForURL(/#\/agents$/);
    await nav.getByRole('link', { name: 'Delegations' }).click();
    await page.waitForURL(/#\/delegations$/);
    expect(await seriousViolations(page)).toEqual([]);
    await screenshot(page, 'shell');
    expect(problems).toEqual([]);
  });
});

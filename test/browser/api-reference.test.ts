/**
 * The API reference (`GET /docs`) as a browser sees it from `deputy dev`: Swagger UI, served by
 * the API itself under its self-only policy, draws the operations of `/openapi.json` and runs
 * one, and the page asks nothing of any other origin.
 */
import { describe, expect, it } from 'vitest';
import { CHROMIUM, openPage, useConsole } from './support/console.js';

describe.skipIf(CHROMIUM === null)('the API reference page', () => {
  const running = useConsole();

  it('draws the operations from this server alone, and tries one out', async () => {
    const { page, problems } = await openPage(running.browser, 'about:blank');
    const elsewhere: string[] = [];
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.origin !== running.dev.url && url.protocol !== 'data:') elsewhere.push(request.url());
    });
    await page.goto(`${running.dev.url}/docs`);

    const health = page.locator('.opblock-get', { hasText: '/health' }).first();
    await health.waitFor();
    expect(await page.locator('.opblock').count()).toBeGreaterThan(20);

    await health.locator('.opblock-summary').click();
    await health.getByRole('button', { name: 'Try it out' }).click();
    await health.getByRole('button', { name: 'Execute' }).click();
    await health
      .locator('.live-responses-table .response-col_status', { hasText: '200' })
      .waitFor();

    expect(elsewhere).toEqual([]);
    expect(problems).toEqual([]);
  });
});

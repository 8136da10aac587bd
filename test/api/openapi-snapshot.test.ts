/**
 * The OpenAPI document is a contract: a refactor must leave it byte for byte as it was. The
 * committed copy changes only on purpose, with `DEPUTY_UPDATE_OPENAPI=1 npx vitest run
 * test/api/openapi-snapshot.test.ts`, and the diff is reviewed with the change that made it.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
import { openApiDocument } from '../../src/api/openapi/document.js';

const COMMITTED = new URL('../fixtures/openapi.json', import.meta.url);

it('is byte-identical to the committed copy', () => {
  const now = `${JSON.stringify(openApiDocument(), null, 2)}\n`;
  if (process.env.DEPUTY_UPDATE_OPENAPI === '1') writeFileSync(COMMITTED, now);
  expect(now).toBe(readFileSync(COMMITTED, 'utf8'));
});

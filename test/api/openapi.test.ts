import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/auth.js';
import { loadConfig } from '../../src/config.js';
import { stubDelegations } from './stub-delegations.js';

describe('OpenAPI document (API-8)', () => {
  const config = loadConfig({ workspace: mkdtempSync(join(tmpdir(), 'deputy-openapi-')) }, {});
  const app = createApp({
    delegations: stubDelegations().delegations,
    config,
    auth: createAuth({}),
  });

  it('lists exactly the registered routes', async () => {
    const response = await app.request('/openapi.json');
    expect(response.status).toBe(200);
    const document = (await response.json()) as { openapi: string; paths: Record<string, object> };
    expect(document.openapi).toBe('3.1.0');
    const documented = Object.entries(document.paths)
      .flatMap(([path, operations]) =>
        Object.keys(operations).map((method) => `${method.toUpperCase()} ${path}`),
      )
      .sort();
    const registered = [
      ...new Set(
        app.routes
          .filter((route) => route.method !== 'ALL')
          .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`),
      ),
    ].sort();
    expect(documented).toEqual(registered);
  });

  it('derives request bodies from the validating schemas', async () => {
    const document = (await (await app.request('/openapi.json')).json()) as {
      paths: Record<
        string,
        Record<
          string,
          { requestBody?: { content: Record<string, { schema: { required?: string[] } }> } }
        >
      >;
    };
    const start =
      document.paths['/delegations']?.post?.requestBody?.content['application/json']?.schema;
    expect(start?.required).toEqual(expect.arrayContaining(['agent', 'task']));
  });
});

/**
 * deputy's own bearer token goes only to an http server that opted in with `auth: bearer`.
 * The fixture server (Streamable HTTP on loopback) says whether it received the header and
 * whether its digest matches, never echoing the value.
 */
import { createHash } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMcpPool } from '../../src/mcp-client/pool.js';
import { fromConfigured } from '../../src/mcp-client/server-spec.js';
import { startHttpFixture } from '../fixtures/mcp/start.js';

const TOKEN = 'deputy-runtime-token-7f3a9c2e';
const digest = (value: string) => createHash('sha256').update(value).digest('hex');
let fixture: Awaited<ReturnType<typeof startHttpFixture>>;
const pool = createMcpPool({ bearerToken: () => TOKEN });

beforeAll(async () => {
  fixture = await startHttpFixture();
});
afterAll(async () => {
  await pool.close();
  await fixture?.stop();
});

const spec = (name: string, auth?: 'bearer') =>
  fromConfigured(name, {
    transport: 'http',
    endpoint: fixture.url,
    args: [],
    env: {},
    headers: {},
    approve: [],
    enabled: true,
    ...(auth === undefined ? {} : { auth }),
  });

async function authorizationSeenBy(name: string, auth?: 'bearer') {
  const result = (await pool
    .server(spec(name, auth))
    .call(
      'header-check',
      { name: 'authorization', sha256: digest(`Bearer ${TOKEN}`) },
      { timeoutMs: 10_000 },
    )) as CallToolResult;
  const block = result.content[0];
  return JSON.parse(block?.type === 'text' ? block.text : '{}') as {
    received: boolean;
    matches: boolean;
  };
}

describe("deputy's bearer token", () => {
  it('is sent to a server with auth: bearer, and only to it', async () => {
    expect(await authorizationSeenBy('opted-in', 'bearer')).toMatchObject({
      received: true,
      matches: true,
    });
    expect(await authorizationSeenBy('not-opted-in')).toMatchObject({ received: false });
  });

  it('is refused loudly when auth: bearer is set but the runtime has no token', async () => {
    const tokenless = createMcpPool({ bearerToken: () => undefined, reconnectMs: 60_000 });
    try {
      const server = tokenless.server(spec('needs-token', 'bearer'));
      await expect(server.connected(5_000)).rejects.toThrow(
        /auth: bearer is set but the runtime has no token/,
      );
    } finally {
      await tokenless.close();
    }
  });
});

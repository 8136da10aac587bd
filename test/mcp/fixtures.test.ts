/**
 * The MCP servers the gateway's tests run against, proven with the SDK's own client before any
 * deputy code is involved: if one of these fails, the gateway is not the suspect.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { ErrorCode, McpError, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterAll, describe, expect, it } from 'vitest';
import { useCleanups } from '../support/cleanups.js';
import { eventually } from '../support/eventually.js';
import { isRunning } from '../support/processes.js';
import {
  countPids,
  everythingStdioCommand,
  readPids,
  startEverythingHttp,
  startHttpFixture,
  stdioFixtureCommand,
} from '../fixtures/mcp/start.js';

const cleanups = useCleanups();
const scratch = mkdtempSync(join(tmpdir(), 'deputy-mcp-fixtures-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Every server process this file started: none may outlive it. */
const started: number[] = [];
afterAll(async () => {
  for (const pid of started) await gone(pid);
});

const SECRET = 'fixture-secret-4c1f0e';
const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

async function connect(transport: Transport): Promise<Client> {
  const client = new Client({ name: 'fixtures-test', version: '1.0.0' });
  await client.connect(transport);
  cleanups.push(() => client.close());
  return client;
}

function stdioTransport(command: { command: string; args: string[] }, env: Record<string, string>) {
  // cwd outside the repository: the commands must not depend on where they are run from.
  return new StdioClientTransport({ ...command, env, cwd: scratch, stderr: 'pipe' });
}

async function call(client: Client, name: string, args: Record<string, unknown> = {}) {
  return (await client.callTool({ name, arguments: args })) as CallToolResult;
}

function firstText(result: CallToolResult): string {
  const block = result.content.find((item) => item.type === 'text');
  if (block?.type !== 'text') throw new Error(`no text block in ${JSON.stringify(result)}`);
  return block.text;
}

async function whoami(client: Client) {
  return JSON.parse(firstText(await call(client, 'whoami'))) as {
    pid: number;
    calls: number;
    cancelled: number;
    session: string | null;
  };
}

async function expectTimeout(promise: Promise<unknown>): Promise<void> {
  const error = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(McpError);
  expect((error as McpError).code).toBe(ErrorCode.RequestTimeout);
}

async function gone(pid: number): Promise<void> {
  await eventually(async () => (isRunning(pid) ? undefined : true), `process ${pid} to end`, 5_000);
}

describe('the fixture server over stdio', () => {
  it('serves every tool, honours cancellation, and its crash closes the transport', async () => {
    const pidFile = join(scratch, 'stdio-pids');
    const transport = stdioTransport(stdioFixtureCommand(), {
      FIXTURE_PID_FILE: pidFile,
      FIXTURE_SECRET: SECRET,
    });
    const client = await connect(transport);
    const pid = transport.pid!;
    started.push(pid);

    const names = (await client.listTools()).tools.map((tool) => tool.name).sort();
    expect(names).toEqual(
      ['crash', 'echo', 'env-check', 'fail', 'image', 'resource', 'slow', 'whoami'].sort(),
    );

    expect(firstText(await call(client, 'echo', { text: 'hello' }))).toBe('hello');
    expect(firstText(await call(client, 'slow', { ms: 10 }))).toBe('slept 10');
    await expectTimeout(
      client.callTool({ name: 'slow', arguments: { ms: 20_000 } }, undefined, { timeout: 200 }),
    );
    // The SDK sends notifications/cancelled on a timeout; the server's signal saw it.
    await eventually(
      async () => ((await whoami(client)).cancelled === 1 ? true : undefined),
      'the cancelled slow call to be counted',
      5_000,
    );

    const image = await call(client, 'image');
    expect(image.content.map((block) => block.type)).toEqual(['image', 'text']);
    const png = image.content[0]!;
    expect(png.type === 'image' && png.mimeType).toBe('image/png');
    expect(png.type === 'image' && Buffer.from(png.data, 'base64').subarray(1, 4).toString()).toBe(
      'PNG',
    );

    const resource = await call(client, 'resource');
    expect(resource.content.map((block) => block.type)).toEqual(['resource', 'resource_link']);
    const link = resource.content[1]!;
    if (link.type !== 'resource_link') throw new Error('no link');
    const read = await client.readResource({ uri: link.uri });
    expect(read.contents[0]).toMatchObject({ uri: link.uri, text: 'the linked note' });

    const failed = await call(client, 'fail', { message: 'it broke' });
    expect(failed).toMatchObject({ isError: true, content: [{ type: 'text', text: 'it broke' }] });

    const right = firstText(
      await call(client, 'env-check', { name: 'FIXTURE_SECRET', sha256: sha256(SECRET) }),
    );
    expect(JSON.parse(right)).toEqual({ name: 'FIXTURE_SECRET', received: true, matches: true });
    const wrong = firstText(
      await call(client, 'env-check', { name: 'FIXTURE_SECRET', sha256: sha256('x') }),
    );
    expect(JSON.parse(wrong)).toMatchObject({ received: true, matches: false });
    const absent = firstText(
      await call(client, 'env-check', { name: 'NOT_SET_ANYWHERE', sha256: sha256(SECRET) }),
    );
    expect(JSON.parse(absent)).toMatchObject({ received: false, matches: false });
    expect(right + wrong + absent).not.toContain(SECRET);

    const me = await whoami(client);
    expect(me).toMatchObject({ pid, session: null });
    // 11 tool calls so far (at least: the cancelled-count poll may have taken more than one).
    expect(me.calls).toBeGreaterThanOrEqual(11);
    expect((await whoami(client)).calls).toBe(me.calls + 1);

    const closed = new Promise<void>((resolve) => {
      const previous = transport.onclose;
      transport.onclose = () => {
        previous?.();
        resolve();
      };
    });
    const crashed = client.callTool({ name: 'crash', arguments: {} });
    await expect(crashed).rejects.toMatchObject({ code: ErrorCode.ConnectionClosed });
    await closed;
    await gone(pid);
    expect(readPids(pidFile)).toEqual([pid]);
  });

  it('ends when the client closes stdin, even with a call in flight', async () => {
    const transport = stdioTransport(stdioFixtureCommand(), {});
    const client = await connect(transport);
    const pid = transport.pid!;
    started.push(pid);
    const pending = client.callTool({ name: 'slow', arguments: { ms: 60_000 } }).catch(() => {});
    await client.close();
    await pending;
    await gone(pid);
  });
});

describe('the fixture server over Streamable HTTP', () => {
  it('answers several sessions from one process and checks headers without echoing them', async () => {
    const pidFile = join(scratch, 'http-pids');
    const server = await startHttpFixture({
      env: { FIXTURE_PID_FILE: pidFile, FIXTURE_SECRET: SECRET },
    });
    cleanups.push(server.stop);
    started.push(server.pid);
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    const withHeader = await connect(
      new StreamableHTTPClientTransport(new URL(server.url), {
        requestInit: { headers: { 'X-Fixture-Token': SECRET } },
      }),
    );
    const plain = await connect(new StreamableHTTPClientTransport(new URL(server.url)));

    const names = (await withHeader.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain('header-check');
    expect(firstText(await call(plain, 'echo', { text: 'over http' }))).toBe('over http');

    const check = { name: 'x-fixture-token', sha256: sha256(SECRET) };
    const right = firstText(await call(withHeader, 'header-check', check));
    expect(JSON.parse(right)).toEqual({ name: 'x-fixture-token', received: true, matches: true });
    const wrong = firstText(
      await call(withHeader, 'header-check', { ...check, sha256: sha256('x') }),
    );
    expect(JSON.parse(wrong)).toMatchObject({ received: true, matches: false });
    const absent = firstText(await call(plain, 'header-check', check));
    expect(JSON.parse(absent)).toMatchObject({ received: false, matches: false });
    const env = firstText(
      await call(plain, 'env-check', { name: 'FIXTURE_SECRET', sha256: sha256(SECRET) }),
    );
    expect(JSON.parse(env)).toMatchObject({ received: true, matches: true });
    expect(right + wrong + absent + env).not.toContain(SECRET);

    const first = await whoami(withHeader);
    const second = await whoami(plain);
    expect(first.pid).toBe(server.pid);
    expect(second.pid).toBe(server.pid);
    expect(first.session).not.toBe(second.session);
    expect(second.calls).toBe(first.calls + 1);

    await expectTimeout(
      plain.callTool({ name: 'slow', arguments: { ms: 20_000 } }, undefined, { timeout: 200 }),
    );
    await eventually(
      async () => ((await whoami(plain)).cancelled === 1 ? true : undefined),
      'the cancelled slow call to be counted',
      5_000,
    );
    expect(countPids(pidFile)).toBe(1);
  });

  it('crash ends the server process mid-call', async () => {
    const server = await startHttpFixture();
    cleanups.push(server.stop);
    started.push(server.pid);
    const transport = new StreamableHTTPClientTransport(new URL(server.url));
    const errors: Error[] = [];
    const client = await connect(transport);
    transport.onerror = (error) => errors.push(error);
    // Over HTTP the SDK client sees a failed fetch (a TypeError, not an McpError) and reports
    // it to onerror; onclose fires only when the client itself closes the transport.
    await expect(client.callTool({ name: 'crash', arguments: {} })).rejects.toThrow(/fetch failed/);
    expect(errors.length).toBeGreaterThan(0);
    await gone(server.pid);
    // A new connection is refused: nothing is listening on the port any more.
    await expect(connect(new StreamableHTTPClientTransport(new URL(server.url)))).rejects.toThrow();
  });

  it('stop() leaves no process behind', async () => {
    const server = await startHttpFixture();
    started.push(server.pid);
    expect(isRunning(server.pid)).toBe(true);
    await server.stop();
    expect(isRunning(server.pid)).toBe(false);
  });
});

describe('server-everything', () => {
  it('runs over stdio from node_modules', async () => {
    const transport = stdioTransport(everythingStdioCommand(), { EVERYTHING_MARKER: 'marker-7' });
    const client = await connect(transport);
    const pid = transport.pid!;
    started.push(pid);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toEqual(
      expect.arrayContaining([
        'echo',
        'get-env',
        'get-tiny-image',
        'trigger-long-running-operation',
      ]),
    );

    expect(firstText(await call(client, 'echo', { message: 'hi' }))).toBe('Echo: hi');
    const image = await call(client, 'get-tiny-image');
    expect(image.content.some((block) => block.type === 'image')).toBe(true);
    // get-env prints the whole environment: what a config entry's env gave it is visible.
    expect(firstText(await call(client, 'get-env'))).toContain('marker-7');
    await expectTimeout(
      client.callTool(
        { name: 'trigger-long-running-operation', arguments: { duration: 10, steps: 2 } },
        undefined,
        { timeout: 200 },
      ),
    );

    // A call still in flight keeps server-everything alive after stdin closes, so this close
    // takes the SDK's 2 s grace and a SIGTERM (idle, it exits on EOF at once).
    await client.close();
    await gone(pid);
  });

  it('runs in its Streamable HTTP mode on loopback', async () => {
    const server = await startEverythingHttp();
    cleanups.push(server.stop);
    started.push(server.pid);
    const client = await connect(new StreamableHTTPClientTransport(new URL(server.url)));
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('echo');
    expect(firstText(await call(client, 'echo', { message: 'hi' }))).toBe('Echo: hi');
    const reference = await call(client, 'get-resource-reference', {
      resourceType: 'Text',
      resourceId: 1,
    });
    expect(reference.content.map((block) => block.type)).toContain('resource');
    await client.close();
    await server.stop();
    expect(isRunning(server.pid)).toBe(false);
  });
});

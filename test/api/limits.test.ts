/**
 * Bounded requests: body size, task size, agent-name and id lengths are all checked
 * before the facade (and so Temporal) is called, and no answer echoes a long input back whole.
 * In-process app over the stub facade.
 */
import { describe, expect, it } from 'vitest';
import { jsonPost, makeApp } from './make-app.js';
import { startedD1 } from './stub-delegations.js';

const MIB = 1024 * 1024;
const TASK_LIMIT = 64 * 1024;

const facade = {
  start: startedD1,
};

/** A body streamed in chunks with no Content-Length, as a chunked upload arrives. */
function streamed(bytes: number, chunk = 64 * 1024): ReadableStream<Uint8Array> {
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (sent >= bytes) return controller.close();
      const size = Math.min(chunk, bytes - sent);
      controller.enqueue(new Uint8Array(size).fill(0x20));
      sent += size;
    },
  });
}

describe('request body limit: 1 MiB', () => {
  it('refuses a larger declared body with 413 before reading it', async () => {
    const { app, calls } = makeApp({ delegations: facade });
    const body = JSON.stringify({ agent: 'demo', task: 'x'.repeat(2.5 * MIB) });
    const response = await app.request(
      '/delegations',
      jsonPost(body, { 'content-length': String(Buffer.byteLength(body)) }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({
      error: 'payload_too_large',
      code: 'payload_too_large',
      message: `the request body is larger than the limit of ${MIB} bytes`,
    });
    expect(calls).toEqual([]);
  });

  it('refuses a larger streamed body with 413', async () => {
    const { app, calls } = makeApp({ delegations: facade });
    const response = await app.request(
      new Request('http://localhost/delegations', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: streamed(10 * MIB),
        duplex: 'half',
      } as RequestInit),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'payload_too_large' });
    expect(calls).toEqual([]);
  });

  it('reads a body just under the limit (and then judges the task)', async () => {
    const { app } = makeApp({ delegations: facade });
    const body = JSON.stringify({ agent: 'demo', task: 'x'.repeat(MIB - 100) });
    expect(Buffer.byteLength(body)).toBeLessThanOrEqual(MIB);
    const response = await app.request('/delegations', jsonPost(body));
    expect(response.status).toBe(422);
  });
});

describe('task limit: 64 KiB (UTF-8 bytes)', () => {
  it('takes a task of exactly the limit', async () => {
    const { app, calls } = makeApp({ delegations: facade });
    const response = await app.request(
      '/delegations',
      jsonPost({ agent: 'demo', task: 'x'.repeat(TASK_LIMIT) }),
    );
    expect(response.status).toBe(201);
    expect(calls).toHaveLength(1);
  });

  it('refuses one byte more with 422, naming the limit', async () => {
    const { app, calls } = makeApp({ delegations: facade });
    const response = await app.request(
      '/delegations',
      jsonPost({ agent: 'demo', task: 'x'.repeat(TASK_LIMIT + 1) }),
    );
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({
      error: 'invalid_request',
      issues: [
        { path: 'task', message: `the task is 65537 bytes; the limit is 65536 bytes (UTF-8)` },
      ],
    });
    expect(calls).toEqual([]);
  });

  it('counts bytes, not characters', async () => {
    const { app, calls } = makeApp({ delegations: facade });
    // 30,000 characters of 3 bytes each: under the limit in characters, over it in bytes.
    const response = await app.request(
      '/delegations',
      jsonPost({ agent: 'demo', task: '€'.repeat(30_000) }),
    );
    expect(response.status).toBe(422);
    expect(calls).toEqual([]);
  });

  it('refuses a 2.5 MB task with 413, not 500', async () => {
    const { app, errors } = makeApp({ delegations: facade });
    const response = await app.request(
      '/delegations',
      jsonPost({ agent: 'demo', task: 'x'.repeat(2.5 * 1000 * 1000) }),
    );
    expect(response.status).toBe(413);
    expect(errors).toEqual([]);
  });
});

describe('names and ids', () => {
  it('refuses an agent name over 128 characters without quoting it', async () => {
    const { app, calls } = makeApp({ delegations: facade });
    const agent = 'a'.repeat(100_000);
    const response = await app.request('/delegations', jsonPost({ agent, task: 'x' }));
    expect(response.status).toBe(422);
    const text = await response.text();
    expect(text).not.toContain('a'.repeat(200));
    expect(JSON.parse(text)).toMatchObject({ issues: [{ path: 'agent' }] });
    expect(calls).toEqual([]);
  });

  it.each([
    ['GET', '/delegations/'],
    ['GET', '/delegations/%s/events'],
    ['POST', '/delegations/%s/stop'],
  ])('%s %s: an over-long delegation id is 404, quoted clipped', async (method, pattern) => {
    const { app, calls } = makeApp();
    const id = `d-${'x'.repeat(10_000)}`;
    const path = pattern.includes('%s') ? pattern.replace('%s', id) : `${pattern}${id}`;
    const response = await app.request(path, { method });
    expect(response.status).toBe(404);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe('not_found');
    expect(body.message).toMatch(/^no delegation with id 'd-x{62}… \(10002 characters\)'$/);
    expect(calls).toEqual([]);
  });

  it.each(['d-ok.1x', 'no-dot', `d-${'y'.repeat(100)}.1`, 'd-ok.12345678901', "d-o'k.1"])(
    'a card id that cannot exist (%s) is 404 without a facade call',
    async (id) => {
      const { app, calls } = makeApp();
      const response = await app.request(
        `/cards/${encodeURIComponent(id)}`,
        jsonPost({ decision: 'approve' }),
      );
      expect(response.status).toBe(404);
      const body = (await response.json()) as { message: string };
      expect(body.message.length).toBeLessThan(150);
      expect(calls).toEqual([]);
    },
  );

  it('an over-long session is 422, quoted clipped', async () => {
    const { app, calls } = makeApp();
    const response = await app.request(`/sessions/${'s'.repeat(50_000)}/cards`);
    expect(response.status).toBe(422);
    expect((await response.text()).length).toBeLessThan(1000);
    expect(calls).toEqual([]);
  });

  it('clips what zod quotes: an unknown key as long as the body', async () => {
    const { app } = makeApp({ delegations: facade });
    const response = await app.request(
      '/delegations',
      jsonPost({ agent: 'demo', task: 'x', ['k'.repeat(500_000)]: 1 }),
    );
    expect(response.status).toBe(422);
    expect((await response.text()).length).toBeLessThan(2000);
  });

  it('clips the path of an unknown route', async () => {
    const { app } = makeApp();
    const response = await app.request(`/${'p'.repeat(100_000)}`);
    expect(response.status).toBe(404);
    expect((await response.text()).length).toBeLessThan(1000);
  });
});

describe('no work left behind', () => {
  it('a HEAD on the event stream opens no stream (nobody would read it)', async () => {
    let polls = 0;
    const { app } = makeApp({
      delegations: {
        get: async () => ({ pendingCards: [], result: null }) as never,
        events: async () => {
          polls += 1;
          return [];
        },
      },
    });
    const response = await app.request('/delegations/d-1/events', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    // The stream polls every 300 ms; a second is time for three polls if one had been opened.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    expect(polls).toBe(0);
  });
});

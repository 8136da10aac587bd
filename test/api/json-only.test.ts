/**
 * Bodies must be JSON: the content types a web page can send cross-site without a CORS
 * preflight are refused with 415 before any route runs. In-process app over the stub facade.
 */
import { describe, expect, it } from 'vitest';
import { jsonPost, makeApp } from './make-app.js';
import { startedD1 } from './stub-delegations.js';

const facade = {
  start: startedD1,
  stop: async () => ({ stopped: true as const }),
  decide: async () => ({ id: 'd-1.1' }) as never,
};
const startBody = JSON.stringify({ agent: 'demo', task: 'say hi' });

describe('POST bodies must be JSON', () => {
  it.each([
    ['text/plain', startBody],
    ['text/plain;charset=UTF-8', startBody],
    ['application/x-www-form-urlencoded', 'agent=demo&task=hi'],
    ['multipart/form-data; boundary=x', '--x\r\n\r\nhi\r\n--x--'],
    ['application/jsonp', startBody],
    ['application/json-seq', startBody],
    ['text/json', startBody],
  ])('refuses %s with 415 and starts nothing', async (type, body) => {
    const { app, calls } = makeApp({ delegations: facade });
    const response = await app.request('/delegations', {
      method: 'POST',
      headers: { 'content-type': type },
      body,
    });
    expect(response.status).toBe(415);
    const answer = (await response.json()) as { error: string; message: string };
    expect(answer.error).toBe('unsupported_media_type');
    expect(answer.message).toContain('Content-Type: application/json');
    expect(answer.message).toContain(type);
    expect(calls).toEqual([]);
  });

  it('refuses a body sent with no Content-Type', async () => {
    const { app, calls } = makeApp({ delegations: facade });
    const request = new Request('http://localhost/cards/d-1.1', {
      method: 'POST',
      body: new Blob([JSON.stringify({ decision: 'approve' })]),
    });
    expect(request.headers.get('content-type')).toBeNull();
    const response = await app.request(request);
    expect(response.status).toBe(415);
    expect(await response.json()).toMatchObject({ message: /no Content-Type/ });
    expect(calls).toEqual([]);
  });

  it('refuses a foreign type even on a bodyless stop', async () => {
    const { app, calls } = makeApp({ delegations: facade });
    const response = await app.request('/delegations/d-1/stop', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(415);
    expect(calls).toEqual([]);
  });

  it.each(['application/json', 'application/json; charset=utf-8', 'Application/JSON'])(
    'accepts %s',
    async (type) => {
      const { app } = makeApp({ delegations: facade });
      const response = await app.request('/delegations', {
        method: 'POST',
        headers: { 'content-type': type },
        body: startBody,
      });
      expect(response.status).toBe(201);
    },
  );

  it('accepts a stop with no body and no type', async () => {
    const { app } = makeApp({ delegations: facade });
    const response = await app.request('/delegations/d-1/stop', { method: 'POST' });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ stopped: true });
  });

  it('does not look at GET requests', async () => {
    const { app } = makeApp({ delegations: { list: async () => [] } });
    const response = await app.request('/delegations', {
      headers: { 'content-type': 'text/plain' },
    });
    expect(response.status).toBe(200);
  });

  it('checks the type before the body is parsed', async () => {
    const { app } = makeApp({ delegations: facade });
    const json = await app.request('/delegations', jsonPost('{broken'));
    expect(json.status).toBe(400);
    const plain = await app.request('/delegations', {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: '{broken',
    });
    expect(plain.status).toBe(415);
  });
});

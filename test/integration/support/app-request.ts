/** One in-process request to the API app, timed: what the "answers within a bound" tests read. */
import { createApp } from '../../../src/api/app.js';
import { createAuth } from '../../../src/api/http/auth.js';
import type { Harness } from './harness.js';

type App = ReturnType<typeof createApp>;

/** The API app over a harness's facade and configuration, auth off: what `deputy api` serves. */
export function apiOf(harness: Pick<Harness, 'delegations' | 'config'>): App {
  return createApp({
    delegations: harness.delegations,
    config: harness.config,
    auth: createAuth({}),
  });
}

export async function timedRequest(app: App, method: string, path: string, body?: unknown) {
  const began = Date.now();
  const response = await app.request(path, {
    method,
    ...(body === undefined
      ? {}
      : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
  });
  const answer = (await response.json()) as Record<string, unknown>;
  return { status: response.status, body: answer, ms: Date.now() - began };
}

/**
 * `call(method, path, body?)` against a served API: JSON in, status and parsed JSON body out
 * (an empty body reads as `{}`).
 */
export function jsonCaller(baseUrl: () => string) {
  return async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl()}${path}`, {
      method,
      ...(body === undefined
        ? {}
        : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
    });
    const text = await response.text();
    return {
      status: response.status,
      body: (text === '' ? {} : JSON.parse(text)) as Record<string, unknown>,
    };
  };
}

/** One in-process request to the API app, timed: what the "answers within a bound" tests read. */
import type { createApp } from '../../../src/api/app.js';

type App = ReturnType<typeof createApp>;

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

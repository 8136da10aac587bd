/**
 * A refusal from the definition registry that reaches a route answers the status and body
 * docs/http-api.md lists under Errors, never a 500. The registry is real (temp directories); the route is the delegation start route,
 * whose stubbed facade runs the registry operation, so the error crosses Hono's error handler
 * exactly as one thrown by an authoring route would.
 */
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import type { Logger } from '../../src/api/http/errors.js';
import type { DefinitionRegistry } from '../../src/definitions/registry/registry.js';
import { loadConfig } from '../../src/config/load.js';
import { agentFile, useTempRegistries } from '../definitions/support.js';
import { stubDelegations } from './stub-delegations.js';

const temp = useTempRegistries();

/** Sends one start request whose handling runs `operation` against a loaded registry. */
async function answerTo(operation: (registry: DefinitionRegistry) => Promise<unknown>) {
  await temp.layout.write(join(temp.layout.dirs.builtin, 'guide.md'), agentFile('guide'));
  const registry = await temp.load();
  const errors: unknown[] = [];
  const logger: Logger = { error: (...args) => errors.push(args), warn: () => {}, info: () => {} };
  const { delegations } = stubDelegations({
    start: async () => {
      await operation(registry);
      throw new Error('the operation was expected to be refused');
    },
  });
  const app = createApp({
    delegations,
    config: loadConfig({ workspace: temp.layout.config.workspace }, {}),
    auth: createAuth({}),
    logger,
  });
  const response = await app.request('/delegations', {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ agent: 'guide', task: 'x' }),
  });
  return { status: response.status, body: (await response.json()) as unknown, errors };
}

describe('definition refusals through a route', () => {
  it('answers an invalid definition with 422 invalid_config and every issue', async () => {
    const answer = await answerTo((registry) =>
      registry.create('project', { name: 'Bad Name', description: '', maxTurns: -1 }, 'x'),
    );
    expect(answer.status).toBe(422);
    const body = answer.body as { error: string; issues: { path: string; message: string }[] };
    expect(body.error).toBe('invalid_config');
    expect(body.issues.map((issue) => issue.path).sort()).toEqual([
      'description',
      'maxTurns',
      'name',
    ]);
    expect(body.issues.every((issue) => typeof issue.message === 'string')).toBe(true);
    expect(answer.errors).toEqual([]);
  });

  it('answers a change to a built-in with 403 agent_readonly and a message', async () => {
    const answer = await answerTo((registry) => registry.delete('guide'));
    expect(answer.status).toBe(403);
    expect(answer.body).toEqual({
      error: 'agent_readonly',
      code: 'agent_readonly',
      message:
        "'guide' is a built-in agent and cannot be changed through the API; cannot delete it",
    });
    expect(answer.errors).toEqual([]);
  });

  it('answers a built-in name collision with 409 and an unknown agent with 404', async () => {
    const collision = await answerTo((registry) =>
      registry.create('user', { name: 'guide', description: 'd' }, 'x'),
    );
    expect(collision.status).toBe(409);
    expect(collision.body).toMatchObject({ error: 'agent_name_reserved' });
    const unknown = await answerTo((registry) => registry.update('ghost', { description: 'x' }));
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      error: 'agent_not_found',
      code: 'agent_not_found',
      message: "no agent named 'ghost'",
    });
    expect([...collision.errors, ...unknown.errors]).toEqual([]);
  });
});

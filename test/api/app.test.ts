import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import type { Logger } from '../../src/api/http/errors.js';
import { loadConfig } from '../../src/config/load.js';
import { type DeputyConfig } from '../../src/config/schema.js';
import { DeputyError } from '../../src/errors.js';
import type { DelegationState } from '../../src/shared/delegation.js';
import type { Delegations } from '../../src/temporal/delegations/facade.js';
import { startedD1, stubDelegations } from './stub-delegations.js';

const config: DeputyConfig = loadConfig(
  { workspace: mkdtempSync(join(tmpdir(), 'deputy-api-')) },
  {},
);

function recordingLogger(): Logger & { errors: unknown[] } {
  const errors: unknown[] = [];
  return {
    errors,
    error: (message, error) => errors.push([message, error]),
    warn: () => {},
    info: () => {},
  };
}

function appWith(overrides: Partial<Delegations> = {}, authConfig?: DeputyConfig['auth']) {
  const stub = stubDelegations(overrides);
  const logger = recordingLogger();
  const auth = createAuth(
    { auth: authConfig },
    { DEPUTY_TEST_TOKEN: 'tok-admin-123', OPS_TOKEN: 'tok-ops-456' },
  );
  const app = createApp({ delegations: stub.delegations, config, auth, logger });
  return { app, calls: stub.calls, logger };
}

const post = (body: unknown, headers: Record<string, string> = {}) => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

const started = {
  start: startedD1,
};

describe('routing', () => {
  it('answers /health', async () => {
    const { app } = appWith();
    const response = await app.request('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      ok: true,
      auth: false,
      temporal: 'reachable',
      config: { ok: true },
      mcpJson: { ok: true },
    });
  });

  it('answers an unknown route with a JSON 404', async () => {
    const { app } = appWith();
    const response = await app.request('/nope');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ error: 'not_found' });
  });

  it('starts a delegation with defaults and answers 201', async () => {
    const { app, calls } = appWith(started);
    const response = await app.request(
      '/delegations',
      post({ agent: 'demo', task: 'say hi', unattended: true }),
    );
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({
      delegationId: 'd-1',
      status: 'running',
      result: null,
    });
    expect(calls[0]?.args[0]).toEqual({
      agent: 'demo',
      task: 'say hi',
      session: 'default',
      caller: { id: null, roles: [] },
      options: { unattended: 'deny' },
    });
  });

  it('answers 404 for an agent the definitions do not know', async () => {
    const stub = stubDelegations(started);
    const app = createApp({
      delegations: stub.delegations,
      config,
      auth: createAuth({}),
      agentNames: () => ['demo'],
    });
    const response = await app.request('/delegations', post({ agent: 'ghost', task: 'x' }));
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({
      error: 'not_found',
      code: 'not_found',
      message: "no agent named 'ghost' (known agents: demo)",
    });
    expect(stub.calls).toHaveLength(0);
    expect((await app.request('/delegations', post({ agent: 'demo', task: 'x' }))).status).toBe(
      201,
    );
  });

  it('waits for the result with ?wait=true', async () => {
    const result = { status: 'completed', text: 'done', notice: null, roundsUsed: 1 };
    const { app } = appWith({
      ...started,
      settle: async () => ({ status: 'finished', result }) as never,
    });
    const response = await app.request(
      '/delegations?wait=true',
      post({ agent: 'demo', task: 'x' }),
    );
    expect(response.status).toBe(201);
    expect(await response.json()).toMatchObject({ status: 'completed', result });
  });

  it('passes list filters through', async () => {
    const { app, calls } = appWith({ list: async () => [] });
    const response = await app.request('/delegations?session=s1&agent=demo&status=parked');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ delegations: [] });
    expect(calls[0]?.args[0]).toEqual({ session: 's1', agent: 'demo', status: 'parked' });
  });

  it('decides a card with the caller as decider', async () => {
    const card = { id: 'd-1.1' };
    const { app, calls } = appWith({ decide: async () => card as never });
    const response = await app.request('/cards/d-1.1', post({ decision: 'deny', reason: 'no' }));
    expect(response.status).toBe(200);
    expect(calls[0]?.args).toEqual(['d-1.1', { decision: 'deny', reason: 'no', decidedBy: null }]);
  });
});

describe('validation', () => {
  it('answers 422 with issues for a bad start body', async () => {
    const { app, calls } = appWith(started);
    const response = await app.request(
      '/delegations',
      post({ agent: 'Bad Name', task: '   ', extra: 1 }),
    );
    expect(response.status).toBe(422);
    const body = (await response.json()) as {
      error: string;
      issues: { path: string; message: string }[];
    };
    expect(body.error).toBe('invalid_request');
    const paths = body.issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['agent', 'task']));
    expect(body.issues.every((issue) => typeof issue.message === 'string')).toBe(true);
    expect(calls).toHaveLength(0);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const { app } = appWith(started);
    const response = await app.request('/delegations', post('{not json'));
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({
      error: 'invalid_json',
      message: 'the request body is not valid JSON',
    });
  });

  it('answers 422 for a bad decision and a bad list filter', async () => {
    const { app } = appWith();
    const decide = await app.request('/cards/d-1.1', post({ decision: 'maybe' }));
    expect(decide.status).toBe(422);
    expect(await decide.json()).toMatchObject({ issues: [{ path: 'decision' }] });
    const list = await app.request('/delegations?status=sleeping');
    expect(list.status).toBe(422);
    expect(await list.json()).toMatchObject({ issues: [{ path: 'status' }] });
  });

  it('answers 422 for a session id outside the id alphabet', async () => {
    const { app } = appWith();
    const response = await app.request(`/sessions/${encodeURIComponent("x' OR 1=1")}/cards`);
    expect(response.status).toBe(422);
    expect(await response.json()).toMatchObject({ issues: [{ path: 'session' }] });
  });
});

describe('error mapping', () => {
  it.each([
    ['not-found', 404, 'not_found'],
    ['conflict', 409, 'conflict'],
    ['forbidden', 403, 'forbidden'],
    ['unauthorized', 401, 'unauthorized'],
    ['unavailable', 503, 'unavailable'],
  ] as const)('maps %s to %i', async (kind, status, code) => {
    const { app } = appWith({
      decide: async () => {
        throw new DeputyError(kind, `card says ${kind}`);
      },
    });
    const response = await app.request('/cards/d-1.1', post({ decision: 'approve' }));
    expect(response.status).toBe(status);
    expect(await response.json()).toEqual({
      error: code,
      code: code,
      message: `card says ${kind}`,
    });
  });

  it('answers an unknown error with a logged 500 that leaks nothing', async () => {
    const secret = 'grpc dial 10.1.2.3:7233 failed token=abc';
    const { app, logger } = appWith({
      get: async () => {
        throw new Error(secret);
      },
    });
    const response = await app.request('/delegations/d-1');
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({ error: 'internal' });
    expect(text).not.toContain('7233');
    expect(logger.errors).toHaveLength(1);
  });
});

describe('event stream failures', () => {
  it('ends a failing stream with a bare internal error event, never the raw message', async () => {
    const secret = 'grpc dial 10.1.2.3:7233 failed token=abc';
    // A state whose pending cards cannot be read breaks the first send, inside the stream.
    const broken = {
      get pendingCards(): never {
        throw new Error(secret);
      },
      result: null,
    };
    const failing = appWith({
      get: async () => broken as unknown as DelegationState,
      events: async () => [],
    });
    const response = await failing.app.request('/delegations/d-1/events');
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('event: error');
    expect(text).toContain('{"error":"internal"}');
    expect(text).not.toContain('7233');
    expect(failing.logger.errors).toHaveLength(1);
  });
});

describe('auth', () => {
  const authConfig = {
    tokens: {
      DEPUTY_TEST_TOKEN: { user: 'alice', roles: ['admin'] },
      OPS_TOKEN: { user: 'bob', roles: ['ops'] },
      MISSING_TOKEN: { user: 'carol', roles: [] },
    },
  };

  it('refuses a request without a token with 401', async () => {
    const { app, calls } = appWith(started, authConfig);
    const response = await app.request('/delegations', post({ agent: 'demo', task: 'x' }));
    expect(response.status).toBe(401);
    expect(response.headers.get('WWW-Authenticate')).toBe('Bearer');
    expect(await response.json()).toMatchObject({ error: 'unauthorized' });
    expect(calls).toHaveLength(0);
  });

  it('refuses a wrong token with 401 and never echoes it', async () => {
    const { app } = appWith({ list: async () => [] }, authConfig);
    const response = await app.request('/delegations', {
      headers: { Authorization: 'Bearer tok-wrong-999' },
    });
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain('tok-wrong-999');
  });

  it('puts the authenticated caller into the delegation', async () => {
    const { app, calls } = appWith(started, authConfig);
    const response = await app.request(
      '/delegations',
      post({ agent: 'demo', task: 'x' }, { Authorization: 'Bearer tok-ops-456' }),
    );
    expect(response.status).toBe(201);
    expect(await response.text()).not.toContain('tok-ops-456');
    expect((calls[0]?.args[0] as { caller: unknown }).caller).toEqual({
      id: 'bob',
      roles: ['ops'],
    });
  });

  it('records the deciding user on a card', async () => {
    const { app, calls } = appWith({ decide: async () => ({ id: 'd-1.1' }) as never }, authConfig);
    await app.request(
      '/cards/d-1.1',
      post({ decision: 'approve' }, { Authorization: 'bearer tok-admin-123' }),
    );
    expect(calls[0]?.args[1]).toMatchObject({ decidedBy: 'alice' });
  });

  it('keeps /health and /openapi.json public', async () => {
    const { app } = appWith({}, authConfig);
    expect((await app.request('/health')).status).toBe(200);
    expect((await app.request('/openapi.json')).status).toBe(200);
  });

  it('warns about a token variable that is not set, without any token value', () => {
    const auth = createAuth({ auth: authConfig }, { DEPUTY_TEST_TOKEN: 'tok-admin-123' });
    expect(auth.warnings.join('\n')).toContain('OPS_TOKEN');
    expect(auth.warnings.join('\n')).not.toContain('tok-admin-123');
  });

  it('refuses everything when auth is configured but no token is usable', () => {
    const auth = createAuth({ auth: { tokens: {} } }, {});
    expect(auth.enabled).toBe(true);
    expect(() => auth.authenticate('Bearer anything')).toThrow(DeputyError);
  });
});

import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import {
  AgentLevelQuerySchema,
  CreateAgentBodySchema,
  DuplicateAgentBodySchema,
  UpdateAgentBodySchema,
} from '../../src/api/agents/schemas.js';
import { CardsQuerySchema } from '../../src/api/cards/query.js';
import { CheckAgentBodySchema } from '../../src/api/agents/check-schemas.js';
import { GenerateAgentBodySchema, GenerateBodySchema } from '../../src/api/generate/schemas.js';
import { McpTrustBodySchema } from '../../src/mcp-client/mcp-view-schemas.js';
import { componentSchemas, COMPONENT_PREFIX } from '../../src/api/openapi/parts.js';
import { DecideCardBodySchema } from '../../src/asks/decision-body.js';
import { DecideCardsBodySchema } from '../../src/api/cards/batch-schemas.js';
import {
  ListDelegationsQuerySchema,
  ForkDelegationBodySchema,
  StartDelegationBodySchema,
  StartDelegationQuerySchema,
} from '../../src/api/delegations/schemas.js';
import { EventsQuerySchema } from '../../src/api/http/fields.js';
import {
  ListSessionsQuerySchema,
  SendMessageBodySchema,
  StartSessionBodySchema,
} from '../../src/api/sessions/schemas.js';
import { DirectoriesQuerySchema } from '../../src/api/workspace/schemas.js';
import { DeputyError } from '../../src/errors.js';
import type { DelegationResult, DelegationState, DeniedCall } from '../../src/shared/delegation.js';
import type {
  DelegationSummary,
  Delegations,
  RecordedDecision,
} from '../../src/temporal/delegations/facade.js';
import { jsonPost, makeApp } from './make-app.js';
import { cardOfD1, startedD1 } from './stub-delegations.js';
import {
  ResumeDelegationBodySchema,
  SendDelegationMessageBodySchema,
} from '../../src/api/delegations/steering-schemas.js';
import {
  CreateScheduleBodySchema,
  PauseScheduleBodySchema,
} from '../../src/api/schedules/schemas.js';

type Schema = Record<string, unknown>;
interface Operation {
  parameters?: { name: string; in: string; required: boolean; schema: Schema }[];
  requestBody?: { content: Record<string, { schema: Schema }> };
  responses: Record<string, { content?: Record<string, { schema: Schema }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Schema> };
}

async function documentOf(app: ReturnType<typeof makeApp>['app']): Promise<Document> {
  const response = await app.request('/openapi.json');
  expect(response.status).toBe(200);
  return (await response.json()) as Document;
}

const operations = (document: Document) =>
  Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      route: `${method.toUpperCase()} ${path}`,
      path,
      operation,
    })),
  );

/** What the test expects a zod schema to become: the validating schema, as the caller sends. */
function generated(schema: z.ZodType): Schema {
  const expected = z.toJSONSchema(schema, { io: 'input' }) as Schema;
  delete expected.$schema;
  return expected;
}

/** The routes whose body is validated, with the schema that validates it. */
const REQUEST_BODIES: Record<string, z.ZodType> = {
  'POST /delegations': StartDelegationBodySchema,
  'POST /delegations/{id}/fork': ForkDelegationBodySchema,
  'POST /delegations/{id}/messages': SendDelegationMessageBodySchema,
  'POST /delegations/{id}/resume': ResumeDelegationBodySchema,
  'POST /cards/{id}': DecideCardBodySchema,
  'POST /cards/decisions': DecideCardsBodySchema,
  'POST /sessions': StartSessionBodySchema,
  'POST /sessions/{id}/messages': SendMessageBodySchema,
  'POST /workspace/agents': CreateAgentBodySchema,
  'POST /workspace/agents/{name}': UpdateAgentBodySchema,
  'PATCH /workspace/agents/{name}': UpdateAgentBodySchema,
  'POST /workspace/agents/{name}/duplicate': DuplicateAgentBodySchema,
  'POST /workspace/generate': GenerateBodySchema,
  'POST /workspace/agents/generate': GenerateAgentBodySchema,
  'POST /workspace/agents/check': CheckAgentBodySchema,
  'POST /workspace/mcp/{server}/trust': McpTrustBodySchema,
  'POST /schedules': CreateScheduleBodySchema,
  'POST /schedules/{name}/pause': PauseScheduleBodySchema,
};

/** The routes that validate a query, with the schema that does. */
const QUERIES: Record<string, z.ZodObject> = {
  'POST /delegations': StartDelegationQuerySchema,
  'GET /delegations': ListDelegationsQuerySchema,
  'GET /delegations/{id}/events': EventsQuerySchema,
  'GET /sessions': ListSessionsQuerySchema,
  'GET /sessions/{id}/events': EventsQuerySchema,
  'GET /cards': CardsQuerySchema,
  'GET /cards/events': CardsQuerySchema,
  'GET /workspace/agents/{name}': AgentLevelQuerySchema,
  'POST /workspace/agents/{name}': AgentLevelQuerySchema,
  'PATCH /workspace/agents/{name}': AgentLevelQuerySchema,
  'DELETE /workspace/agents/{name}': AgentLevelQuerySchema,
  'GET /workspace/directories': DirectoriesQuerySchema,
};

describe('OpenAPI document', () => {
  const { app } = makeApp();

  it('lists exactly the registered routes, the reference page included', async () => {
    const document = await documentOf(app);
    expect(document.openapi).toBe('3.1.0');
    const documented = operations(document)
      .map(({ route }) => route)
      .sort();
    const registered = [
      ...new Set(
        app.routes
          .filter((route) => route.method !== 'ALL')
          .map((route) => `${route.method} ${route.path.replace(/:(\w+)/g, '{$1}')}`),
      ),
    ].sort();
    // A route without path items: add its module's to ROUTE_PATHS in src/api/openapi/document.ts.
    expect(documented, 'documented routes vs registered routes').toEqual(registered);
    expect(documented).toEqual(expect.arrayContaining(['GET /docs', 'GET /docs/assets/{file}']));
  });

  it('is a valid OpenAPI 3.1 document whose $refs all resolve', async () => {
    const document = await documentOf(app);
    const result = await new Validator().validate(
      structuredClone(document) as unknown as Record<string, unknown>,
    );
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const refs = [...JSON.stringify(document).matchAll(/"\$ref":"([^"]+)"/g)].map(
      (match) => match[1],
    );
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) {
      expect(ref?.startsWith(COMPONENT_PREFIX), ref).toBe(true);
      expect(document.components.schemas[ref!.slice(COMPONENT_PREFIX.length)], ref).toBeDefined();
    }
  });

  it('documents each request body as the zod schema that validates it', async () => {
    const withBody = operations(await documentOf(app)).filter(
      ({ operation }) => operation.requestBody !== undefined,
    );
    expect(withBody.map(({ route }) => route).sort()).toEqual(Object.keys(REQUEST_BODIES).sort());
    for (const { route, operation } of withBody) {
      const documented = operation.requestBody?.content['application/json']?.schema;
      expect(documented, route).toEqual(generated(REQUEST_BODIES[route]!));
    }
  });

  it('documents each query parameter and path parameter the route reads', async () => {
    for (const { route, path, operation } of operations(await documentOf(app))) {
      const parameters = operation.parameters ?? [];
      const query = parameters.filter((parameter) => parameter.in === 'query');
      const schema = QUERIES[route];
      expect(
        query.map((parameter) => parameter.name),
        route,
      ).toEqual(schema === undefined ? [] : Object.keys(schema.shape));
      for (const parameter of query) {
        const property = schema!.shape[parameter.name] as z.ZodType;
        expect(parameter.schema, `${route} ?${parameter.name}`).toEqual(generated(property));
        expect(parameter.required, `${route} ?${parameter.name}`).toBe(!property.isOptional());
      }
      const inPath = [...path.matchAll(/\{(\w+)\}/g)].map((match) => match[1]);
      const documentedInPath = parameters.filter((parameter) => parameter.in === 'path');
      expect(
        documentedInPath.map((parameter) => parameter.name),
        route,
      ).toEqual(inPath);
    }
  });

  it('names every component after a registered zod schema', async () => {
    const document = await documentOf(app);
    expect(Object.keys(document.components.schemas).sort()).toEqual(
      [...componentSchemas().keys()].sort(),
    );
  });
});

/** Facade answers, typed by the facade's contract: what a real delegation returns. */
const deniedCall: DeniedCall = { tool: 'write', by: 'human', reason: 'not now' };
const result: DelegationResult = {
  status: 'completed',
  text: 'done',
  notice: null,
  roundsUsed: 2,
  deniedCalls: [deniedCall],
};
const state: DelegationState = {
  delegationId: 'd-1',
  workflowId: 'delegation/default/d-1',
  agent: 'demo',
  session: 'default',
  status: 'parked',
  roundsUsed: 1,
  maxTurns: 10,
  model: 'scripted:demo.yaml',
  definitionHash: 'ab'.repeat(32),
  pendingCards: [cardOfD1('d-1.2', 'write')],
  decidedCards: [cardOfD1('d-1.1', 'read', 'approved')],
  transcriptSummary: ['user: Say hello'],
  deniedCalls: [deniedCall],
  result: null,
};
const summary: DelegationSummary = {
  delegationId: 'd-1',
  workflowId: 'delegation/default/d-1',
  agent: 'demo',
  session: 'default',
  status: 'completed',
  pendingCards: 0,
  task: 'Say hello',
  tokens: 1515,
  startedAt: '2026-01-01T00:00:00.000Z',
  closedAt: '2026-01-01T00:00:05.000Z',
};
const recorded: RecordedDecision = {
  status: 'recorded',
  card: cardOfD1('d-1.2', 'write'),
  decision: { cardId: 'd-1.2', decision: 'deny', reason: 'no', decidedBy: 'alice' },
  message: 'deny of card d-1.2 recorded',
};
const unavailable = async () => {
  throw new DeputyError('unavailable', 'Temporal is not reachable (test)');
};

interface AnswerCase {
  name: string;
  path: string;
  init?: RequestInit;
  stubs?: Partial<Delegations>;
  status: number;
}

const START = jsonPost({ agent: 'demo', task: 'Say hello' });
const ANSWERS: AnswerCase[] = [
  { name: 'ready', path: '/health', status: 200 },
  { name: 'Temporal down', path: '/health', stubs: { ping: unavailable }, status: 503 },
  { name: 'the document', path: '/openapi.json', status: 200 },
  { name: 'started', path: '/delegations', init: START, stubs: { start: startedD1 }, status: 201 },
  {
    name: 'started and finished',
    path: '/delegations?wait=true',
    init: START,
    stubs: { start: startedD1, settle: async () => ({ status: 'finished', result }) },
    status: 201,
  },
  {
    name: 'started and parked',
    path: '/delegations?wait=true',
    init: START,
    stubs: { start: startedD1, settle: async () => ({ status: 'parked', state }) },
    status: 202,
  },
  {
    name: 'started, no worker',
    path: '/delegations?wait=true',
    init: START,
    stubs: {
      start: startedD1,
      settle: async () => ({
        status: 'running',
        state: { ...state, status: 'running', pendingCards: [] },
        message: 'no worker is running for task queue deputy-delegations',
      }),
    },
    status: 202,
  },
  { name: 'a bad body', path: '/delegations', init: jsonPost({ agent: 'demo' }), status: 422 },
  { name: 'listed', path: '/delegations', stubs: { list: async () => [summary] }, status: 200 },
  { name: 'its state', path: '/delegations/d-1', stubs: { get: async () => state }, status: 200 },
  {
    name: 'unknown',
    path: '/delegations/d-2',
    stubs: {
      get: async () => {
        throw new DeputyError('not-found', 'no delegation with id d-2');
      },
    },
    status: 404,
  },
  { name: 'Temporal down', path: '/delegations/d-1', stubs: { get: unavailable }, status: 503 },
  {
    name: 'stopped',
    path: '/delegations/d-1/stop',
    init: { method: 'POST' },
    stubs: { stop: async () => ({ stopped: true }) },
    status: 200,
  },
  {
    name: 'already finished',
    path: '/delegations/d-1/stop',
    init: { method: 'POST' },
    stubs: { stop: async () => ({ alreadyFinished: true, status: 'completed' }) },
    status: 200,
  },
  {
    name: 'pending cards',
    path: '/sessions/default/cards',
    stubs: { cards: async () => [cardOfD1('d-1.2', 'write')] },
    status: 200,
  },
  {
    name: 'decided',
    path: '/cards/d-1.2',
    init: jsonPost({ decision: 'approve' }),
    stubs: { decide: async () => cardOfD1('d-1.2', 'write', 'approved') },
    status: 200,
  },
  {
    name: 'recorded',
    path: '/cards/d-1.2',
    init: jsonPost({ decision: 'deny', reason: 'no' }),
    stubs: { decide: async () => recorded },
    status: 202,
  },
];

describe('the documented answers are the answers the routes give', () => {
  const documentOnce = documentOf(makeApp().app);

  it.each(ANSWERS)('$path: $name ($status)', async (answer) => {
    const document = await documentOnce;
    const { app } = makeApp(answer.stubs === undefined ? {} : { delegations: answer.stubs });
    const response = await app.request(answer.path, answer.init);
    expect(response.status).toBe(answer.status);
    const method = (answer.init?.method ?? 'GET').toLowerCase();
    const path = answer.path
      .split('?')[0]!
      .replace(/^\/(delegations|sessions|cards)\/[^/]+/, '/$1/{id}');
    const documented =
      document.paths[path]?.[method]?.responses[String(answer.status)]?.content?.[
        'application/json'
      ]?.schema;
    const ref = String(documented?.$ref);
    const schema = componentSchemas().get(ref.slice(COMPONENT_PREFIX.length));
    expect(schema, `documented schema of ${method} ${path} ${answer.status}: ${ref}`).toBeDefined();
    const body: unknown = await response.json();
    // Parsing strips what the schema does not name: equal means no field missing or extra.
    expect(schema!.parse(body)).toEqual(body);
  });
});

describe('GET /docs, the interactive reference', () => {
  const origin = 'http://localhost';

  it('answers an HTML page under a restrictive Content-Security-Policy', async () => {
    const { app } = makeApp();
    const response = await app.request('/docs');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/html\b/);
    const policy = response.headers.get('content-security-policy') ?? '';
    for (const directive of [
      "default-src 'none'",
      "script-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "frame-ancestors 'none'",
    ]) {
      expect(policy).toContain(directive);
    }
    expect(policy).not.toMatch(/unsafe-|https?:|\*/);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('references no other origin, and every script and style it loads is served here', async () => {
    const { app } = makeApp();
    const html = await (await app.request('/docs')).text();
    expect(html).not.toMatch(/https?:\/\//i);
    expect(html).not.toMatch(/<script>|<style|\sstyle=/i);
    const references = [...html.matchAll(/\s(?:src|href)="([^"]*)"/g)].map((match) => match[1]!);
    const loaded = references.filter((reference) => !reference.startsWith('data:'));
    expect(loaded.length).toBeGreaterThanOrEqual(3);
    const types = new Set<string>();
    for (const reference of loaded) {
      // Relative, not `/x` or `//host/x`: the page also works under a proxy's path prefix.
      expect(reference, reference).toMatch(/^[a-z]/i);
      expect(reference, reference).not.toMatch(/^[a-z][a-z0-9+.-]*:/i);
      const url = new URL(reference, `${origin}/docs`);
      const asset = await app.request(url.pathname);
      expect(asset.status, reference).toBe(200);
      const type = asset.headers.get('content-type') ?? '';
      expect(type, reference).toMatch(
        reference.endsWith('.css') ? /^text\/css\b/ : /^text\/javascript\b/,
      );
      expect(asset.headers.get('x-content-type-options'), reference).toBe('nosniff');
      expect((await asset.text()).length, reference).toBeGreaterThan(0);
      types.add(type.split(';')[0]!);
    }
    expect([...types].sort()).toEqual(['text/css', 'text/javascript']);
  });

  it('points Swagger UI at this server only', async () => {
    const { app } = makeApp();
    const script = await (await app.request('/docs/assets/start.js')).text();
    expect(script).toContain("url: 'openapi.json'");
    expect(script).toContain('validatorUrl: null');
    expect(script).not.toMatch(/https?:\/\//i);
  });

  it('answers an unchanged asset with 304 for its ETag', async () => {
    const { app } = makeApp();
    const first = await app.request('/docs/assets/swagger-ui.css');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[\w-]+"$/);
    const again = await app.request('/docs/assets/swagger-ui.css', {
      headers: { 'If-None-Match': etag! },
    });
    expect(again.status).toBe(304);
  });

  it('is public with auth on, like /openapi.json; anything else under /docs is not', async () => {
    const { app } = makeApp({ auth: true });
    expect((await app.request('/docs')).status).toBe(200);
    expect((await app.request('/docs/assets/swagger-ui-bundle.js')).status).toBe(200);
    expect((await app.request('/openapi.json')).status).toBe(200);
    expect((await app.request('/docs/assets/package.json')).status).toBe(401);
    expect((await app.request('/docs/other')).status).toBe(401);
  });

  it('serves only its listed assets, with GET, behind the host guard', async () => {
    const { app } = makeApp();
    for (const name of ['package.json', '..%2Fpackage.json', 'swagger-ui.js', '__proto__']) {
      const response = await app.request(`/docs/assets/${name}`);
      expect(response.status, name).toBe(404);
      expect(await response.json(), name).toMatchObject({ error: 'not_found' });
    }
    expect((await app.request('/docs', { method: 'POST' })).status).toBe(404);
    const rebound = await app.request('http://evil.example/docs');
    expect(rebound.status).toBe(421);
  });
});

/**
 * The OpenAPI 3.1 description of the API (API-8). Written next to the routes and checked
 * against the app's registered routes by test/api/openapi.test.ts, so the two cannot drift.
 * Request bodies come from the same zod schemas that validate them.
 */
import { z } from 'zod';
import { MAX_BODY_BYTES } from './body-limit.js';
import {
  DecideCardBodySchema,
  DelegationStatusSchema,
  StartDelegationBodySchema,
} from './schemas.js';

type JsonSchema = Record<string, unknown>;

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

const json = (schema: JsonSchema, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});

const errors = {
  '401': json(ref('Error'), 'Missing or invalid bearer token (when auth is configured)'),
  '403': json(
    ref('Error'),
    '`forbidden`: a request from a foreign web origin (`Origin`, `Sec-Fetch-Site: cross-site`), or, with auth, a caller without the right (see the route)',
  ),
  '421': json(
    ref('Error'),
    '`misdirected_request`: the `Host` is not a loopback name or one in DEPUTY_ALLOWED_HOSTS',
  ),
  '422': json(
    ref('Error'),
    'Invalid request: `{"error":"invalid_request","issues":[{path,message}]}`',
  ),
  '500': json(ref('Error'), 'Internal error; details are logged, never returned'),
  '503': json(
    ref('Error'),
    '`unavailable`: Temporal is not reachable (answered within about 2 s); try again once it is',
  ),
};

/** What a route that takes a body adds: its size and its type are checked first. */
const bodyErrors = {
  '413': json(ref('Error'), `\`payload_too_large\`: the body is over ${MAX_BODY_BYTES} bytes`),
  '415': json(ref('Error'), '`unsupported_media_type`: a body that is not `application/json`'),
};

const idParameter = (description: string) => ({
  name: 'id',
  in: 'path',
  required: true,
  schema: { type: 'string' },
  description,
});

const queryParameter = (name: string, schema: JsonSchema, description: string) => ({
  name,
  in: 'query',
  required: false,
  schema,
  description,
});

function bodySchema(schema: z.ZodType): JsonSchema {
  const generated = z.toJSONSchema(schema, { io: 'input' }) as JsonSchema;
  delete generated.$schema;
  return generated;
}

const cardSchema: JsonSchema = {
  type: 'object',
  required: [
    'id',
    'delegationId',
    'workflowId',
    'session',
    'agent',
    'tool',
    'arguments',
    'reason',
    'openedAt',
    'state',
  ],
  properties: {
    id: { type: 'string', description: '`<delegationId>.<n>`' },
    delegationId: { type: 'string' },
    workflowId: { type: 'string' },
    session: { type: 'string' },
    agent: { type: 'string' },
    tool: { type: 'string' },
    arguments: { type: 'object', description: 'secret-looking values replaced by `__redacted__`' },
    reason: { type: 'string' },
    openedAt: { type: 'string', format: 'date-time' },
    state: {
      type: 'object',
      required: ['status'],
      properties: {
        status: { enum: ['pending', 'approved', 'denied'] },
        reason: { type: ['string', 'null'] },
        decidedAt: { type: 'string', format: 'date-time' },
        decidedBy: { type: ['string', 'null'] },
      },
    },
  },
};

/** A tool call that did not run because policy or a human said no. */
const deniedCallsSchema: JsonSchema = {
  type: 'array',
  items: {
    type: 'object',
    required: ['tool', 'by', 'reason'],
    properties: {
      tool: { type: 'string' },
      by: { enum: ['policy', 'human'] },
      reason: { type: 'string' },
    },
  },
};

const resultSchema: JsonSchema = {
  type: 'object',
  required: ['status', 'text', 'notice', 'roundsUsed', 'deniedCalls'],
  properties: {
    status: { enum: ['completed', 'failed', 'stopped'] },
    text: { type: 'string' },
    notice: { type: ['string', 'null'] },
    roundsUsed: { type: 'integer' },
    deniedCalls: {
      ...deniedCallsSchema,
      description:
        'Calls denied during the run: a completed run with denials did not do all it was asked',
    },
  },
};

const statusSchema = bodySchema(DelegationStatusSchema);

/** What every answer to `POST /delegations` says about the delegation it started. */
const startedProperties: Record<string, JsonSchema> = {
  delegationId: { type: 'string' },
  workflowId: { type: 'string' },
  session: { type: 'string' },
  agent: { type: 'string' },
  status: statusSchema,
  links: { type: 'object' },
};

export function openApiDocument(): JsonSchema {
  return {
    openapi: '3.1.0',
    info: {
      title: 'deputy',
      version: '0.1.0',
      description:
        'Durable declared-capability subagents on Temporal: delegations and approval cards.',
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: {
        Error: {
          type: 'object',
          required: ['error'],
          properties: {
            error: { type: 'string' },
            message: { type: 'string' },
            issues: {
              type: 'array',
              items: {
                type: 'object',
                properties: { path: { type: 'string' }, message: { type: 'string' } },
              },
            },
          },
        },
        ApprovalCard: cardSchema,
        DelegationResult: resultSchema,
        DelegationState: {
          type: 'object',
          properties: {
            delegationId: { type: 'string' },
            workflowId: { type: 'string' },
            agent: { type: 'string' },
            session: { type: 'string' },
            status: statusSchema,
            roundsUsed: { type: 'integer' },
            maxTurns: { type: 'integer' },
            model: { type: ['string', 'null'] },
            definitionHash: {
              type: ['string', 'null'],
              description: 'sha256 of the definition file this run resolved',
            },
            pendingCards: { type: 'array', items: ref('ApprovalCard') },
            decidedCards: { type: 'array', items: ref('ApprovalCard') },
            transcriptSummary: { type: 'array', items: { type: 'string' } },
            deniedCalls: deniedCallsSchema,
            result: { oneOf: [ref('DelegationResult'), { type: 'null' }] },
          },
        },
        DelegationSummary: {
          type: 'object',
          properties: {
            delegationId: { type: 'string' },
            workflowId: { type: 'string' },
            agent: { type: ['string', 'null'] },
            session: { type: ['string', 'null'] },
            status: statusSchema,
            pendingCards: { type: 'integer' },
            task: { type: ['string', 'null'], description: 'first line of the task' },
            startedAt: { type: 'string', format: 'date-time' },
            closedAt: { type: ['string', 'null'], format: 'date-time' },
          },
        },
      },
    },
    security: [{ bearer: [] }],
    paths: {
      '/health': {
        get: {
          summary: 'Readiness: the server is up and reaches Temporal',
          security: [],
          responses: {
            '200': json(
              {
                type: 'object',
                properties: {
                  ok: { const: true },
                  auth: { type: 'boolean' },
                  temporal: { const: 'reachable' },
                },
              },
              'The server is up and Temporal answers',
            ),
            '503': json(
              {
                type: 'object',
                properties: {
                  ok: { const: false },
                  auth: { type: 'boolean' },
                  temporal: { const: 'unreachable' },
                  message: { type: 'string' },
                },
              },
              'The server is up but Temporal does not answer; other routes answer 503 meanwhile',
            ),
          },
        },
      },
      '/openapi.json': {
        get: {
          summary: 'This document',
          security: [],
          responses: { '200': json({ type: 'object' }, 'OpenAPI 3.1 document') },
        },
      },
      '/delegations': {
        post: {
          summary: 'Start a delegation',
          parameters: [
            queryParameter(
              'wait',
              { enum: ['true', 'false'] },
              'Wait for the result (ignored with `background`)',
            ),
          ],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: bodySchema(StartDelegationBodySchema) } },
          },
          responses: {
            '201': json(
              {
                type: 'object',
                properties: {
                  ...startedProperties,
                  result: { oneOf: [ref('DelegationResult'), { type: 'null' }] },
                },
              },
              'Started (and, with `wait=true`, finished)',
            ),
            '202': json(
              {
                type: 'object',
                properties: {
                  ...startedProperties,
                  result: { type: 'null' },
                  state: ref('DelegationState'),
                  message: { type: 'string' },
                },
              },
              'With `wait=true`: started, and parked on approval cards (`status: parked`, the cards in `state.pendingCards`), or no worker runs it (`status: running`, `message`)',
            ),
            '404': json(ref('Error'), 'Unknown agent'),
            '409': json(ref('Error'), 'A delegation with this id exists'),
            ...errors,
            ...bodyErrors,
          },
        },
        get: {
          summary: 'List delegations, newest first',
          parameters: [
            queryParameter('session', { type: 'string' }, 'Only this session'),
            queryParameter('agent', { type: 'string' }, 'Only this agent'),
            queryParameter('status', statusSchema, 'Only this status'),
          ],
          responses: {
            '200': json(
              {
                type: 'object',
                properties: { delegations: { type: 'array', items: ref('DelegationSummary') } },
              },
              'Delegations',
            ),
            ...errors,
          },
        },
      },
      '/delegations/{id}': {
        get: {
          summary: 'State, pending cards and result of a delegation',
          parameters: [idParameter('Delegation id')],
          responses: {
            '200': json(ref('DelegationState'), 'The delegation'),
            '404': json(ref('Error'), 'Unknown delegation'),
            ...errors,
          },
        },
      },
      '/delegations/{id}/events': {
        get: {
          summary: 'Live events (Server-Sent Events); pending cards are replayed on attach',
          description:
            'Event names: started, model-turn, tool-call, card-opened, card-decided, finished. ' +
            'Each `data` is the JSON event; `id` is its sequence number, so `Last-Event-ID` resumes. ' +
            'The stream ends after `finished`.',
          parameters: [
            idParameter('Delegation id'),
            queryParameter(
              'after',
              { type: 'integer', minimum: 0 },
              'Resume after this sequence number',
            ),
          ],
          responses: {
            '200': {
              description: 'Event stream',
              content: { 'text/event-stream': { schema: { type: 'string' } } },
            },
            '404': json(ref('Error'), 'Unknown delegation'),
            ...errors,
          },
        },
      },
      '/delegations/{id}/stop': {
        post: {
          summary: 'Stop a delegation (TaskStop); a finished one answers alreadyFinished',
          description:
            'With auth: only the user who started the delegation or an `admin` (else 403). ' +
            'An id that cannot exist (over 64 characters, outside the id alphabet) is 404.',
          parameters: [idParameter('Delegation id')],
          responses: {
            '200': json(
              {
                oneOf: [
                  { type: 'object', properties: { stopped: { const: true } } },
                  {
                    type: 'object',
                    properties: { alreadyFinished: { const: true }, status: statusSchema },
                  },
                ],
              },
              'Stopped, or already finished',
            ),
            '404': json(ref('Error'), 'Unknown delegation'),
            ...errors,
            ...bodyErrors,
          },
        },
      },
      '/sessions/{id}/cards': {
        get: {
          summary: "Pending approval cards of a session's delegations",
          parameters: [idParameter('Session id')],
          responses: {
            '200': json(
              {
                type: 'object',
                properties: {
                  session: { type: 'string' },
                  cards: { type: 'array', items: ref('ApprovalCard') },
                },
              },
              'Pending cards, oldest first',
            ),
            ...errors,
          },
        },
      },
      '/cards/{id}': {
        post: {
          summary: 'Approve or deny a card',
          description:
            'With auth: an `admin` or the user who started the delegation may decide any of its ' +
            'cards; anyone else only a pending card of a read-class tool (else 403).',
          parameters: [idParameter('Card id')],
          requestBody: {
            required: true,
            content: { 'application/json': { schema: bodySchema(DecideCardBodySchema) } },
          },
          responses: {
            '200': json(ref('ApprovalCard'), 'The decided card: a worker applied the decision'),
            '202': json(
              {
                type: 'object',
                properties: {
                  status: { const: 'recorded' },
                  card: ref('ApprovalCard'),
                  decision: { type: 'object' },
                  message: { type: 'string' },
                  links: { type: 'object' },
                },
              },
              'Recorded: stored by Temporal, applied when a worker runs the delegation (none does now, or none did within 3 s)',
            ),
            '404': json(ref('Error'), 'Unknown card'),
            '409': json(
              ref('Error'),
              'Card already decided, or another decision on it is already recorded',
            ),
            ...errors,
            ...bodyErrors,
          },
        },
      },
    },
  };
}

/**
 * The OpenAPI 3.1 description of the API, served at `/openapi.json` and drawn by the
 * reference page at `/docs`. Every schema in it comes from zod: request bodies and query
 * parameters from the schemas the routes validate with, answers from the components of
 * response-schemas.ts (`$ref`s by name). test/api/openapi.test.ts checks it against the routes the
 * app registers, both ways, and validates it as OpenAPI 3.1.
 *
 * To document a new route module (say `src/api/agents/routes.ts`):
 *   1. describe its answers as zod schemas registered with `component('Agent', schema)` (from
 *      parts.ts), next to the module or in its own `*-schemas.ts`;
 *   2. export its path items, built with the helpers of parts.ts (`jsonResponse`,
 *      `requestBody`, `queryParameters`, ...) and the error answers of response-schemas.ts
 *      (`commonErrors`, `bodyErrors`, `errorAnswer`), e.g. in `api/agents/paths.ts`:
 *      `export const agentPaths: PathItems = { '/workspace/agents': { get: {...} } }`;
 *   3. import them here and add them to ROUTE_PATHS: one entry in that list (and its import) is
 *      the whole change here. The test's REQUEST_BODIES and QUERIES tables name the schema each
 *      route validates its body and query with; add the new routes' there.
 * A path may be split across modules (one documents its GET, another its POST); the same
 * operation documented twice throws when the document is built.
 */
import { z } from 'zod';
import { agentPaths } from '../agents/paths.js';
import { cardPaths } from '../cards/paths.js';
import { cardLinkPaths } from '../cards/link-paths.js';
import { checkPaths } from '../agents/check-paths.js';
import { delegationPaths } from '../delegations/paths.js';
import { steeringPaths } from '../delegations/steering-paths.js';
import { grantPaths } from '../delegations/grant-paths.js';
import { batchDecisionPaths } from '../cards/batch-paths.js';
import { consolePaths } from '../console-routes.js';
import { docsPaths } from './docs-routes.js';
import { mcpPaths } from '../workspace/mcp-paths.js';
import { sessionPaths } from '../sessions/paths.js';
import { schedulePaths } from '../schedules/paths.js';
import { metricsPaths } from '../metrics/paths.js';
import { workspacePaths } from '../workspace/paths.js';
import {
  apiSchemas,
  COMPONENT_PREFIX,
  jsonResponse,
  type HttpMethod,
  type JsonSchema,
  type PathItems,
} from './parts.js';
import { HealthReadySchema, HealthUnavailableSchema } from '../http/health-schemas.js';
import { OpenApiDocumentSchema } from './answers.js';

/** The routes app.ts registers itself. */
const corePaths: PathItems = {
  '/health': {
    get: {
      summary: 'Readiness: the server is up and reaches Temporal',
      security: [],
      responses: {
        '200': jsonResponse(HealthReadySchema, 'The server is up and Temporal answers'),
        '503': jsonResponse(
          HealthUnavailableSchema,
          'The server is up but Temporal does not answer; other routes answer 503 meanwhile',
        ),
      },
    },
  },
  '/openapi.json': {
    get: {
      summary: 'This document',
      security: [],
      responses: { '200': jsonResponse(OpenApiDocumentSchema, 'OpenAPI 3.1 document') },
    },
  },
};

/** Every module's path items; add a module's here (see the top of this file). */
const ROUTE_PATHS: readonly PathItems[] = [
  corePaths,
  delegationPaths,
  steeringPaths,
  grantPaths,
  sessionPaths,
  schedulePaths,
  cardPaths,
  batchDecisionPaths,
  cardLinkPaths,
  agentPaths,
  checkPaths,
  workspacePaths,
  mcpPaths,
  docsPaths,
  consolePaths,
  metricsPaths,
];

let built: JsonSchema | undefined;

/** The document; built once, since the routes and their schemas are fixed at import. */
export function openApiDocument(): JsonSchema {
  built ??= {
    openapi: '3.1.0',
    info: {
      title: 'deputy',
      version: '0.1.0',
      description:
        'Durable declared-capability subagents on Temporal: delegations and approval cards.',
    },
    components: {
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
      schemas: componentSchemas(),
    },
    security: [{ bearer: [] }],
    paths: mergePaths(ROUTE_PATHS),
  };
  return built;
}

/** The registered zod schemas as `components.schemas`, referring to each other by name. */
function componentSchemas(): Record<string, JsonSchema> {
  const { schemas } = z.toJSONSchema(apiSchemas, {
    // As the schemas read what they accept: a plain z.object leaves `additionalProperties` open
    // (answers may gain fields; clients ignore what they do not know), where `output` would
    // close every object of every answer.
    io: 'input',
    uri: (id) => `${COMPONENT_PREFIX}${id}`,
    override: ({ jsonSchema }) => {
      // `format` says it; zod's 300-character regex for it is noise on the reference page.
      if (jsonSchema.format === 'date-time') delete jsonSchema.pattern;
    },
  });
  if ('__shared' in schemas) {
    // Schemas zod could only write as shared `$defs` (a cycle through unnamed schemas): give
    // them a component name instead, the document has nowhere to put them.
    throw new Error('OpenAPI: a schema is shared without a component name; register it');
  }
  // By name, not by registration: which module registers a component first depends on import
  // order, and moving a module must not change the document.
  const byName = Object.entries(schemas).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return Object.fromEntries(
    byName.map(([id, schema]) => {
      // `$id` would be a URI with a fragment (not allowed) and `$schema` repeats the dialect
      // OpenAPI 3.1 already declares: the component's name is its identity.
      const body: JsonSchema = { ...schema };
      delete body.$id;
      delete body.$schema;
      return [id, body];
    }),
  );
}

function mergePaths(parts: readonly PathItems[]): PathItems {
  const merged: PathItems = {};
  for (const part of parts) {
    for (const [path, operations] of Object.entries(part)) {
      const into = (merged[path] ??= {});
      for (const [method, operation] of Object.entries(operations)) {
        if (method in into) {
          throw new Error(`OpenAPI: ${method.toUpperCase()} ${path} is documented twice`);
        }
        into[method as HttpMethod] = operation;
      }
    }
  }
  return merged;
}

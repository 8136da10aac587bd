/** Answers of `GET /health`, as zod schemas registered as OpenAPI components. */
import { z } from 'zod';
import { component } from '../openapi/parts.js';
import { Timestamp } from './fields.js';

const AuthFlag = z.boolean().describe('whether routes need a bearer token');

/** An invalid edit of the file does not make the API unready: the last good one keeps serving. */
export const ConfigStatusSchema = component(
  'ConfigStatus',
  z
    .discriminatedUnion('ok', [
      z.object({ ok: z.literal(true) }),
      z.object({
        ok: z.literal(false),
        message: z
          .string()
          .describe(
            'What is wrong with the file on disk, safe to print (field paths, never values)',
          ),
        since: Timestamp.describe('When the invalid version was first seen'),
      }),
    ])
    .describe('Whether `.subagents/config.yaml` on disk is the configuration in use'),
);

/** A `.mcp.json` that is not JSON is not fatal either: its servers are off until it is fixed. */
export const McpJsonStatusSchema = component(
  'McpJsonStatus',
  z
    .discriminatedUnion('ok', [
      z.object({ ok: z.literal(true) }),
      z.object({
        ok: z.literal(false),
        message: z.string().describe('The file and the position of the error, never its content'),
      }),
    ])
    .describe(
      'Whether `.mcp.json` (absent counts as fine) is read; while not, none of its servers is',
    ),
);

export const HealthReadySchema = component(
  'HealthReady',
  z.object({
    ok: z.literal(true),
    auth: AuthFlag,
    temporal: z.literal('reachable'),
    config: ConfigStatusSchema,
    mcpJson: McpJsonStatusSchema,
  }),
);

export const HealthUnavailableSchema = component(
  'HealthUnavailable',
  z.object({
    ok: z.literal(false),
    auth: AuthFlag,
    temporal: z.literal('unreachable'),
    config: ConfigStatusSchema,
    mcpJson: McpJsonStatusSchema,
    message: z.string(),
  }),
);

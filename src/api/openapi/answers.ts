/**
 * The answers every route shares in the OpenAPI document: the refusal body and the statuses the
 * door, validation and Temporal add to a route's own (src/api/http/errors.ts writes them).
 */
import { z } from 'zod';
import { MAX_BODY_BYTES } from '../http/body-limit.js';
import { component, jsonResponse, type OpenApiResponse } from './parts.js';

/** The body of every refusal, as src/api/http/errors.ts writes it. */
export const ErrorSchema = component(
  'Error',
  z.object({
    error: z.string().describe('stable snake_case code: `not_found`, `invalid_request`, ...'),
    code: z
      .string()
      .optional()
      .describe("the same code, under the name qwen-code's SDK reads (absent from a 500)"),
    message: z.string().optional(),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe('with `invalid_request`: what is wrong, by field (at most 20)'),
  }),
);

export const OpenApiDocumentSchema = component(
  'OpenApiDocument',
  z.looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) }),
);

/** A route's own error status, e.g. `errorAnswer('Unknown delegation')` for its 404. */
export const errorAnswer = (description: string): OpenApiResponse =>
  jsonResponse(ErrorSchema, description);

/** What any route may answer besides its own statuses: the door, validation, Temporal down. */
export const commonErrors: Record<string, OpenApiResponse> = {
  '401': errorAnswer('Missing or invalid bearer token (when auth is configured)'),
  '403': errorAnswer(
    '`forbidden`: a request from a foreign web origin (`Origin`, `Sec-Fetch-Site: cross-site`), or, with auth, a caller without the right (see the route)',
  ),
  '421': errorAnswer(
    '`misdirected_request`: the `Host` is not a loopback name or one in DEPUTY_ALLOWED_HOSTS',
  ),
  '422': errorAnswer('Invalid request: `{"error":"invalid_request","issues":[{path,message}]}`'),
  '500': errorAnswer('Internal error; details are logged, never returned'),
  '503': errorAnswer(
    '`unavailable`: Temporal is not reachable (answered within about 2 s, 4 s when it holds the connection); try again once it is',
  ),
};

/**
 * The 403 of a route that reads a whole transcript (an event stream): with auth, only its owner or
 * an admin may (src/rights/transcript-view.ts). Put after `...commonErrors`, which it replaces.
 */
export const transcriptRefused = (what: string): OpenApiResponse =>
  errorAnswer(
    `\`forbidden\`: with auth, a caller who is neither an \`admin\` nor the user who started the ${what} (its transcript, tool results and messages are theirs); or a request from a foreign web origin`,
  );

/** What a route that takes a body adds: its size and its type are checked first. */
export const bodyErrors: Record<string, OpenApiResponse> = {
  '400': errorAnswer('`invalid_json`: the body is not JSON'),
  '413': errorAnswer(`\`payload_too_large\`: the body is over ${MAX_BODY_BYTES} bytes`),
  '415': errorAnswer('`unsupported_media_type`: a body that is not `application/json`'),
};

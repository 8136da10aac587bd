/** The OpenAPI path item of the agent check route (check-routes.ts), merged by api/openapi/document.ts. */
import { AgentCheckSchema, CheckAgentBodySchema } from './check-schemas.js';
import { component, jsonResponse, requestBody, type PathItems } from '../openapi/parts.js';
import { bodyErrors, commonErrors, errorAnswer } from '../openapi/answers.js';

const AgentCheck = component('AgentCheck', AgentCheckSchema);

export const checkPaths: PathItems = {
  '/workspace/agents/check': {
    post: {
      summary: 'Check an agent (a whole file or create fields) without saving or starting it',
      description:
        'Runs the save\u2019s strict validation (`valid`: a save would be accepted; each refusal is an error `save.invalid`), the registry\u2019s parser and capability resolution with the caller\u2019s roles and the live configuration (`tool.unknown`, `skill.not-found`, `mcp.not-configured`, `knowledge.without-read`, ...). With `source`, diagnostics carry the 1-based `line` their path names. Secrets are `__redacted__` as in the detail. Writes nothing. With auth: needs the `admin` role (else 403 `forbidden`).',
      requestBody: requestBody(CheckAgentBodySchema),
      responses: {
        ...commonErrors,
        ...bodyErrors,
        '200': jsonResponse(AgentCheck, 'The check; also for a definition that would be refused'),
        '422': errorAnswer(
          '`invalid_request`: neither (or both of) `source` and `agent`, an unknown key, or a `source` over 1 MiB',
        ),
      },
    },
  },
};

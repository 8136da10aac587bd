/**
 * The OpenAPI path items of the authoring routes: agents (routes.ts), the catalogs
 * (api/workspace/catalog-routes.ts) and text generation (api/generate/routes.ts), merged by api/openapi/document.ts.
 */
import { z } from 'zod';
import { NameSchema } from '../../definitions/schema.js';
import {
  AgentDetailSchema,
  AgentLevelQuerySchema,
  AgentListSchema,
  AgentMutationSchema,
  CreateAgentBodySchema,
  DuplicateAgentBodySchema,
  RevisionSchema,
  RevisionTextSchema,
  UpdateAgentBodySchema,
} from './schemas.js';
import { ModelCatalogSchema, ToolCatalogSchema } from '../workspace/catalog-schemas.js';
import {
  GENERATION_SSE_ENVELOPE,
  GenerateAgentBodySchema,
  GenerateBodySchema,
  GeneratedAgentSchema,
} from '../generate/schemas.js';
import {
  component,
  jsonResponse,
  pathParameter,
  queryParameters,
  requestBody,
  textResponse,
  type OpenApiOperation,
  type PathItems,
} from '../openapi/parts.js';
import { bodyErrors, commonErrors, errorAnswer } from '../openapi/answers.js';

const AgentList = component('AgentList', AgentListSchema);
const AgentDetail = component('AgentDetail', AgentDetailSchema);
const AgentMutation = component('AgentMutation', AgentMutationSchema);
const AgentRevisions = component(
  'AgentRevisions',
  z.object({ name: z.string(), revisions: z.array(RevisionSchema) }),
);
const RevisionText = component('RevisionText', RevisionTextSchema);
const ToolCatalog = component('ToolCatalog', ToolCatalogSchema);
const ModelCatalog = component('ModelCatalog', ModelCatalogSchema);
const GeneratedAgent = component('GeneratedAgent', GeneratedAgentSchema);

const ADMIN = 'With auth: needs the `admin` role (else 403 `forbidden`).';

const nameParameter = pathParameter(
  'name',
  NameSchema,
  'Agent name; one that breaks the name rule is 404 `agent_not_found`',
);
const levelParameters = queryParameters(AgentLevelQuerySchema, {
  scope: 'qwen-code scope: `workspace` (project level) or `global` (user level)',
  level: 'deputy level name; picks the file when a name exists at several levels',
});

const notFound = errorAnswer('`agent_not_found`: no agent by that name (at that level)');
const readOnly = errorAnswer(
  '`agent_readonly`: a built-in or ecosystem agent (duplicate a built-in to change it)',
);
const invalidConfig = errorAnswer(
  '`invalid_config`: a field does not validate, with `issues: [{path, message}]`; nothing is written',
);
const taken = errorAnswer(
  '`agent_already_exists`: the name exists at that level; `agent_name_reserved`: it is a built-in agent name',
);

const update = (method: string): OpenApiOperation => ({
  summary: `Update an agent (${method}): only the fields sent change`,
  description: `\`[]\` and \`{}\` clear a list or record, \`null\` any field; \`__redacted__\` values are restored from the stored agent. ${ADMIN}`,
  parameters: [nameParameter, ...levelParameters],
  requestBody: requestBody(UpdateAgentBodySchema),
  responses: {
    '200': jsonResponse(AgentMutation, 'Updated; `changed: false` when the file already said so'),
    '403': readOnly,
    '404': notFound,
    '422': invalidConfig,
    ...commonErrors,
    ...bodyErrors,
  },
});

export const agentPaths: PathItems = {
  '/workspace/agents': {
    get: {
      summary: 'Every agent, without prompt, MCP servers and hooks (qwen-code list envelope)',
      responses: { '200': jsonResponse(AgentList, 'Agents of every level'), ...commonErrors },
    },
    post: {
      summary: 'Create an agent at the project (`scope: workspace`) or user (`global`) level',
      description: `Strict validation before anything is written; the registry has reloaded before the answer. ${ADMIN}`,
      requestBody: requestBody(CreateAgentBodySchema),
      responses: {
        '201': jsonResponse(AgentMutation, 'Created'),
        '409': taken,
        '422': invalidConfig,
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
  '/workspace/agents/{name}': {
    get: {
      summary: 'One agent in full; MCP env values, headers and OAuth secrets as `__redacted__`',
      description: ADMIN,
      parameters: [nameParameter, ...levelParameters],
      responses: {
        '200': jsonResponse(AgentDetail, 'The agent'),
        '404': notFound,
        ...commonErrors,
      },
    },
    post: update('POST'),
    patch: update('PATCH'),
    delete: {
      summary: 'Delete an agent; its last revision stays restorable',
      description: ADMIN,
      parameters: [nameParameter, ...levelParameters],
      responses: {
        '204': { description: 'Deleted' },
        '403': readOnly,
        '404': notFound,
        ...commonErrors,
      },
    },
  },
  '/workspace/agents/{name}/revisions': {
    get: {
      summary: 'Earlier versions of an agent, newest first (also after a delete)',
      description: ADMIN,
      parameters: [nameParameter],
      responses: {
        '200': jsonResponse(AgentRevisions, 'Revisions'),
        '404': notFound,
        ...commonErrors,
      },
    },
  },
  '/workspace/agents/{name}/revisions/{rev}': {
    get: {
      summary:
        "One revision's text beside the current file at its level (for a diff); inline MCP secrets `__redacted__`",
      description: ADMIN,
      parameters: [nameParameter, pathParameter('rev', z.string(), 'Revision id')],
      responses: {
        '200': jsonResponse(RevisionText, 'The two texts'),
        '404': errorAnswer('No such agent or revision'),
        ...commonErrors,
      },
    },
  },
  '/workspace/agents/{name}/revisions/{rev}/restore': {
    post: {
      summary: 'Make a revision the current file again (the current one becomes a revision)',
      description: ADMIN,
      parameters: [nameParameter, pathParameter('rev', z.string(), 'Revision id')],
      responses: {
        '200': jsonResponse(AgentMutation, 'Restored'),
        '404': errorAnswer('No such agent or revision'),
        '409': taken,
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
  '/workspace/agents/{name}/duplicate': {
    post: {
      summary: 'Copy any agent (built-ins included) with every field, by default to the user level',
      description: ADMIN,
      parameters: [nameParameter],
      requestBody: requestBody(DuplicateAgentBodySchema),
      responses: {
        '201': jsonResponse(AgentMutation, 'The copy'),
        '404': notFound,
        '409': taken,
        '422': invalidConfig,
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
  '/workspace/tools': {
    get: {
      summary: "The tool catalog, filtered by the caller's roles as resolution filters it",
      responses: { '200': jsonResponse(ToolCatalog, 'Tools by provider'), ...commonErrors },
    },
  },
  '/workspace/models': {
    get: {
      summary: 'The configured models, aliases and what `default` means now',
      responses: { '200': jsonResponse(ModelCatalog, 'The model catalog'), ...commonErrors },
    },
  },
  '/workspace/generate': {
    post: {
      summary: 'Stream generated plain text (a description or a system prompt) as SSE',
      description: `${GENERATION_SSE_ENVELOPE} ${ADMIN}`,
      requestBody: requestBody(GenerateBodySchema),
      responses: {
        '200': textResponse('The generation events', 'text/event-stream'),
        '422': errorAnswer('Invalid body, or the default model cannot be used (`invalid_config`)'),
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
  '/workspace/agents/generate': {
    post: {
      summary: 'Generate `{name, description, systemPrompt}` at once (qwen-code compat)',
      description: ADMIN,
      requestBody: requestBody(GenerateAgentBodySchema),
      responses: {
        '200': jsonResponse(GeneratedAgent, 'The drafts'),
        '422': errorAnswer('Invalid body, or the default model cannot be used (`invalid_config`)'),
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
};

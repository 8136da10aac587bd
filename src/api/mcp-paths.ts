/** The OpenAPI path items of the MCP status routes (mcp-routes.ts), merged by openapi.ts. */
import { z } from 'zod';
import { MAX_MCP_SERVER_NAME, McpServerListSchema, McpServerToolsSchema } from './mcp-schemas.js';
import { component, jsonResponse, pathParameter, type PathItems } from './openapi-parts.js';
import { commonErrors, errorAnswer } from './response-schemas.js';

const McpServerList = component('McpServerList', McpServerListSchema);
const McpServerTools = component('McpServerTools', McpServerToolsSchema);

const noClient = errorAnswer(
  '`unavailable`: this API process has no MCP client (an app built without one)',
);

export const mcpPaths: PathItems = {
  '/workspace/mcp': {
    get: {
      summary: 'Every configured or inline MCP server with its status, tool count and declarers',
      description:
        "Status as this process's client sees it: `connected`, `connecting`, `failed` (with `lastError`; retried in the background) or `disabled` (`enabled: false`). Never an env value, a header or a credential: `endpoint` without user, password or query, `command` as its base name only.",
      responses: {
        '200': jsonResponse(McpServerList, 'The servers'),
        ...commonErrors,
        '503': noClient,
      },
    },
  },
  '/workspace/mcp/{server}/tools': {
    get: {
      summary: "One MCP server's live tool list (for editors' pickers)",
      description:
        'A server that is not connected (connecting, failed, disabled) answers 200 with its `status`, `lastError` and `tools: []`: poll until `connected`. A name written both in the configuration and inline in a definition is the configured server.',
      parameters: [
        pathParameter(
          'server',
          z.string().min(1).max(MAX_MCP_SERVER_NAME),
          'Server name; an unknown one (or one over 128 characters) is 404 `mcp_server_not_found`',
        ),
      ],
      responses: {
        '200': jsonResponse(McpServerTools, 'The tools, or the status without them'),
        '404': errorAnswer('`mcp_server_not_found`: no server by that name'),
        ...commonErrors,
        '503': noClient,
      },
    },
  },
};

/** The OpenAPI path items of the MCP status routes (mcp-routes.ts), merged by api/openapi/document.ts. */
import { z } from 'zod';
import {
  MAX_MCP_SERVER_NAME,
  McpServerListSchema,
  McpServerToolsSchema,
  McpTrustAnswerSchema,
  McpTrustBodySchema,
} from '../../mcp-client/mcp-view-schemas.js';
import {
  component,
  jsonResponse,
  pathParameter,
  requestBody,
  type PathItems,
} from '../openapi/parts.js';
import { bodyErrors, commonErrors, errorAnswer } from '../openapi/answers.js';

const McpServerList = component('McpServerList', McpServerListSchema);
const McpServerTools = component('McpServerTools', McpServerToolsSchema);
const McpTrustAnswer = component('McpTrustAnswer', McpTrustAnswerSchema);
const serverName = pathParameter(
  'server',
  z.string().min(1).max(MAX_MCP_SERVER_NAME),
  'Server name; an unknown one (or one over 128 characters) is 404 `mcp_server_not_found`',
);
const notApprovable = errorAnswer(
  '`invalid_request` (the hash is not a sha256 in hex), or `mcp_server_needs_no_approval`: the server is written in config.yaml or a definition, which people write; only `.mcp.json` servers take an approval',
);

const noClient = errorAnswer(
  '`unavailable`: this API process has no MCP client (an app built without one)',
);

export const mcpPaths: PathItems = {
  '/workspace/mcp': {
    get: {
      summary: 'Every configured or inline MCP server with its status, tool count and declarers',
      description:
        "Status as this process's client sees it: `connected`, `connecting`, `failed` (with `lastError`; retried in the background) or `disabled` (`enabled: false`); for a `.mcp.json` server that is not started, `untrusted` (no person approved what the file says now: `trust` says why and what it would run) or `refused` (it references a variable config.yaml's `mcpJson.variables` does not allow it); `lastError` says why and how to approve. `mcpJsonProblem`: why `.mcp.json` is not read (its servers are all off then). Never an env value, a header or a credential: `endpoint` without user, password or query, `command` as its base name only (the `wouldRun` of a server awaiting approval shows its arguments as written, `${NAME}` unresolved, and env and header names only).",
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
      parameters: [serverName],
      responses: {
        '200': jsonResponse(McpServerTools, 'The tools, or the status without them'),
        '404': errorAnswer('`mcp_server_not_found`: no server by that name'),
        ...commonErrors,
        '503': noClient,
      },
    },
  },
  '/workspace/mcp/{server}/trust': {
    post: {
      summary: 'Approve a `.mcp.json` server, exactly as it was shown',
      description:
        "The body names the hash the person saw (`trust.hash` of `GET /workspace/mcp`); a file that says something else by now is 409 `mcp_server_changed` and nothing is approved. The approval is kept in the data directory (`mcp-trust.json`), tied to that hash and signed with the data directory's own key (`mcp-trust.key`): any later change of the server's command, args, env, URL or headers needs a new one, and an entry deputy did not sign (hand-written, copied, or from a deputy before approvals were signed) approves nothing (`trust.state: unsigned`). With auth on, `admin` only.",
      parameters: [serverName],
      requestBody: requestBody(McpTrustBodySchema),
      responses: {
        '200': jsonResponse(McpTrustAnswer, 'Approved; `problem` says if it still cannot start'),
        '404': errorAnswer('`mcp_server_not_found`: no server by that name'),
        '409': errorAnswer(
          '`mcp_server_changed`: the file says something else than what was shown',
        ),
        ...commonErrors,
        ...bodyErrors,
        '422': notApprovable,
        '503': noClient,
      },
    },
    delete: {
      summary: "Withdraw a `.mcp.json` server's approval",
      description:
        'The server is stopped in this process at once, and is not started again until a person approves it. With auth on, `admin` only.',
      parameters: [serverName],
      responses: {
        '200': jsonResponse(McpTrustAnswer, 'Withdrawn (`approved: false`)'),
        '404': errorAnswer('`mcp_server_not_found`: no server by that name'),
        ...commonErrors,
        '422': notApprovable,
        '503': noClient,
      },
    },
  },
};

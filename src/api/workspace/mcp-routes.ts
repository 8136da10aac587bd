/**
 * The MCP servers as this process's pool sees them: `GET /workspace/mcp` lists every
 * configured or inline server with its status, and `GET /workspace/mcp/:server/tools` gives one
 * server's live tool list, for editors' pickers. Any authenticated caller may read them, like
 * the catalogs. A server that is not connected yet answers 200 with its `status` and no tools:
 * a picker polls one shape until it is connected (or failed, with the last error).
 *
 * `POST|DELETE /workspace/mcp/:server/trust` approve a `.mcp.json` server, or withdraw the
 * approval (src/mcp-client/start-gate.ts): with auth on, only an `admin`, since an approval lets a file
 * an agent can write start a process or reach a URL.
 */
import type { Hono } from 'hono';
import { DeputyError } from '../../errors.js';
import type { LiveConfig } from '../../config/live-config.js';
import type { LoadedDefinition } from '../../definitions/definition.js';
import type { McpRuntime } from '../../mcp-client/mcp-runtime.js';
import type { SecretMasker } from '../../secrets/masker.js';
import type { AppEnv } from '../http/app-env.js';
import { clip } from '../../shared/clip.js';
import { MAX_MCP_SERVER_NAME, McpTrustBodySchema } from '../../mcp-client/mcp-view-schemas.js';
import { trustMcpServer, untrustMcpServer } from '../../mcp-client/trust-actions.js';
import { requireAdmin } from '../../rights/rights.js';
import { parseBody } from '../http/validation.js';
import {
  findMcpServer,
  mcpServerList,
  mcpServerTools,
  type McpViewSources,
} from '../../mcp-client/mcp-view.js';

export interface McpRouteDeps {
  mcp?: McpRuntime | undefined;
  settings: LiveConfig;
  definitions?: { listAll(): LoadedDefinition[] } | undefined;
  secrets: SecretMasker;
}

export function registerMcpRoutes(app: Hono<AppEnv>, deps: McpRouteDeps): void {
  const sources = (): McpViewSources => {
    if (deps.mcp === undefined) {
      throw new DeputyError(
        'unavailable',
        'this server has no MCP client (run the API with `deputy api` or `deputy dev`)',
      );
    }
    return { runtime: deps.mcp, config: deps.settings.current(), definitions: deps.definitions };
  };

  app.get('/workspace/mcp', (c) => c.json(deps.secrets.value(mcpServerList(sources()))));

  app.get('/workspace/mcp/:server/tools', (c) => {
    const name = c.req.param('server');
    const view = sources();
    const known = isPlausibleName(name) ? findMcpServer(view, name) : undefined;
    if (known === undefined) {
      throw new DeputyError('not-found', `no MCP server named '${clip(name, 64)}'`, {
        code: 'mcp_server_not_found',
      });
    }
    return c.json(deps.secrets.value(mcpServerTools(view, known)));
  });

  const trustTarget = (name: string): string => {
    if (!isPlausibleName(name)) {
      throw new DeputyError('not-found', `no MCP server named '${clip(name, 64)}'`, {
        code: 'mcp_server_not_found',
      });
    }
    return name;
  };

  app.post('/workspace/mcp/:server/trust', async (c) => {
    const caller = c.get('caller');
    requireAdmin(caller, 'approving an MCP server');
    const name = trustTarget(c.req.param('server'));
    const body = await parseBody(c, McpTrustBodySchema);
    const view = sources();
    const answer = await trustMcpServer(view, name, { hash: body.hash, by: caller.id });
    // This process starts it now, in the background; a worker elsewhere on its next lookup.
    view.runtime.connectAll();
    return c.json(deps.secrets.value(answer));
  });

  app.delete('/workspace/mcp/:server/trust', async (c) => {
    requireAdmin(c.get('caller'), 'withdrawing the approval of an MCP server');
    const name = trustTarget(c.req.param('server'));
    const view = sources();
    const answer = await untrustMcpServer(view, name);
    // Its connection here ends now; a worker elsewhere ends its own on its next lookup.
    view.runtime.connectAll();
    return c.json(deps.secrets.value(answer));
  });
}

/** Names are free text in a configuration, but never this long, nor with control characters. */
function isPlausibleName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_MCP_SERVER_NAME) return false;
  return ![...name].some((char) => char < ' ' || char === '\u007f');
}

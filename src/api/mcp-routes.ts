/**
 * The MCP servers as this process's pool sees them (issue 9): `GET /workspace/mcp` lists every
 * configured or inline server with its status, and `GET /workspace/mcp/:server/tools` gives one
 * server's live tool list, for editors' pickers. Any authenticated caller may read them, like
 * the catalogs. A server that is not connected yet answers 200 with its `status` and no tools:
 * a picker polls one shape until it is connected (or failed, with the last error).
 */
import type { Hono } from 'hono';
import { DeputyError } from '../errors.js';
import type { LiveConfig } from '../live-config.js';
import type { LoadedDefinition } from '../definitions/definition.js';
import type { McpRuntime } from '../mcp/mcp-runtime.js';
import type { SecretMasker } from '../secrets/masker.js';
import type { AppEnv } from './app-env.js';
import { clip } from './clip.js';
import { MAX_MCP_SERVER_NAME } from './mcp-schemas.js';
import { findMcpServer, mcpServerList, mcpServerTools, type McpViewSources } from './mcp-view.js';

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
}

/** Names are free text in a configuration, but never this long, nor with control characters. */
function isPlausibleName(name: string): boolean {
  if (name.length === 0 || name.length > MAX_MCP_SERVER_NAME) return false;
  return ![...name].some((char) => char < ' ' || char === '\u007f');
}

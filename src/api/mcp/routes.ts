/**
 * `/mcp`: the MCP door over Streamable HTTP, behind the same guards as every route (Host
 * and Origin, the bearer token, body limits). POST carries JSON-RPC, GET opens the session's
 * event stream, DELETE ends the session. Not in the OpenAPI document: its wire is MCP's.
 */
import type { Hono } from 'hono';
import type { McpHttpEndpoint } from '../../mcp-door/http-endpoint.js';
import type { AppEnv } from '../http/app-env.js';

export const MCP_PATH = '/mcp';

export function registerMcpDoorRoutes(app: Hono<AppEnv>, endpoint: McpHttpEndpoint): void {
  app.on(['GET', 'POST', 'DELETE'], MCP_PATH, async (c) => {
    // Read once here (jsonBodiesOnly already checked the type): the transport takes it parsed.
    let body: unknown;
    if (c.req.method === 'POST') {
      try {
        body = await c.req.json<unknown>();
      } catch {
        return c.json(
          {
            jsonrpc: '2.0',
            error: { code: -32700, message: 'Parse error: the body is not JSON' },
            id: null,
          },
          400,
        );
      }
    }
    return endpoint.handle(c.req.raw, c.get('caller'), body);
  });
}

/**
 * The MCP side of one process (a worker, or the API for its status routes): the pool of clients,
 * the directory that finds a server's settings, and what the gateway tools and resolution ask
 * of them. Every server the configuration or a definition names is connected ahead of use, in
 * the background, and again after each reload, so the first call rarely waits for a handshake.
 */
import type { McpStatusSource } from '../capabilities/mcp-live.js';
import type { LiveConfig } from '../live-config.js';
import type { LoadedDefinition } from '../definitions/definition.js';
import type { McpGatewayDeps } from './gateway-tools.js';
import { createMcpPool, type McpPool, type PooledServer } from './pool.js';
import {
  createServerDirectory,
  fromConfigured,
  type McpServerDirectory,
  type McpServerSpec,
} from './server-spec.js';

export interface McpRuntimeOptions {
  settings: LiveConfig;
  definitions: {
    get(name: string): LoadedDefinition | undefined;
    listAll(): LoadedDefinition[];
  };
  env?: NodeJS.ProcessEnv;
  log?: (message: string) => void;
}

export interface McpRuntime extends McpGatewayDeps, McpStatusSource {
  pool: McpPool;
  directory: McpServerDirectory;
  /** Asks for every known server (connecting the new ones in the background). */
  connectAll(): void;
  close(): Promise<void>;
}

export function createMcpRuntime(options: McpRuntimeOptions): McpRuntime {
  const { settings } = options;
  const env = options.env ?? process.env;
  const pool = createMcpPool({
    reconnectMs: settings.current().mcpReconnectSeconds * 1000,
    env,
    bearerToken: () => env[settings.current().mcpBearerTokenEnv],
    cwd: settings.current().workspace,
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  const configured = (): Record<string, McpServerSpec> => {
    const config = settings.current();
    return Object.fromEntries(
      Object.entries(config.mcpServers).map(([name, server]) => [
        name,
        fromConfigured(name, server, config.mcpServerOrigins[name] ?? 'config.yaml'),
      ]),
    );
  };
  const directory = createServerDirectory(options.definitions, configured);

  const server = (agent: string, name: string): PooledServer | { missing: string } => {
    const spec = directory.find(agent, name);
    if ('missing' in spec) return spec;
    if (!spec.enabled) return { missing: `MCP server '${name}' is disabled in ${spec.source}` };
    return pool.server(spec);
  };

  return {
    pool,
    directory,
    server,
    live(agent, name) {
      const found = server(agent, name);
      if ('missing' in found) return { connected: false, problem: found.missing, tools: [] };
      const tools = (found.tools() ?? []).map((tool) => ({
        name: tool.name,
        description: tool.description ?? '',
        inputSchema: tool.inputSchema as Record<string, unknown>,
      }));
      const status = found.status();
      return {
        connected: status === 'connected',
        problem:
          status === 'connected'
            ? null
            : status === 'connecting'
              ? 'still connecting'
              : (found.lastError() ?? 'not connected'),
        tools,
      };
    },
    async settle(agent, names, timeoutMs) {
      await Promise.all(
        names.map(async (name) => {
          const found = server(agent, name);
          if ('missing' in found || found.status() !== 'connecting') return;
          await found.connected(timeoutMs).catch(() => undefined);
        }),
      );
    },
    connectAll() {
      const specs = directory.all();
      for (const spec of specs) pool.server(spec);
      // A server an edit removed or changed is disconnected (its stdio process ends).
      void pool.retain(specs);
    },
    close: () => pool.close(),
  };
}

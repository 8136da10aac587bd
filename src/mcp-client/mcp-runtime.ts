/**
 * The MCP side of one process (a worker, or the API for its status routes): the pool of clients,
 * the directory that finds a server's settings, and what the gateway tools and resolution ask
 * of them. Every server the configuration or a definition names is connected ahead of use, in
 * the background (a few handshakes at a time), and again after each reload, so the first call
 * rarely waits for a handshake.
 * This module wires the parts: connect-ahead.ts, server-lookup.ts and status-source.ts.
 */
import type { McpStatusSource } from '../capabilities/mcp-live.js';
import type { LiveConfig } from '../config/live-config.js';
import type { LoadedDefinition } from '../definitions/definition.js';
import type { McpGatewayDeps } from './gateway-tools.js';
import { createConnectAll } from './connect-ahead.js';
import { createMcpPool, type McpPool, type PooledServer } from './pool.js';
import { createServerLookup } from './server-lookup.js';
import { checkStart, type McpStartCheck } from './start-gate.js';
import { createStatusSource } from './status-source.js';
import { createMcpTrustStore, type McpTrustStore } from './trust-store.js';
import {
  configuredSpecs,
  createServerDirectory,
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
  /** The approvals of `.mcp.json` servers. Default: `<dataDir>/mcp-trust.json` of the settings. */
  trust?: McpTrustStore;
}

export interface McpRuntime extends McpGatewayDeps, McpStatusSource {
  pool: McpPool;
  directory: McpServerDirectory;
  /** The `.mcp.json` approvals this runtime checks. */
  trust: McpTrustStore;
  /**
   * Whether `spec` may be started now (src/mcp/start-gate.ts): a `.mcp.json` server needs a
   * person's approval of what it says now, and only the variables config.yaml allows it.
   */
  checkStart(spec: McpServerSpec): McpStartCheck;
  /**
   * The pooled client of an enabled server that may start (connecting it in the background if
   * new); null for a disabled one or one the gate holds back. Every start goes through here.
   */
  startable(spec: McpServerSpec): PooledServer | null;
  /** Asks for every known server that may start; disconnects those that no longer may. */
  connectAll(): void;
  close(): Promise<void>;
}

export function createMcpRuntime(options: McpRuntimeOptions): McpRuntime {
  const { settings } = options;
  const env = options.env ?? process.env;
  const pool = createMcpPool({
    // The first retry's wait; the backoff doubles it up to its cap (reconnect-backoff.ts).
    reconnectMs: settings.current().mcpReconnectSeconds * 1000,
    env,
    bearerToken: () => env[settings.current().mcpBearerTokenEnv],
    cwd: settings.current().workspace,
    ...(options.log === undefined ? {} : { log: options.log }),
  });
  const directory = createServerDirectory(options.definitions, () =>
    configuredSpecs(settings.current()),
  );
  const trust =
    options.trust ??
    createMcpTrustStore({
      dataDir: settings.current().dataDir,
      workspace: settings.current().workspace,
    });
  const gate = (spec: McpServerSpec): McpStartCheck =>
    checkStart(spec, { variables: settings.current().mcpJson.variables, trust });
  const connectAll = createConnectAll({ directory, pool, gate, log: options.log });
  // A watched configuration (src/config/watch.ts): an edit of config.yaml or `.mcp.json` that
  // removes, changes or breaks a server ends its connection at once, not at the next lookup.
  const unsubscribe = hasOnChange(settings) ? settings.onChange(() => connectAll()) : undefined;
  const server = createServerLookup({ directory, pool, gate, connectAll });

  return {
    pool,
    directory,
    trust,
    checkStart: gate,
    startable: (spec) => (spec.enabled && gate(spec).allowed ? pool.server(spec) : null),
    server,
    ...createStatusSource(server),
    connectAll,
    close: () => {
      unsubscribe?.();
      return pool.close();
    },
  };
}

function hasOnChange(
  settings: LiveConfig,
): settings is LiveConfig & { onChange(listener: () => void): () => void } {
  return typeof (settings as { onChange?: unknown }).onChange === 'function';
}

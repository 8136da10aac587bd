/**
 * Where an MCP server's full settings come from: a server configured for the workspace
 * (`.subagents/config.yaml` `mcpServers`, or the ecosystem's `.mcp.json`) or one written inline in
 * a definition. A snapshot carries only the name, the approve list and the timeout (no secret
 * enters history), so the worker looks the rest up here, by the agent and the server's name.
 */
import { createHash } from 'node:crypto';
import type { ConfiguredMcpServer, DeputyConfig } from '../config/schema.js';
import type { InlineMcpServer, LoadedDefinition } from '../definitions/definition.js';

/** Everything needed to connect, secrets still as written (`${NAME}` references unresolved). */
export interface McpServerSpec {
  name: string;
  transport: 'stdio' | 'http';
  command?: string;
  args: string[];
  env: Record<string, string>;
  endpoint?: string;
  headers: Record<string, string>;
  auth?: 'bearer';
  enabled: boolean;
  /** Where it was written, for errors and `GET /workspace/mcp`: `config.yaml`, `.mcp.json`, `agent <name>`. */
  source: string;
}

export function fromConfigured(
  name: string,
  server: ConfiguredMcpServer,
  source = 'config.yaml',
): McpServerSpec {
  return {
    name,
    transport: server.transport,
    ...(server.command === undefined ? {} : { command: server.command }),
    args: [...server.args],
    env: { ...server.env },
    ...(server.endpoint === undefined ? {} : { endpoint: server.endpoint }),
    headers: { ...server.headers },
    ...(server.auth === undefined ? {} : { auth: server.auth }),
    enabled: server.enabled,
    source,
  };
}

/** The workspace's configured servers by name (config.yaml, `.mcp.json`), each with its origin. */
export function configuredSpecs(
  config: Pick<DeputyConfig, 'mcpServers' | 'mcpServerOrigins'>,
): Record<string, McpServerSpec> {
  return Object.fromEntries(
    Object.entries(config.mcpServers).map(([name, server]) => [
      name,
      fromConfigured(name, server, config.mcpServerOrigins[name] ?? 'config.yaml'),
    ]),
  );
}

export function fromInline(server: InlineMcpServer, agent: string): McpServerSpec {
  return {
    name: server.name,
    transport: server.transport,
    ...(server.command === undefined ? {} : { command: server.command }),
    args: [...(server.args ?? [])],
    env: { ...(server.env ?? {}) },
    ...(server.endpoint === undefined ? {} : { endpoint: server.endpoint }),
    headers: { ...(server.headers ?? {}) },
    ...(server.auth === undefined ? {} : { auth: server.auth }),
    enabled: true,
    source: `agent ${agent}`,
  };
}

/**
 * sha256 (hex) over what a server connects to, as written: transport, command, args, env, URL,
 * headers, auth (`${NAME}` unresolved). Keys are sorted, so reordering a record changes nothing;
 * where it was written, whether it is enabled and its name are not in it. A person's approval of
 * a `.mcp.json` server names this hash (start-gate.ts).
 */
export function connectionHash(spec: McpServerSpec): string {
  const sorted = (record: Record<string, string>) =>
    Object.fromEntries(Object.entries(record).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
  const connection = [
    spec.transport,
    spec.command ?? null,
    spec.args,
    sorted(spec.env),
    spec.endpoint ?? null,
    sorted(spec.headers),
    spec.auth ?? null,
  ];
  return createHash('sha256').update(JSON.stringify(connection)).digest('hex');
}

/**
 * Identifies what a client connects to. Two definitions that write a server of one name the
 * same way share one client; written differently, they get one each, so an agent never reaches
 * another agent's server by naming it alike.
 */
export function specKey(spec: McpServerSpec): string {
  return `${spec.name}#${connectionHash(spec).slice(0, 12)}`;
}

export interface McpServerDirectory {
  /** The server `agent` declared under `name`, or why there is none. */
  find(agent: string, name: string): McpServerSpec | { missing: string };
  /** Every server any definition or the configuration names, for connecting ahead of use. */
  all(): McpServerSpec[];
}

/** A directory over the registry and the configuration as they are at each call. */
export function createServerDirectory(
  definitions: { get(name: string): LoadedDefinition | undefined; listAll(): LoadedDefinition[] },
  configured: () => Record<string, McpServerSpec>,
): McpServerDirectory {
  const inlineOf = (loaded: LoadedDefinition | undefined, name: string) =>
    loaded?.definition.mcpServers.find(
      (entry): entry is InlineMcpServer => typeof entry !== 'string' && entry.name === name,
    );
  return {
    find(agent, name) {
      const loaded = definitions.get(agent);
      const inline = inlineOf(loaded, name);
      if (inline !== undefined) return fromInline(inline, agent);
      const servers = configured();
      const spec = Object.hasOwn(servers, name) ? servers[name] : undefined;
      if (spec !== undefined) return spec;
      return { missing: `MCP server '${name}' is not configured in this workspace` };
    },
    all() {
      const specs = new Map<string, McpServerSpec>();
      for (const spec of Object.values(configured())) {
        if (spec.enabled) specs.set(specKey(spec), spec);
      }
      for (const loaded of definitions.listAll()) {
        for (const entry of loaded.definition.mcpServers) {
          if (typeof entry === 'string') continue;
          const spec = fromInline(entry, loaded.definition.name);
          specs.set(specKey(spec), spec);
        }
      }
      return [...specs.values()];
    },
  };
}

/**
 * What `GET /workspace/mcp`, `GET /workspace/mcp/:server/tools` and `deputy mcp list|tools`
 * answer, built in one place so the API and the CLI say the same. Every server the configuration
 * writes (disabled ones included) or a definition writes inline is listed, with what the
 * process's pool says of it. Nothing a server needs to connect is shown but where it is: no env
 * value, no header, no credential in a URL, no argument of a command.
 */
import type { DeputyConfig } from '../config/schema.js';
import type { LoadedDefinition } from '../definitions/definition.js';
import type { McpRuntime } from './mcp-runtime.js';
import type { PooledServer } from './pool.js';
import { fromConfigured, fromInline, specKey, type McpServerSpec } from './server-spec.js';
import { approvalState, mcpTrustHash, needsApproval, wouldRun } from './start-gate.js';
import type { McpServerEntry, McpServerList, McpServerTools } from './mcp-view-schemas.js';

export interface McpViewSources {
  runtime: McpRuntime;
  /** The configuration as it is now. */
  config: DeputyConfig;
  /** Who declares what (`listAll()`, shadowed files included); none: `declaredBy` is empty. */
  definitions?: { listAll(): LoadedDefinition[] } | undefined;
}

/** A server as listed: its settings and the agents that declare it. */
export interface KnownMcpServer {
  spec: McpServerSpec;
  declaredBy: string[];
}

/**
 * Every server: the configured ones first (in the configuration's order), then those written
 * inline, one entry per distinct connection (two agents writing a server alike share it, as they
 * share its client), in name order.
 */
export function knownMcpServers(sources: McpViewSources): KnownMcpServer[] {
  const { config } = sources;
  const definitions = sources.definitions?.listAll() ?? [];
  const configured = Object.entries(config.mcpServers).map(([name, server]) => ({
    spec: fromConfigured(name, server, config.mcpServerOrigins[name] ?? 'config.yaml'),
    declaredBy: agentsWhere(definitions, (entry) => entry === name),
  }));
  const inline = new Map<string, KnownMcpServer>();
  const byName = [...definitions].sort((a, b) =>
    a.definition.name.localeCompare(b.definition.name),
  );
  for (const loaded of byName) {
    const agent = loaded.definition.name;
    for (const entry of loaded.definition.mcpServers) {
      if (typeof entry === 'string') continue;
      const spec = fromInline(entry, agent);
      const key = specKey(spec);
      const known = inline.get(key);
      if (known === undefined) inline.set(key, { spec, declaredBy: [agent] });
      else if (!known.declaredBy.includes(agent)) known.declaredBy.push(agent);
    }
  }
  const written = [...inline.values()].sort((a, b) => a.spec.name.localeCompare(b.spec.name));
  return [...configured, ...written];
}

/**
 * The server `name` names for the tools route: the configured one, else the first written inline
 * (by agent name), as an agent that names it without writing it finds the configured one.
 */
export function findMcpServer(sources: McpViewSources, name: string): KnownMcpServer | undefined {
  return knownMcpServers(sources).find((known) => known.spec.name === name);
}

/**
 * The pooled client of an enabled server that may start. Asking for it connects a server the
 * pool does not have yet (one an edit added), in the background, like the runtime's
 * `connectAll`; a `.mcp.json` server no person approved (or that references a variable not
 * allowed) is never started by a listing: null.
 */
export function pooledServer(sources: McpViewSources, spec: McpServerSpec): PooledServer | null {
  return sources.runtime.startable(spec);
}

export function mcpServerEntry(sources: McpViewSources, known: KnownMcpServer): McpServerEntry {
  const { spec } = known;
  const check = sources.runtime.checkStart(spec);
  const pooled = pooledServer(sources, spec);
  const held = spec.enabled && !check.allowed ? check : null;
  const status = held?.status ?? pooled?.status() ?? 'disabled';
  const endpoint = spec.endpoint === undefined ? undefined : withoutCredentials(spec.endpoint);
  return {
    name: spec.name,
    transport: spec.transport,
    source: spec.source,
    enabled: spec.enabled,
    status,
    lastError: held?.problem ?? scrubbed(pooled?.lastError() ?? null),
    toolCount: status === 'connected' ? (pooled?.tools()?.length ?? 0) : null,
    declaredBy: [...known.declaredBy].sort(),
    ...(spec.transport === 'http' && endpoint !== undefined ? { endpoint } : {}),
    ...(spec.transport === 'stdio' && spec.command !== undefined
      ? { command: baseName(spec.command) }
      : {}),
    ...(needsApproval(spec) ? { trust: trustOf(sources, spec) } : {}),
  };
}

/** Whether a person approved the `.mcp.json` server, and while not, what it would run. */
function trustOf(
  sources: McpViewSources,
  spec: McpServerSpec,
): NonNullable<McpServerEntry['trust']> {
  const hash = mcpTrustHash(spec);
  const { trust } = sources.runtime;
  const approval = trust.approval(spec.name);
  const state = approval?.hash === hash ? 'approved' : approvalState(trust, spec.name, approval);
  return {
    state,
    hash,
    approve: `deputy mcp trust ${spec.name}`,
    ...(state === 'approved' ? {} : { wouldRun: wouldRun(spec) }),
  };
}

export function mcpServerList(sources: McpViewSources): McpServerList {
  return {
    v: 1,
    workspaceCwd: sources.config.workspace,
    mcpJsonProblem: sources.config.mcpJsonProblem,
    servers: knownMcpServers(sources).map((known) => mcpServerEntry(sources, known)),
  };
}

/** The live tool list while connected; `[]` with the status (and the last error) otherwise. */
export function mcpServerTools(sources: McpViewSources, known: KnownMcpServer): McpServerTools {
  const entry = mcpServerEntry(sources, known);
  const pooled = pooledServer(sources, known.spec);
  const tools =
    entry.status === 'connected'
      ? (pooled?.tools() ?? []).map((tool) => ({
          name: tool.name,
          description: tool.description ?? '',
          inputSchema: tool.inputSchema as Record<string, unknown>,
        }))
      : [];
  return {
    v: 1,
    workspaceCwd: sources.config.workspace,
    serverName: entry.name,
    source: entry.source,
    status: entry.status,
    lastError: entry.lastError,
    tools,
  };
}

function agentsWhere(
  definitions: readonly LoadedDefinition[],
  declares: (entry: LoadedDefinition['definition']['mcpServers'][number]) => boolean,
): string[] {
  const names = definitions
    .filter((loaded) => loaded.definition.mcpServers.some(declares))
    .map((loaded) => loaded.definition.name);
  return [...new Set(names)].sort();
}

/**
 * Where an http server is, not how to log in: `user:password@`, the query (`?api_key=`) and the
 * fragment are dropped.
 */
function withoutCredentials(endpoint: string): string | undefined {
  try {
    const url = new URL(endpoint);
    return `${url.protocol}//${url.host}${url.pathname}`;
  } catch {
    return undefined;
  }
}

/** `/usr/bin/node` -> `node`: the program, not the paths around it (nor its arguments). */
function baseName(command: string): string {
  return command.split(/[\\/]/).filter(Boolean).pop() ?? command;
}

/** An error message may quote the URL it could not reach, credentials and query included. */
function scrubbed(message: string | null): string | null {
  if (message === null) return null;
  return message.replace(
    /\b[a-z][a-z0-9+.-]*:\/\/[^\s'"<>]+/gi,
    (url) => withoutCredentials(url) ?? '(a URL)',
  );
}

import { ADMIN_ROLE, type Caller } from '../shared/caller.js';
import type { ToolClass, ToolSchema } from '../shared/tools/tool-contract.js';
import {
  BASH_TOOL_SCHEMA,
  FILE_SYSTEM_TOOL_SCHEMAS,
} from '../shared/tools/workspace-tool-schemas.js';
import type { ToolProviderInfo } from '../shared/tools/tool-contract.js';
import {
  KB_SEARCH_TOOL_SCHEMA,
  MCP_GATEWAY_TOOL_SCHEMAS,
  MEMORY_TOOL_SCHEMAS,
  USE_SKILL_TOOL_SCHEMA,
} from '../shared/tools/capability-tool-schemas.js';

/**
 * The tool catalog as providers. Provider and tool names here are the canonical
 * registered names; definitions match them case-insensitively.
 */
export const TOOL_PROVIDERS: readonly ToolProviderInfo[] = [
  { name: 'FileSystem', tools: FILE_SYSTEM_TOOL_SCHEMAS },
  { name: 'Bash', tools: [BASH_TOOL_SCHEMA] },
  { name: 'Knowledge', tools: [KB_SEARCH_TOOL_SCHEMA] },
  { name: 'Memory', tools: MEMORY_TOOL_SCHEMAS },
  { name: 'Skills', tools: [USE_SKILL_TOOL_SCHEMA] },
  { name: 'Mcp', tools: MCP_GATEWAY_TOOL_SCHEMAS },
];

/** A definition field whose declaration a capability provider's tools depend on. */
export type CapabilityDimension = 'knowledge' | 'memory' | 'skills' | 'mcpServers';

/**
 * Capability tools are only mounted when their dimension is declared: `tools: [kb_search]`
 * without `knowledge` would be a search over nothing, and "undeclared means unreachable".
 */
const PROVIDER_DIMENSIONS: Readonly<Record<string, CapabilityDimension>> = {
  Knowledge: 'knowledge',
  Memory: 'memory',
  Skills: 'skills',
  Mcp: 'mcpServers',
};

export function capabilityDimensionOf(providerName: string): CapabilityDimension | null {
  return PROVIDER_DIMENSIONS[providerName] ?? null;
}

/** Classes that change things: with auth on they need the admin role. */
const ROLE_GATED_CLASSES: ReadonlySet<ToolClass> = new Set(['write', 'exec', 'config']);

/**
 * Write-class tools whose writes cannot leave a directory fixed when the tool is built (not the
 * workspace, not a path the model chooses). `memory_write` appends to the agent's own memory
 * directory only, so gating it behind the admin role would take memory away from every
 * non-admin caller for no safety gain. It stays write-class so it runs at most once.
 */
const SELF_CONFINED_TOOLS: ReadonlySet<string> = new Set(['memory_write']);

/** The role a caller needs to see `tool` of `provider`, if any. */
export function requiredRoleOf(provider: ToolProviderInfo, tool: ToolSchema): string | undefined {
  if (provider.requiredRole !== undefined) return provider.requiredRole;
  if (ROLE_GATED_CLASSES.has(tool.toolClass) && !SELF_CONFINED_TOOLS.has(tool.name)) {
    return ADMIN_ROLE;
  }
  return undefined;
}

/** A caller with no identity (auth disabled) is not filtered. */
export function isPermitted(caller: Caller, provider: ToolProviderInfo, tool: ToolSchema): boolean {
  if (caller.id === null) return true;
  const role = requiredRoleOf(provider, tool);
  return role === undefined || caller.roles.includes(role);
}

/**
 * The catalog filtered by the caller's roles: what `GET /workspace/tools` returns. Resolution
 * uses the same `isPermitted`, so the list and what a definition can obtain never disagree.
 * Providers left with no permitted tool are omitted.
 */
export function listPermittedTools(
  caller: Caller,
  providers: readonly ToolProviderInfo[] = TOOL_PROVIDERS,
): ToolProviderInfo[] {
  const result: ToolProviderInfo[] = [];
  for (const provider of providers) {
    const tools = provider.tools.filter((tool) => isPermitted(caller, provider, tool));
    if (tools.length === 0) continue;
    const entry: ToolProviderInfo = { name: provider.name, tools };
    if (provider.requiredRole !== undefined) entry.requiredRole = provider.requiredRole;
    result.push(entry);
  }
  return result;
}

/** The class of a catalog tool by its canonical name; null for a tool the catalog lacks. */
export function toolClassOf(tool: string): ToolClass | null {
  for (const provider of TOOL_PROVIDERS) {
    const found = provider.tools.find((schema) => schema.name === tool);
    if (found !== undefined) return found.toolClass;
  }
  return null;
}

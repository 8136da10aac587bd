/**
 * What the steps of tool selection share: their input, what they have granted so far,
 * and the diagnostics more than one step reports. Apart from resolve-tools.ts so the explicit
 * list (explicit-list.ts) and the rest of the selection read the same words without importing
 * each other.
 */
import type { Caller } from '../../shared/caller.js';
import type { McpServerRef } from '../../shared/capability-snapshot.js';
import type { Diagnostic } from '../../shared/diagnostics.js';
import type { ToolProviderInfo, ToolSchema } from '../../shared/tools/tool-contract.js';
import type { DelegationSpecs } from '../delegation-targets.js';
import { capabilityDimensionOf, type CapabilityDimension } from '../providers.js';
import type { SpecMatch } from './spec-match.js';

export interface ToolResolution {
  tools: string[] | null;
  disallowed: string[];
  providers: readonly ToolProviderInfo[];
  caller: Caller;
  /** Which capability dimensions the definition declares (and that resolved to something). */
  declared: Record<CapabilityDimension, boolean>;
  mcpServers: McpServerRef[];
  /** A declared server's tool as its server lists it now, for a direct tool's real schema. */
  mcpTool?: (
    server: string,
    tool: string,
  ) => { description: string; inputSchema: Record<string, unknown> } | undefined;
  /**
   * A main agent's delegation specs (`Task`, `Task(a, b)`), consumed before matching: they grant
   * the session's own delegation tools, not catalog tools. Absent for a delegate.
   */
  delegation?: DelegationSpecs;
  diagnostics: Diagnostic[];
}

/** What selection has granted so far: the catalog grants it, the list adds, disallowed takes. */
export interface Grants {
  /** Catalog tools by name; the schema is the provider's own entry (it keeps catalog order). */
  granted: Map<string, ToolSchema>;
  /** Directly exposed MCP tools (`mcp__server__tool`), in the order the list named them. */
  direct: Map<string, ToolSchema>;
  /** Tool patterns by tool name (`Bash(git:*)` -> bash: ['git:*']), as the list wrote them. */
  patterns: Record<string, string[]>;
  /** Tools the list also grants without a pattern: their patterns restrict nothing. */
  unrestricted: Set<string>;
  /** Servers `disallowedTools` took away (`mcp:server`). */
  removedServers: Set<string>;
}

/** A provider's tools can be mounted: it is no capability provider, or its dimension is declared. */
export function mountable(r: ToolResolution, provider: ToolProviderInfo): boolean {
  const dimension = capabilityDimensionOf(provider.name);
  return dimension === null || r.declared[dimension];
}

/** `tool.claude-only`: a Claude Code tool deputy has no equivalent for; returns what it pushed. */
export function reportClaudeOnly(
  match: Extract<SpecMatch, { kind: 'claude-only' }>,
  spec: string,
  path: string,
  r: ToolResolution,
  severity: Diagnostic['severity'],
): Diagnostic {
  const diagnostic: Diagnostic = {
    severity,
    path,
    code: 'tool.claude-only',
    message: `'${spec}': ${match.tool} is a Claude Code tool with no deputy equivalent, so ${path.startsWith('disallowed') ? 'there is nothing to remove' : 'nothing is granted'}; ${match.instead}`,
  };
  r.diagnostics.push(diagnostic);
  return diagnostic;
}

/** Emits the diagnostic for a spec that names nothing usable; true when it did. */
export function reportUnmatched(
  match: SpecMatch,
  spec: string,
  path: string,
  r: ToolResolution,
  severity: Diagnostic['severity'],
): match is Extract<SpecMatch, { kind: 'unknown' | 'mcp-not-declared' }> {
  if (match.kind === 'unknown') {
    r.diagnostics.push({
      severity,
      path,
      code: 'tool.unknown',
      message: `'${spec}' names no tool or provider: ${match.reason}`,
    });
    return true;
  }
  if (match.kind === 'mcp-not-declared') {
    r.diagnostics.push({
      severity,
      path,
      code: 'mcp.not-declared',
      message: `'${spec}' names MCP server '${match.server}', which this definition does not declare in mcpServers (declared: ${list(r.mcpServers.map((server) => server.name))})`,
    });
    return true;
  }
  return false;
}

/** Names for a message: comma-separated, or `none`. */
export function list(names: string[]): string {
  return names.length === 0 ? 'none' : names.join(', ');
}

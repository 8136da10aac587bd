import type { Caller } from '../shared/caller.js';
import type { McpServerRef } from '../shared/capability-snapshot.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import type { ToolSchema } from '../shared/tools/tool-contract.js';
import type { ToolProviderInfo } from '../shared/tools/tool-contract.js';
import { capabilityDimensionOf, isPermitted, type CapabilityDimension } from './providers.js';
import { mcpDirectToolSchema } from '../shared/tools/capability-tool-schemas.js';
import { matchToolSpec, splitPatternSpec, type SpecMatch } from './tool-spec.js';
import { parseCommandPattern, pathPatternProblem } from '../policy/tool-patterns.js';
import type { DelegationSpecs } from './delegation-targets.js';

/** Tool selection of CAP-1, part of `resolveCapabilities`. */

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

/**
 * CAP-1. Roles filter first (a caller never gains a tool through a definition, POL-4); then
 * the specs select; then `disallowedTools` removes. Capability tools come from their dimension:
 * declaring `knowledge`, `memory`, `skills` or `mcpServers` mounts its tools even when `tools`
 * is an explicit list (the declaration is the grant, and requiring both would silently leave
 * a catalog the agent cannot use); naming them without the dimension mounts nothing, loudly.
 */
export function resolveTools(r: ToolResolution): {
  tools: ToolSchema[];
  removedServers: Set<string>;
  /** Tool patterns by granted tool name (`Bash(git:*)` -> bash: ['git:*']); see toolPatterns. */
  patterns: Record<string, string[]>;
} {
  const removedServers = new Set<string>();
  const patterns = Object.create(null) as Record<string, string[]>;
  const unrestricted = new Set<string>();
  const granted = new Map<string, ToolSchema>();
  const direct = new Map<string, ToolSchema>();
  const available = (provider: ToolProviderInfo): boolean => {
    const dimension = capabilityDimensionOf(provider.name);
    return dimension === null || r.declared[dimension];
  };

  const explicit = r.tools !== null && r.tools.length > 0;
  for (const provider of r.providers) {
    const dimension = capabilityDimensionOf(provider.name);
    // Without an explicit list every permitted tool; with one, still the declared dimensions'.
    if (explicit && dimension === null) continue;
    if (!available(provider)) continue;
    for (const tool of provider.tools) {
      if (isPermitted(r.caller, provider, tool)) granted.set(tool.name, tool);
    }
  }

  if (explicit) {
    // tool.claude-only is a warning, unless nothing in the list grants a tool (then an error).
    const claudeOnly: Diagnostic[] = [];
    let listGrants = false;
    (r.tools ?? []).forEach((spec, index) => {
      const path = `tools[${index}]`;
      if (r.delegation?.consume(spec, path, 'tools') === true) {
        listGrants = true;
        return;
      }
      const patterned = splitPatternSpec(spec);
      if (patterned !== null) {
        const tool = patternTool(patterned, spec, path, r, claudeOnly);
        if (tool === null) return;
        const provider = r.providers.find((entry) => entry.tools.includes(tool));
        if (provider !== undefined && !isPermitted(r.caller, provider, tool)) {
          r.diagnostics.push({
            severity: 'warning',
            path,
            code: 'tool.hidden-by-role',
            message: `'${spec}': ${tool.name} hidden by role: the caller${r.caller.id === null ? '' : ` '${r.caller.id}'`} lacks the role it requires (roles: ${list(r.caller.roles)})`,
          });
          return;
        }
        granted.set(tool.name, tool);
        listGrants = true;
        (patterns[tool.name] ??= []).push(
          ...(patternProblem(tool, patterned.argument, spec, path, r) ? [] : [patterned.argument]),
        );
        return;
      }
      const match = matchToolSpec(spec, r.providers, r.mcpServers);
      if (match.kind === 'claude-only') {
        claudeOnly.push(reportClaudeOnly(match, spec, path, r, 'warning'));
        return;
      }
      if (reportUnmatched(match, spec, path, r, 'error')) return;
      if (match.kind === 'mcp-tool') {
        listGrants = true;
        const schema = mcpDirectToolSchema(
          match.server,
          match.tool,
          r.mcpTool?.(match.server, match.tool),
        );
        direct.set(schema.name, schema);
        return;
      }
      const hidden: string[] = [];
      const undeclared = new Set<string>();
      for (const { provider, tool } of 'tools' in match ? match.tools : []) {
        if (!isPermitted(r.caller, provider, tool)) hidden.push(tool.name);
        else if (!available(provider)) undeclared.add(capabilityDimensionOf(provider.name) ?? '');
        else {
          granted.set(tool.name, tool);
          unrestricted.add(tool.name);
          listGrants = true;
        }
      }
      if (hidden.length > 0) {
        r.diagnostics.push({
          severity: 'warning',
          path,
          code: 'tool.hidden-by-role',
          message: `'${spec}': ${hidden.join(', ')} hidden by role: the caller${r.caller.id === null ? '' : ` '${r.caller.id}'`} lacks the role these tools require (roles: ${list(r.caller.roles)})`,
        });
      }
      for (const dimension of undeclared) {
        r.diagnostics.push({
          severity: 'warning',
          path,
          code: 'tool.capability-not-declared',
          message: `'${spec}' is a ${dimension} tool: it is mounted only when the definition declares ${dimension}, which it does not`,
        });
      }
    });
    for (const diagnostic of claudeOnly) if (!listGrants) diagnostic.severity = 'error';
  }

  r.disallowed.forEach((spec, index) => {
    if (r.delegation?.consume(spec, `disallowedTools[${index}]`, 'disallowed') === true) return;
    const match = matchToolSpec(spec, r.providers, r.mcpServers);
    if (match.kind === 'claude-only') {
      // Nothing to take away: the agent never has it. Said, quietly.
      reportClaudeOnly(match, spec, `disallowedTools[${index}]`, r, 'info');
      return;
    }
    if (reportUnmatched(match, spec, `disallowedTools[${index}]`, r, 'warning')) return;
    if (match.kind === 'tools') {
      for (const { tool } of match.tools) granted.delete(tool.name);
    } else if (match.kind === 'mcp-server') {
      // `mcp:server` in disallowedTools takes the server away: from the gateway's scope and
      // with its directly exposed tools.
      removedServers.add(match.server);
      const prefix = `mcp__${match.server}__`;
      for (const name of [...direct.keys()]) if (name.startsWith(prefix)) direct.delete(name);
    } else if (match.kind === 'mcp-tool') {
      direct.delete(mcpDirectToolSchema(match.server, match.tool).name);
    }
  });

  // Stable order: catalog order, then direct MCP tools in declaration order.
  const ordered = r.providers.flatMap((provider) =>
    provider.tools.filter((tool) => granted.get(tool.name) === tool),
  );
  // A tool granted both plainly and by pattern (`Bash`, `Bash(git:*)`) is unrestricted, as in
  // Claude Code; a tool disallowed after all keeps no patterns.
  const kept = Object.create(null) as Record<string, string[]>;
  for (const [name, list] of Object.entries(patterns)) {
    if (unrestricted.has(name)) {
      r.diagnostics.push({
        severity: 'info',
        path: 'tools',
        code: 'tool.pattern-overridden',
        message: `${name} is also granted without a pattern, so its patterns (${list.join(', ')}) restrict nothing`,
      });
    } else if (granted.has(name)) kept[name] = list;
  }
  return { tools: [...ordered, ...direct.values()], removedServers, patterns: kept };
}

/**
 * The one tool a `Tool(pattern)` spec restricts: bash, or a workspace file tool. `Agent(...)`
 * and `Task(...)` restrict which agents a main agent starts; a delegate never starts one.
 */
function patternTool(
  patterned: { tool: string; argument: string },
  spec: string,
  path: string,
  r: ToolResolution,
  claudeOnly: Diagnostic[],
): ToolSchema | null {
  const name = patterned.tool.toLowerCase();
  if (name === 'agent' || name === 'task') {
    r.diagnostics.push({
      severity: 'warning',
      path,
      code: 'tool.agent-pattern',
      message: `'${spec}' limits which agents a main agent may start; a deputy delegate never starts agents (it has no Task tool), so this entry grants nothing`,
    });
    return null;
  }
  const match = matchToolSpec(patterned.tool, r.providers, r.mcpServers);
  if (match.kind === 'claude-only') {
    claudeOnly.push(reportClaudeOnly(match, spec, path, r, 'warning'));
    return null;
  }
  if (reportUnmatched(match, spec, path, r, 'error')) return null;
  const tools = match.kind === 'tools' ? match.tools.map((entry) => entry.tool) : [];
  const tool = tools.length === 1 ? tools[0]! : undefined;
  if (tool === undefined || (tool.name !== 'bash' && (tool.pathArguments ?? []).length === 0)) {
    r.diagnostics.push({
      severity: 'error',
      path,
      code: 'tool.pattern-unsupported',
      message: `'${spec}': patterns restrict only bash (Bash(cmd), Bash(prefix:*)) and the file tools (Read(glob), Edit(glob), Write(glob), Glob(glob), Grep(glob)); not granted`,
    });
    return null;
  }
  return tool;
}

/** Reports a pattern deputy cannot enforce; true when it did (the pattern then allows nothing). */
function patternProblem(
  tool: ToolSchema,
  argument: string,
  spec: string,
  path: string,
  r: ToolResolution,
): boolean {
  const parsed = tool.name === 'bash' ? parseCommandPattern(argument) : null;
  const problem =
    tool.name === 'bash'
      ? typeof parsed === 'string'
        ? parsed
        : null
      : pathPatternProblem(argument);
  if (problem === null) return false;
  r.diagnostics.push({
    severity: 'error',
    path,
    code: 'tool.pattern-invalid',
    message: `'${spec}': ${problem}; this pattern allows nothing`,
  });
  return true;
}

/** `tool.claude-only`: a Claude Code tool deputy has no equivalent for; returns what it pushed. */
function reportClaudeOnly(
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
function reportUnmatched(
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

function list(names: string[]): string {
  return names.length === 0 ? 'none' : names.join(', ');
}

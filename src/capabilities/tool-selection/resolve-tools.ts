import type { ToolSchema } from '../../shared/tools/tool-contract.js';
import { capabilityDimensionOf, isPermitted } from '../providers.js';
import { mcpDirectToolSchema } from '../../shared/tools/capability-tool-schemas.js';
import { matchToolSpec } from './spec-match.js';
import { grantListed } from './explicit-list.js';
import {
  mountable,
  reportClaudeOnly,
  reportUnmatched,
  type Grants,
  type ToolResolution,
} from './selection-state.js';

/** Tool selection, part of `resolveCapabilities`. */

export type { ToolResolution } from './selection-state.js';

/**
 * Roles filter first (a caller never gains a tool through a definition); then the specs select;
 * then `disallowedTools` removes. Capability tools come from their dimension: declaring
 * `knowledge`, `memory`, `skills` or `mcpServers` mounts its tools even when `tools` is an explicit
 * list (the declaration is the grant, and requiring both would silently leave a catalog the agent
 * cannot use); naming them without the dimension mounts nothing, loudly.
 */
export function resolveTools(r: ToolResolution): {
  tools: ToolSchema[];
  removedServers: Set<string>;
  /** Tool patterns by granted tool name (`Bash(git:*)` -> bash: ['git:*']); see toolPatterns. */
  patterns: Record<string, string[]>;
} {
  const explicit = r.tools !== null && r.tools.length > 0;
  const grants: Grants = {
    granted: catalogGrants(r, explicit),
    direct: new Map(),
    patterns: Object.create(null) as Record<string, string[]>,
    unrestricted: new Set(),
    removedServers: new Set(),
  };
  if (explicit) grantListed(r, grants);
  removeDisallowed(r, grants);
  return {
    tools: orderedTools(r, grants),
    removedServers: grants.removedServers,
    patterns: keptPatterns(r, grants),
  };
}

/**
 * What the caller may have before any spec is read: without an explicit list every permitted
 * tool; with one, still the declared dimensions' tools.
 */
function catalogGrants(r: ToolResolution, explicit: boolean): Map<string, ToolSchema> {
  const granted = new Map<string, ToolSchema>();
  for (const provider of r.providers) {
    if (explicit && capabilityDimensionOf(provider.name) === null) continue;
    if (!mountable(r, provider)) continue;
    for (const tool of provider.tools) {
      if (isPermitted(r.caller, provider, tool)) granted.set(tool.name, tool);
    }
  }
  return granted;
}

/** `disallowedTools` takes away what the catalog and the list granted. */
function removeDisallowed(r: ToolResolution, grants: Grants): void {
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
      for (const { tool } of match.tools) grants.granted.delete(tool.name);
    } else if (match.kind === 'mcp-server') {
      // `mcp:server` in disallowedTools takes the server away: from the gateway's scope and
      // with its directly exposed tools.
      grants.removedServers.add(match.server);
      const prefix = `mcp__${match.server}__`;
      for (const name of [...grants.direct.keys()]) {
        if (name.startsWith(prefix)) grants.direct.delete(name);
      }
    } else if (match.kind === 'mcp-tool') {
      grants.direct.delete(mcpDirectToolSchema(match.server, match.tool).name);
    }
  });
}

/** Stable order: catalog order, then direct MCP tools in declaration order. */
function orderedTools(r: ToolResolution, { granted, direct }: Grants): ToolSchema[] {
  const ordered = r.providers.flatMap((provider) =>
    provider.tools.filter((tool) => granted.get(tool.name) === tool),
  );
  return [...ordered, ...direct.values()];
}

/**
 * A tool granted both plainly and by pattern (`Bash`, `Bash(git:*)`) is unrestricted, as in
 * Claude Code; a tool disallowed after all keeps no patterns.
 */
function keptPatterns(r: ToolResolution, grants: Grants): Record<string, string[]> {
  const kept = Object.create(null) as Record<string, string[]>;
  for (const [name, list] of Object.entries(grants.patterns)) {
    if (grants.unrestricted.has(name)) {
      r.diagnostics.push({
        severity: 'info',
        path: 'tools',
        code: 'tool.pattern-overridden',
        message: `${name} is also granted without a pattern, so its patterns (${list.join(', ')}) restrict nothing`,
      });
    } else if (grants.granted.has(name)) kept[name] = list;
  }
  return kept;
}

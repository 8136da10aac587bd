/**
 * A definition's explicit `tools` list: each spec grants the catalog tools it names, a
 * directly exposed MCP tool, or one tool restricted by a Claude Code pattern (`Bash(git:*)`,
 * `Read(docs/**)`). Every spec that grants nothing says why. Its own module because a list is
 * most of what can go wrong in a definition's tools, and each kind of spec is one small step.
 */
import type { Diagnostic } from '../../shared/diagnostics.js';
import { mcpDirectToolSchema } from '../../shared/tools/capability-tool-schemas.js';
import type { ToolSchema } from '../../shared/tools/tool-contract.js';
import { parseCommandPattern, pathPatternProblem } from '../../policy/tool-patterns.js';
import { capabilityDimensionOf, isPermitted } from '../providers.js';
import {
  list,
  mountable,
  reportClaudeOnly,
  reportUnmatched,
  type Grants,
  type ToolResolution,
} from './selection-state.js';
import { matchToolSpec, splitPatternSpec, type SpecMatch } from './spec-match.js';

/** The list being read: the resolution, what is granted so far, the claude-only notes. */
interface Reading {
  r: ToolResolution;
  grants: Grants;
  /** tool.claude-only is a warning, unless nothing in the list grants a tool (then an error). */
  claudeOnly: Diagnostic[];
}

/** Adds what `r.tools` grants to `grants`. */
export function grantListed(r: ToolResolution, grants: Grants): void {
  const reading: Reading = { r, grants, claudeOnly: [] };
  let listGrants = false;
  (r.tools ?? []).forEach((spec, index) => {
    if (grantSpec(spec, `tools[${index}]`, reading)) listGrants = true;
  });
  for (const diagnostic of reading.claudeOnly) if (!listGrants) diagnostic.severity = 'error';
}

/** One entry of the list; true when it granted something. */
function grantSpec(spec: string, path: string, reading: Reading): boolean {
  const { r, grants } = reading;
  if (r.delegation?.consume(spec, path, 'tools') === true) return true;
  const patterned = splitPatternSpec(spec);
  if (patterned !== null) return grantPatterned(patterned, spec, path, reading);
  const match = matchToolSpec(spec, r.providers, r.mcpServers);
  if (match.kind === 'claude-only') {
    reading.claudeOnly.push(reportClaudeOnly(match, spec, path, r, 'warning'));
    return false;
  }
  if (reportUnmatched(match, spec, path, r, 'error')) return false;
  if (match.kind === 'mcp-tool') {
    const schema = mcpDirectToolSchema(
      match.server,
      match.tool,
      r.mcpTool?.(match.server, match.tool),
    );
    grants.direct.set(schema.name, schema);
    return true;
  }
  return grantMatched(match, spec, path, r, grants);
}

/**
 * The catalog tools a plain spec names, each unless the caller's role hides it or its
 * dimension is not declared (both said); true when one was granted.
 */
function grantMatched(
  match: SpecMatch,
  spec: string,
  path: string,
  r: ToolResolution,
  grants: Grants,
): boolean {
  let granted = false;
  const hidden: string[] = [];
  const undeclared = new Set<string>();
  for (const { provider, tool } of 'tools' in match ? match.tools : []) {
    if (!isPermitted(r.caller, provider, tool)) hidden.push(tool.name);
    else if (!mountable(r, provider)) undeclared.add(capabilityDimensionOf(provider.name) ?? '');
    else {
      grants.granted.set(tool.name, tool);
      grants.unrestricted.add(tool.name);
      granted = true;
    }
  }
  if (hidden.length > 0) {
    reportHiddenByRole(`'${spec}': ${hidden.join(', ')}`, 'these tools require', path, r);
  }
  for (const dimension of undeclared) {
    r.diagnostics.push({
      severity: 'warning',
      path,
      code: 'tool.capability-not-declared',
      message: `'${spec}' is a ${dimension} tool: it is mounted only when the definition declares ${dimension}, which it does not`,
    });
  }
  return granted;
}

/** `Tool(pattern)`: the one tool it restricts, granted with the pattern; true when granted. */
function grantPatterned(
  patterned: { tool: string; argument: string },
  spec: string,
  path: string,
  { r, grants, claudeOnly }: Reading,
): boolean {
  const tool = patternTool(patterned, spec, path, r, claudeOnly);
  if (tool === null) return false;
  const provider = r.providers.find((entry) => entry.tools.includes(tool));
  if (provider !== undefined && !isPermitted(r.caller, provider, tool)) {
    reportHiddenByRole(`'${spec}': ${tool.name}`, 'it requires', path, r);
    return false;
  }
  grants.granted.set(tool.name, tool);
  (grants.patterns[tool.name] ??= []).push(
    ...(patternProblem(tool, patterned.argument, spec, path, r) ? [] : [patterned.argument]),
  );
  return true;
}

/** `tool.hidden-by-role`: what the spec named needs a role the caller lacks. */
function reportHiddenByRole(
  what: string,
  requires: 'it requires' | 'these tools require',
  path: string,
  r: ToolResolution,
): void {
  r.diagnostics.push({
    severity: 'warning',
    path,
    code: 'tool.hidden-by-role',
    message: `${what} hidden by role: the caller${r.caller.id === null ? '' : ` '${r.caller.id}'`} lacks the role ${requires} (roles: ${list(r.caller.roles)})`,
  });
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

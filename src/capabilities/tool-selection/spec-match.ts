import type { McpServerRef } from '../../shared/capability-snapshot.js';
import type { ToolSchema } from '../../shared/tools/tool-contract.js';
import type { ToolProviderInfo } from '../../shared/tools/tool-contract.js';

/**
 * What one tool spec names. Specs: `Provider`, `Provider:Tool`, `Tool`, `mcp:server`,
 * `mcp:server:tool`. Names match case-insensitively; matches carry the canonical registered names,
 * which is what gets stored (lowercasing declared names would make CamelCase registrations like
 * `WebFetch` silently resolve to nothing).
 */
export type SpecMatch =
  | { kind: 'tools'; tools: Array<{ provider: ToolProviderInfo; tool: ToolSchema }> }
  | {
      kind: 'mcp-server';
      server: string;
      tools: Array<{ provider: ToolProviderInfo; tool: ToolSchema }>;
    }
  | { kind: 'mcp-tool'; server: string; tool: string }
  | { kind: 'mcp-not-declared'; server: string }
  /** A Claude Code tool deputy has no equivalent for (`WebFetch`, `TodoWrite`...). */
  | { kind: 'claude-only'; tool: string; instead: string }
  | { kind: 'unknown'; reason: string };

const MCP_PROVIDER = 'Mcp';

/**
 * Claude Code's own tools that no deputy provider stands for, by lower-cased name: their
 * canonical spelling and what to do instead. `Task` is refused apart (DELEGATION_TOOLS): a
 * delegate cannot delegate. Checked only when no registered tool has the name.
 */
const CLAUDE_ONLY_TOOLS: ReadonlyMap<string, { tool: string; instead: string }> = new Map(
  (
    [
      ['WebFetch', 'to fetch web pages, declare an MCP server that fetches in mcpServers'],
      ['WebSearch', 'to search the web, declare an MCP server that searches in mcpServers'],
      ['NotebookEdit', 'edit the notebook file with edit or write'],
      ['NotebookRead', 'read the notebook file with read'],
      ['TodoWrite', 'a delegate keeps no todo list; it plans in its own turns'],
      ['TodoRead', 'a delegate keeps no todo list; it plans in its own turns'],
      ['BashOutput', 'a bash call runs to completion and returns its output'],
      ['KillShell', 'a bash call runs to completion; there is no background shell to stop'],
      ['KillBash', 'a bash call runs to completion; there is no background shell to stop'],
      ['ExitPlanMode', 'under permissionMode plan the agent presents its plan in its answer'],
      ['AskUserQuestion', 'a delegate answers its parent; it does not ask the user'],
      ['SlashCommand', 'a delegate runs no slash commands'],
    ] as const
  ).map(([tool, instead]) => [tool.toLowerCase(), { tool, instead }]),
);
const DELEGATION_TOOLS = new Set(['task', 'taskoutput', 'taskstop']);
/** What model APIs accept as a tool name (OpenAI's rule is the strictest in use). */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

export function matchToolSpec(
  rawSpec: string,
  providers: readonly ToolProviderInfo[],
  mcpServers: readonly McpServerRef[],
): SpecMatch {
  const spec = rawSpec.trim();
  if (spec === '') return { kind: 'unknown', reason: 'the spec is empty' };
  if (DELEGATION_TOOLS.has(spec.toLowerCase())) {
    return {
      kind: 'unknown',
      reason:
        "a delegate never has Task, TaskOutput or TaskStop: it cannot delegate further (only a session's main agent delegates)",
    };
  }
  const parts = spec.split(':');
  const head = parts[0] ?? '';

  if (parts.length >= 2 && head.toLowerCase() === 'mcp') {
    const serverPart = parts[1] ?? '';
    const toolPart = parts.slice(2).join(':');
    if (serverPart === '' || (parts.length > 2 && toolPart === '')) {
      return { kind: 'unknown', reason: 'write mcp:<server> or mcp:<server>:<tool>' };
    }
    const server = mcpServers.find((ref) => ref.name.toLowerCase() === serverPart.toLowerCase());
    if (server === undefined) {
      // `Mcp:mcp_call` is also a Provider:Tool spec; prefer that reading when it names a tool.
      if (parts.length === 2) {
        const asProviderTool = matchProviderTool(MCP_PROVIDER, serverPart, providers);
        if (asProviderTool.kind === 'tools') return asProviderTool;
      }
      return { kind: 'mcp-not-declared', server: serverPart };
    }
    if (parts.length === 2) {
      const provider = providers.find((candidate) => candidate.name === MCP_PROVIDER);
      return {
        kind: 'mcp-server',
        server: server.name,
        tools: provider === undefined ? [] : provider.tools.map((tool) => ({ provider, tool })),
      };
    }
    const wire = `mcp__${server.name}__${toolPart}`;
    if (!TOOL_NAME.test(wire)) {
      return {
        kind: 'unknown',
        reason: `'${wire}' is not a valid tool name for model APIs (letters, digits, "_", "-", at most 64); reach this tool through mcp_call instead`,
      };
    }
    return { kind: 'mcp-tool', server: server.name, tool: toolPart };
  }

  if (parts.length === 2) return matchProviderTool(head, parts[1] ?? '', providers);
  if (parts.length > 2) {
    return { kind: 'unknown', reason: 'only mcp:<server>:<tool> specs have two colons' };
  }

  // `Tool` by its own name, or `Provider` for all its tools (`bash` is both: same result).
  const lower = spec.toLowerCase();
  const matches: Array<{ provider: ToolProviderInfo; tool: ToolSchema }> = [];
  for (const provider of providers) {
    const whole = provider.name.toLowerCase() === lower;
    for (const tool of provider.tools) {
      if (whole || tool.name.toLowerCase() === lower) matches.push({ provider, tool });
    }
  }
  if (matches.length === 0) {
    const claudeOnly = CLAUDE_ONLY_TOOLS.get(lower);
    if (claudeOnly !== undefined) return { kind: 'claude-only', ...claudeOnly };
    return {
      kind: 'unknown',
      reason: `known providers: ${providers.map((provider) => provider.name).join(', ')}; known tools: ${providers
        .flatMap((provider) => provider.tools.map((tool) => tool.name))
        .join(', ')}`,
    };
  }
  return { kind: 'tools', tools: matches };
}

function matchProviderTool(
  providerPart: string,
  toolPart: string,
  providers: readonly ToolProviderInfo[],
): SpecMatch {
  const provider = providers.find(
    (candidate) => candidate.name.toLowerCase() === providerPart.toLowerCase(),
  );
  if (provider === undefined) {
    return {
      kind: 'unknown',
      reason: `no provider '${providerPart}' (known providers: ${providers.map((candidate) => candidate.name).join(', ')})`,
    };
  }
  const tool = provider.tools.find(
    (candidate) => candidate.name.toLowerCase() === toolPart.toLowerCase(),
  );
  if (tool === undefined) {
    return {
      kind: 'unknown',
      reason: `provider ${provider.name} has no tool '${toolPart}' (its tools: ${provider.tools.map((candidate) => candidate.name).join(', ')})`,
    };
  }
  return { kind: 'tools', tools: [{ provider, tool }] };
}

/**
 * Claude Code's restricted form `Tool(argument)`: `Bash(git:*)`, `Read(docs/**)`,
 * `Agent(a, b)`. Returns null for every other spec (which matchToolSpec reads).
 */
export function splitPatternSpec(rawSpec: string): { tool: string; argument: string } | null {
  const spec = rawSpec.trim();
  const open = spec.indexOf('(');
  if (open <= 0 || !spec.endsWith(')')) return null;
  const tool = spec.slice(0, open).trim();
  if (!/^[A-Za-z][A-Za-z0-9_-]*$/.test(tool)) return null;
  return { tool, argument: spec.slice(open + 1, -1).trim() };
}

/**
 * Claude Code's hook form, the parts both the reader, the workflow and the hook
 * runner need: tool names as Claude Code spells them and its matcher rule. Sandbox-safe.
 */
import type { HookCommandRef } from './capability-snapshot.js';

/** deputy's built-in tools under the names Claude Code's matchers and hook inputs use. */
const CLAUDE_TOOL_NAMES: Record<string, string> = {
  bash: 'Bash',
  read: 'Read',
  write: 'Write',
  edit: 'Edit',
  glob: 'Glob',
  grep: 'Grep',
};

/**
 * The name a Claude Code hook sees for a call: `Bash`, `Write`, ...; an MCP call is
 * `mcp__server__tool`; any other deputy tool keeps its own name.
 */
export function claudeToolName(toolName: string, mcp: { server: string; tool: string } | null) {
  if (mcp !== null) return `mcp__${mcp.server}__${mcp.tool}`;
  return CLAUDE_TOOL_NAMES[toolName] ?? toolName;
}

/**
 * Claude Code's matcher: missing, empty or `*` matches every tool; otherwise a case-sensitive
 * regular expression over the whole tool name (`Edit|Write`, `mcp__github__.*`). An invalid
 * one matches nothing (the reader already reported it).
 */
export function claudeMatcherMatches(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined || matcher === '' || matcher === '*') return true;
  try {
    return new RegExp(`^(?:${matcher})$`).test(toolName);
  } catch {
    return false;
  }
}

/** A matcher the runner can use; the reader refuses the others. */
export function isValidClaudeMatcher(matcher: string): boolean {
  try {
    new RegExp(`^(?:${matcher})$`);
    return true;
  } catch {
    return false;
  }
}

/** The event's hooks in Claude Code's form that apply to a tool (by its Claude Code name). */
export function claudeHooksFor(
  hooks: Record<string, HookCommandRef[]> | undefined,
  event: 'PreToolUse' | 'PostToolUse',
  claudeName: string,
): HookCommandRef[] {
  return (hooks?.[event] ?? []).filter(
    (hook) => hook.format === 'claude' && claudeMatcherMatches(hook.matcher, claudeName),
  );
}

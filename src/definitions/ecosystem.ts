/**
 * What Claude Code (`.claude/agents`) and qwen-code (`.qwen/agents`) files write that deputy
 * reads differently or not at all. Mapping is explicit and each unsupported field is named in a
 * diagnostic, so nothing an author wrote disappears without a word.
 */
import type { MemoryMode } from '../shared/capability-snapshot.js';
import type { InlineMcpServer } from './definition.js';
import { report, type ReadContext } from './read/context.js';

/**
 * Fields other agent runtimes define that deputy does not act on, with the reason shown to the
 * user (a `field.unsupported` warning). The agent still runs; the value is kept in the file.
 * docs/claude-code.md lists each Claude Code field; a test holds this map and that table together.
 */
export const UNSUPPORTED_FIELDS: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    isolation:
      'isolation is not supported: Claude Code would run the agent in a temporary git worktree; deputy runs every delegation in the workspace itself (its writes land there, under approvals)',
    effort:
      "effort is not supported: deputy sends no effort or thinking setting to the model; the model's own default applies",
    initialPrompt:
      'initialPrompt is not supported: it only applies when Claude Code runs the agent as the main session; in deputy the task always comes from the delegation',
    modelConfig: 'modelConfig (qwen-code) is not read: use model with a catalog handle',
    proactive: 'proactive is not supported',
  }),
);

/** Sub-keys of qwen-code's legacy `runConfig` that deputy does not read (it reads `max_turns`). */
export const RUN_CONFIG_TURNS_KEY = 'max_turns';

/**
 * `mcp__server__tool` (Claude Code's wire name) -> `mcp:server:tool` (deputy's tool spec);
 * `mcp__server__*` and `mcp__server` (every tool of the server) -> `mcp:server`.
 */
export function mapClaudeToolName(spec: string): string | undefined {
  const match = /^mcp__([^_].*?)__(.+)$/.exec(spec);
  if (match === null) {
    const server = /^mcp__([^_].*)$/.exec(spec);
    return server === null || server[1]!.includes('__') ? undefined : `mcp:${server[1]}`;
  }
  return match[2] === '*' ? `mcp:${match[1]}` : `mcp:${match[1]}:${match[2]}`;
}

/** Claude Code's memory scopes, which are not deputy's (none | private | shared). */
export const CLAUDE_MEMORY_SCOPES = new Set(['user', 'project', 'local']);

/**
 * `memory: user|project|local`. In an ecosystem file the author asked for a persistent memory
 * directory of this agent; deputy gives it its own (`private`), closure-scoped: reached only
 * through the memory tools, never as a path, so the scope's folder under ~/.claude or .claude is
 * not used. Elsewhere a Claude Code scope is not a deputy mode and is an error.
 */
export function claudeMemoryScope(scope: string, ctx: ReadContext): MemoryMode | undefined {
  if (ctx.level !== 'ecosystem') {
    report(
      ctx,
      'error',
      'memory',
      'memory.unsupported-scope',
      `memory '${scope}' is a Claude Code scope, not a deputy mode (none, private, shared); memory stays 'none'`,
    );
    return undefined;
  }
  report(
    ctx,
    'info',
    'memory',
    'memory.scope-mapped',
    `memory '${scope}' (Claude Code: a memory folder of this agent${CLAUDE_MEMORY_FOLDERS[scope] ?? ''}) runs as deputy's 'private' memory: the agent's own directory in deputy's data directory, reached through memory_read, memory_write and memory_search, with its root notes shown in the prompt`,
  );
  return 'private';
}

const CLAUDE_MEMORY_FOLDERS: Record<string, string> = {
  user: ' under ~/.claude/agent-memory/',
  project: ' under .claude/agent-memory/',
  local: ' under .claude/agent-memory-local/',
};

/**
 * Notes on Claude Code fields that deputy reads with its own meaning, said once per file of the
 * ecosystem level so the author knows what runs instead (docs/claude-code.md).
 */
export function ecosystemNotes(values: Record<string, unknown>, ctx: ReadContext): void {
  if (ctx.level !== 'ecosystem') return;
  const skills = values.skills;
  if (skills !== undefined && skills !== null && skills !== '' && !isEmptyList(skills)) {
    report(
      ctx,
      'info',
      'skills',
      'skills.not-preloaded',
      "skills are not preloaded: Claude Code injects each skill's full body at startup; deputy lists them in the prompt's skill catalog and the agent loads a body with use_skill when it needs it, so the prompt stays within its budget and every body read is a recorded tool call",
    );
  }
  if (values.background === true) {
    report(
      ctx,
      'info',
      'background',
      'background.caller-decides',
      "background: true: deputy delegate, POST /delegations?wait=true and a session's Task return at once with the delegation's id instead of waiting for its result; every delegation is durable either way",
    );
  }
}

function isEmptyList(value: unknown): boolean {
  return Array.isArray(value) && value.length === 0;
}

/** Model values that never need the alias map. */
export function isModelHandle(model: string): boolean {
  return model === 'default' || model.startsWith('scripted:') || model.includes('/');
}

/** True for Claude Code's hook shape: `{PreToolUse: [{matcher, hooks: [{type, command}]}]}`. */
export function isClaudeHookEntry(entry: unknown): boolean {
  return (
    entry !== null &&
    typeof entry === 'object' &&
    (Object.hasOwn(entry, 'hooks') || Object.hasOwn(entry, 'matcher'))
  );
}

/**
 * Claude Code's inline server form `{server-name: {type, command, args, env, url, headers}}`
 * mapped to deputy's `{name, transport, ...}`. Returns undefined when it is not that form.
 */
export function mapClaudeMcpServer(
  name: string,
  config: unknown,
): Record<string, unknown> | undefined {
  if (config === null || typeof config !== 'object' || Array.isArray(config)) return undefined;
  const source = config as Record<string, unknown>;
  const out = Object.create(null) as Record<string, unknown>;
  out.name = name;
  const type =
    source.type ?? source.transport ?? (source.command !== undefined ? 'stdio' : undefined);
  out.transport = type === 'streamable-http' || type === 'streamableHttp' ? 'http' : type;
  const renames: Record<string, keyof InlineMcpServer> = {
    url: 'endpoint',
    httpUrl: 'endpoint',
    timeout: 'toolTimeoutSeconds',
  };
  for (const key of Object.keys(source)) {
    if (key === 'type' || key === 'transport') continue;
    const target = Object.hasOwn(renames, key) ? renames[key]! : key;
    let value = source[key];
    // Claude Code and qwen-code write MCP timeouts in milliseconds.
    if (key === 'timeout' && typeof value === 'number') value = value / 1000;
    out[target] = value;
  }
  return out;
}

/**
 * What Claude Code (`.claude/agents`) and qwen-code (`.qwen/agents`) files write that deputy
 * reads differently or not at all. Mapping is explicit and each unsupported field is named in a
 * diagnostic, so nothing an author wrote disappears without a word.
 */
import type { InlineMcpServer } from './definition.js';

/** Fields other agent runtimes define that deputy does not act on, with the reason shown to the user. */
export const UNSUPPORTED_FIELDS: Readonly<Record<string, string>> = Object.freeze(
  Object.assign(Object.create(null) as Record<string, string>, {
    isolation: 'isolation is not supported: delegations run in the workspace',
    effort: 'effort is not supported',
    initialPrompt: 'initialPrompt is not supported: the task comes from the delegation',
    modelConfig: 'modelConfig (qwen-code) is not read: use model with a catalog handle',
    proactive: 'proactive is not supported',
  }),
);

/** Sub-keys of qwen-code's legacy `runConfig` that deputy does not read (it reads `max_turns`). */
export const RUN_CONFIG_TURNS_KEY = 'max_turns';

/** `mcp__server__tool` (Claude Code's wire name) -> `mcp:server:tool` (deputy's spec, CAP-1). */
export function mapClaudeToolName(spec: string): string | undefined {
  const match = /^mcp__([^_].*?)__(.+)$/.exec(spec);
  if (match === null) return undefined;
  return `mcp:${match[1]}:${match[2]}`;
}

/** Claude Code's memory scopes, which are not deputy's (none | private | shared). */
export const CLAUDE_MEMORY_SCOPES = new Set(['user', 'project', 'local']);

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

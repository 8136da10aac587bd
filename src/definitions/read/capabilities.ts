/**
 * Readers of the fields that decide what an agent can reach: tools, disallowedTools, skills,
 * mcpServers, knowledge, memory and hooks. List readers keep the valid entries and report the
 * others, so one bad entry never costs the whole list.
 */
import type { KnowledgeSourceRef, MemoryMode } from '../../shared/capability-snapshot.js';
import type { HookCommand, InlineMcpServer } from '../definition.js';
import {
  CLAUDE_MEMORY_SCOPES,
  claudeMemoryScope,
  isClaudeHookEntry,
  mapClaudeMcpServer,
  mapClaudeToolName,
} from '../ecosystem.js';
import { invalid, isMapping, mustBe, parseOrReport, report, type ReadContext } from './context.js';
import { readEnum } from './scalars.js';
import { isValidClaudeMatcher } from '../../shared/claude-hooks.js';
import {
  HOOK_EVENTS,
  HookCommandSchema,
  InlineMcpServerSchema,
  KnowledgeSourceSchema,
  MAX_SKILLS,
  MEMORY_MODES,
} from '../schema.js';
import { toPlain } from './yaml-read.js';

/**
 * Stands in for a `tools` declaration that was written but could not be read. It resolves to
 * nothing, so a broken allowlist gives the agent zero tools instead of every tool.
 */
export const INVALID_TOOLS_SPEC = '(invalid tools declaration)';

/** Accepts a list or the comma-separated string Claude Code files usually write (`Read, Grep`). */
export function readToolList(
  key: string,
  value: unknown,
  ctx: ReadContext,
  isAllowlist: boolean,
): string[] | null {
  let items: unknown[];
  if (typeof value === 'string') {
    items = splitSpecList(value)
      .map((part) => part.trim())
      .filter((part) => part !== '');
    if (items.length === 0) return isAllowlist ? null : [];
  } else if (Array.isArray(value)) {
    items = value;
  } else {
    mustBe(
      ctx,
      key,
      'a list of tool specs or a comma-separated string',
      value,
      isAllowlist ? 'the agent gets no tools until this is fixed' : 'nothing is removed',
    );
    return isAllowlist ? [INVALID_TOOLS_SPEC] : [];
  }
  const specs: string[] = [];
  items.forEach((item, index) => {
    const path = `${key}[${index}]`;
    if (typeof item !== 'string' || item.trim() === '') {
      mustBe(ctx, path, 'a non-empty string', item, 'ignored');
      return;
    }
    const spec = item.trim();
    const mapped = mapClaudeToolName(spec);
    if (mapped !== undefined) {
      report(ctx, 'info', path, 'tools.mapped', `'${spec}' is read as the deputy spec '${mapped}'`);
    }
    specs.push(mapped ?? spec);
  });
  if (isAllowlist && items.length > 0 && specs.length === 0) {
    invalid(
      ctx,
      key,
      'no entry of tools could be read: the agent gets no tools until this is fixed',
    );
    return [INVALID_TOOLS_SPEC];
  }
  return specs;
}

/**
 * Splits `Read, Bash(git:*), Agent(a, b)` on the commas outside parentheses: a pattern's own
 * commas (`Agent(a, b)`) belong to it.
 */
export function splitSpecList(value: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const char of value) {
    if (char === '(') depth += 1;
    else if (char === ')' && depth > 0) depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += char;
  }
  parts.push(current);
  return parts;
}

export function readSkills(value: unknown, ctx: ReadContext): string[] {
  const skills = readToolList('skills', value, ctx, false) ?? [];
  if (skills.length > MAX_SKILLS) {
    invalid(
      ctx,
      'skills',
      `at most ${MAX_SKILLS} skills may be declared; ${skills.length - MAX_SKILLS} ignored: ${skills.slice(MAX_SKILLS).join(', ')}`,
    );
    return skills.slice(0, MAX_SKILLS);
  }
  return skills;
}

export function readMcpServers(value: unknown, ctx: ReadContext): Array<string | InlineMcpServer> {
  let entries: Array<{ path: string; value: unknown }>;
  if (Array.isArray(value)) {
    entries = value.map((item, index) => ({ path: `mcpServers[${index}]`, value: item }));
  } else if (isMapping(value)) {
    // Claude Code also writes `mcpServers: {name: {type, command, ...}}`.
    entries = Object.keys(value).map((name) => ({
      path: `mcpServers.${name}`,
      value: { [name]: value[name] },
    }));
  } else {
    mustBe(ctx, 'mcpServers', 'a list', value, 'no server is declared');
    return [];
  }
  const servers: Array<string | InlineMcpServer> = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const server = readMcpServer(entry.path, entry.value, ctx);
    if (server === undefined) continue;
    const name = typeof server === 'string' ? server : server.name;
    if (seen.has(name)) {
      invalid(ctx, entry.path, `server '${name}' is declared twice; the first declaration is used`);
      continue;
    }
    seen.add(name);
    servers.push(server);
  }
  return servers;
}

function readMcpServer(
  path: string,
  value: unknown,
  ctx: ReadContext,
): string | InlineMcpServer | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (!isMapping(value)) {
    mustBe(ctx, path, 'a server name or an inline server', value, 'ignored');
    return undefined;
  }
  let candidate = value;
  const keys = Object.keys(candidate);
  if (
    !Object.hasOwn(candidate, 'name') &&
    !Object.hasOwn(candidate, 'transport') &&
    keys.length === 1
  ) {
    const mapped = mapClaudeMcpServer(keys[0]!, candidate[keys[0]!]);
    if (mapped !== undefined) {
      report(
        ctx,
        'info',
        path,
        'mcpServers.mapped',
        `inline server '${keys[0]}' is read from the Claude Code form`,
      );
      candidate = mapped;
    }
  }
  const server = parseOrReport(ctx, path, InlineMcpServerSchema, candidate, 'inline MCP server');
  return server === undefined ? undefined : (toPlain(server) as InlineMcpServer);
}

export function readKnowledge(value: unknown, ctx: ReadContext): KnowledgeSourceRef[] {
  if (!Array.isArray(value)) {
    mustBe(ctx, 'knowledge', 'a list of {name, glob}', value, 'no source is declared');
    return [];
  }
  const sources: KnowledgeSourceRef[] = [];
  value.forEach((item, index) => {
    const path = `knowledge[${index}]`;
    const source = parseOrReport(ctx, path, KnowledgeSourceSchema, item, 'knowledge source');
    if (source !== undefined) sources.push({ name: source.name, glob: source.glob });
  });
  return sources;
}

export function readMemory(value: unknown, ctx: ReadContext): MemoryMode | undefined {
  if (typeof value === 'string' && CLAUDE_MEMORY_SCOPES.has(value)) {
    return claudeMemoryScope(value, ctx);
  }
  return readEnum('memory', value, MEMORY_MODES, ctx);
}

export function readHooks(value: unknown, ctx: ReadContext): Record<string, HookCommand[]> {
  const hooks = Object.create(null) as Record<string, HookCommand[]>;
  if (!isMapping(value)) {
    mustBe(ctx, 'hooks', 'a mapping of event name to commands', value, 'no hook runs');
    return hooks;
  }
  for (const event of Object.keys(value)) {
    const path = `hooks.${event}`;
    const entries = value[event];
    if (!Array.isArray(entries)) {
      mustBe(ctx, path, 'a list of {command, timeoutSeconds?}', entries, 'ignored');
      continue;
    }
    // `{command, matcher, format: claude}` is how deputy shows (and an editor saves) a hook
    // read from Claude Code's form: that is deputy's own form, not Claude Code's.
    if (entries.some((entry) => isClaudeHookEntry(entry) && !isNormalizedHook(entry))) {
      readClaudeHooks(event, entries, ctx, hooks);
      continue;
    }
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      report(
        ctx,
        'warning',
        path,
        'hooks.unknown-event',
        `hook event '${event}' never fires; deputy runs hooks at ${HOOK_EVENTS.join(', ')}`,
      );
    }
    const commands: HookCommand[] = [];
    entries.forEach((entry, index) => {
      const hook = parseOrReport(ctx, `${path}[${index}]`, HookCommandSchema, entry, 'hook');
      if (hook === undefined) return;
      commands.push({
        command: hook.command,
        ...(hook.timeoutSeconds === undefined ? {} : { timeoutSeconds: hook.timeoutSeconds }),
        ...(hook.matcher === undefined ? {} : { matcher: hook.matcher }),
        ...(hook.format === undefined ? {} : { format: hook.format }),
      });
    });
    // Appended: a Claude Code `SubagentStop` list may already have filled `Stop`.
    hooks[event] = [...(hooks[event] ?? []), ...commands];
  }
  return hooks;
}

function isNormalizedHook(entry: unknown): boolean {
  return isMapping(entry) && typeof entry.command === 'string' && !Object.hasOwn(entry, 'hooks');
}

/** Claude Code's events deputy runs, and the deputy event each one runs at. */
const CLAUDE_HOOK_EVENTS: Record<string, string> = {
  PreToolUse: 'PreToolUse',
  PostToolUse: 'PostToolUse',
  Stop: 'Stop',
  SubagentStop: 'Stop',
};

/**
 * Claude Code's `{matcher?, hooks: [{type: command, command, timeout?}]}` entries, read into
 * `{command, timeoutSeconds, matcher, format: 'claude'}`. `SubagentStop` (what a
 * subagent's `Stop` becomes in Claude Code) runs at deputy's Stop.
 */
function readClaudeHooks(
  event: string,
  entries: unknown[],
  ctx: ReadContext,
  hooks: Record<string, HookCommand[]>,
): void {
  const path = `hooks.${event}`;
  const target = Object.hasOwn(CLAUDE_HOOK_EVENTS, event) ? CLAUDE_HOOK_EVENTS[event] : undefined;
  if (target === undefined) {
    report(
      ctx,
      'warning',
      path,
      'hooks.unknown-event',
      `Claude Code hook event '${event}' has no counterpart in deputy and never fires; deputy runs Claude Code hooks at ${Object.keys(CLAUDE_HOOK_EVENTS).join(', ')}`,
    );
    return;
  }
  if (target === 'Stop') {
    report(
      ctx,
      'info',
      path,
      'hooks.claude-stop',
      `${path} runs once the delegation has its result; a hook that exits 2 or answers decision: block cannot make the agent continue: its reason is added to the result's notice`,
    );
  }
  const commands = hooks[target] ?? [];
  entries.forEach((entry, index) => {
    const at = `${path}[${index}]`;
    if (!isMapping(entry) || !Array.isArray(entry.hooks)) {
      mustBe(
        ctx,
        at,
        'a {matcher?, hooks: [{type: command, command, timeout?}]} entry',
        entry,
        'ignored',
      );
      return;
    }
    const matcher = entry.matcher;
    if (matcher !== undefined && matcher !== null && typeof matcher !== 'string') {
      mustBe(ctx, `${at}.matcher`, 'a string', matcher, 'the entry is ignored');
      return;
    }
    if (typeof matcher === 'string' && !isValidClaudeMatcher(matcher)) {
      invalid(
        ctx,
        `${at}.matcher`,
        `matcher '${matcher}' is not a valid regular expression; the entry is ignored`,
      );
      return;
    }
    entry.hooks.forEach((inner: unknown, innerIndex: number) => {
      const innerAt = `${at}.hooks[${innerIndex}]`;
      if (!isMapping(inner)) {
        mustBe(ctx, innerAt, 'a {type: command, command, timeout?} hook', inner, 'ignored');
        return;
      }
      if ((inner.type ?? 'command') !== 'command') {
        report(
          ctx,
          'warning',
          `${innerAt}.type`,
          'hooks.unsupported-type',
          `hook type '${String(inner.type)}' is not run by deputy, only type: command; this hook is ignored`,
        );
        return;
      }
      if (typeof inner.command !== 'string' || inner.command.trim() === '') {
        mustBe(
          ctx,
          `${innerAt}.command`,
          'a non-empty string',
          inner.command,
          'the hook is ignored',
        );
        return;
      }
      const timeout = inner.timeout;
      if (timeout !== undefined && (typeof timeout !== 'number' || !(timeout > 0))) {
        mustBe(
          ctx,
          `${innerAt}.timeout`,
          'a positive number of seconds',
          timeout,
          'the default 60 s applies',
        );
      }
      commands.push({
        command: inner.command,
        ...(typeof timeout === 'number' && timeout > 0 ? { timeoutSeconds: timeout } : {}),
        ...(typeof matcher === 'string' && matcher !== '' ? { matcher } : {}),
        format: 'claude',
      });
    });
  });
  hooks[target] = commands;
}

/**
 * One tolerant reader per DEF-1 field. A reader either sets its field or leaves the default
 * and says why in a diagnostic; list readers keep the valid entries and report the others.
 */
import type { z } from 'zod';
import type {
  DefinitionLevel,
  KnowledgeSourceRef,
  MemoryMode,
} from '../shared/capability-snapshot.js';
import type { Diagnostic, DiagnosticSeverity } from '../shared/diagnostics.js';
import { APPROVAL_MODES } from '../shared/policy.js';
import type { AgentDefinition, HookCommand, InlineMcpServer } from './definition.js';
import {
  CLAUDE_MEMORY_SCOPES,
  RUN_CONFIG_TURNS_KEY,
  UNSUPPORTED_FIELDS,
  isClaudeHookEntry,
  isModelHandle,
  mapClaudeMcpServer,
  mapClaudeToolName,
} from './ecosystem.js';
import { formatPath } from './issue-path.js';
import {
  FRONTMATTER_FIELDS,
  HOOK_EVENTS,
  HookCommandSchema,
  InlineMcpServerSchema,
  KnowledgeSourceSchema,
  MAX_SKILLS,
  MEMORY_MODES,
  toolsLackRead,
} from './schema.js';
import { toPlain } from './yaml-read.js';

/**
 * Stands in for a `tools` declaration that was written but could not be read. It resolves to
 * nothing, so a broken allowlist gives the agent zero tools instead of every tool (CAP-1).
 */
export const INVALID_TOOLS_SPEC = '(invalid tools declaration)';

export interface ReadContext {
  level: DefinitionLevel;
  aliases: Record<string, string>;
  diagnostics: Diagnostic[];
}

type Values = Record<string, unknown>;

const KNOWN_KEYS = new Set<string>([...FRONTMATTER_FIELDS, 'maxToolRounds', 'runConfig']);
const KNOWN_BY_LOWER = new Map(
  [...KNOWN_KEYS].map((key) => [key.toLowerCase().replace(/[_-]/g, ''), key]),
);

export function readFields(values: Values, definition: AgentDefinition, ctx: ReadContext): void {
  const turns: Array<{ path: string; value: number }> = [];
  for (const key of Object.keys(values)) {
    const value = values[key];
    if (value === null || value === undefined) {
      if (!KNOWN_KEYS.has(key)) keepUnknown(key, value, definition, ctx);
      continue;
    }
    switch (key) {
      case 'name':
        break;
      case 'description':
        definition.description = readText(key, value, ctx) ?? definition.description;
        break;
      case 'model':
        definition.model = readModel(value, ctx);
        break;
      case 'tools':
        definition.tools = readToolList(key, value, ctx, true);
        break;
      case 'disallowedTools':
        definition.disallowedTools = readToolList(key, value, ctx, false) ?? [];
        break;
      case 'skills':
        definition.skills = readSkills(value, ctx);
        break;
      case 'mcpServers':
        definition.mcpServers = readMcpServers(value, ctx);
        break;
      case 'knowledge':
        definition.knowledge = readKnowledge(value, ctx);
        break;
      case 'memory':
        definition.memory = readMemory(value, ctx) ?? definition.memory;
        break;
      case 'maxTurns':
      case 'maxToolRounds': {
        const turnsValue = readPositiveInteger(key, value, ctx);
        if (turnsValue !== undefined) turns.push({ path: key, value: turnsValue });
        break;
      }
      case 'runConfig': {
        const turnsValue = readRunConfig(value, ctx);
        if (turnsValue !== undefined)
          turns.push({ path: `runConfig.${RUN_CONFIG_TURNS_KEY}`, value: turnsValue });
        // Kept whole so write-back and the API round-trip qwen-code's other settings.
        definition.unknownKeys[key] = value;
        break;
      }
      case 'approvalMode':
        definition.approvalMode =
          readEnum(key, value, APPROVAL_MODES, ctx) ?? definition.approvalMode;
        break;
      case 'background':
        definition.background = readBoolean(key, value, ctx) ?? definition.background;
        break;
      case 'hooks':
        definition.hooks = readHooks(value, ctx);
        break;
      case 'color':
      case 'icon':
        definition[key] = readText(key, value, ctx) ?? definition[key];
        break;
      case 'displayOrder':
        definition.displayOrder = readInteger(key, value, ctx) ?? definition.displayOrder;
        break;
      default:
        keepUnknown(key, value, definition, ctx);
    }
  }
  if (values.description === undefined || values.description === null) {
    definition.description = definition.name;
    ctx.diagnostics.push(
      diagnostic(
        'info',
        'description',
        'description.missing',
        `no description: the name '${definition.name}' is shown instead`,
      ),
    );
  }
  resolveTurns(turns, definition, ctx);
  if (definition.knowledge.length > 0 && toolsLackRead(definition.tools)) {
    ctx.diagnostics.push(
      diagnostic(
        'warning',
        'knowledge',
        'knowledge.without-read',
        'knowledge sources are declared but tools does not include read: the agent can search them but not open the files',
      ),
    );
  }
}

function diagnostic(
  severity: DiagnosticSeverity,
  path: string,
  code: string,
  message: string,
): Diagnostic {
  return { severity, path, code, message };
}

function invalid(ctx: ReadContext, path: string, message: string): void {
  ctx.diagnostics.push(diagnostic('error', path, 'field.invalid', message));
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)?.slice(0, 40) ?? ''}`.trim();
}

function keepUnknown(
  key: string,
  value: unknown,
  definition: AgentDefinition,
  ctx: ReadContext,
): void {
  definition.unknownKeys[key] = value;
  if (Object.hasOwn(UNSUPPORTED_FIELDS, key)) {
    ctx.diagnostics.push(
      diagnostic(
        'warning',
        key,
        'field.unsupported',
        `${UNSUPPORTED_FIELDS[key]}; kept in the file unchanged`,
      ),
    );
    return;
  }
  const suggestion = KNOWN_BY_LOWER.get(key.toLowerCase().replace(/[_-]/g, ''));
  ctx.diagnostics.push(
    diagnostic(
      'warning',
      key,
      'field.unknown',
      `unknown field '${key}' is ignored and kept in the file unchanged${suggestion === undefined ? '' : `; did you mean '${suggestion}'?`}`,
    ),
  );
}

function readText(path: string, value: unknown, ctx: ReadContext): string | undefined {
  if (typeof value === 'string' && value.trim() !== '') return value;
  // YAML turns `color: 123` or `description: yes` into numbers and booleans; the author meant text.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  invalid(
    ctx,
    path,
    `${path} must be a non-empty string, got ${describeType(value)}; the default is used`,
  );
  return undefined;
}

function readModel(value: unknown, ctx: ReadContext): string {
  if (typeof value !== 'string' || value.trim() === '') {
    invalid(
      ctx,
      'model',
      `model must be a string, got ${describeType(value)}; the default model is used`,
    );
    return 'default';
  }
  const model = value.trim();
  if (model === 'inherit') {
    ctx.diagnostics.push(
      diagnostic(
        'info',
        'model',
        'model.inherit',
        "model 'inherit' runs on the parent's model: deputy uses 'default'",
      ),
    );
    return 'default';
  }
  if (isModelHandle(model)) return model;
  if (Object.hasOwn(ctx.aliases, model)) {
    const handle = ctx.aliases[model]!;
    ctx.diagnostics.push(
      diagnostic('info', 'model', 'model.alias', `model alias '${model}' resolves to '${handle}'`),
    );
    return handle;
  }
  ctx.diagnostics.push(
    diagnostic(
      'warning',
      'model',
      'model.alias-unmapped',
      `model '${model}' is not a handle (provider/model) and the alias map (models.aliases) has no entry for it; the default model is used`,
    ),
  );
  return 'default';
}

/** Accepts a list or the comma-separated string Claude Code files usually write (`Read, Grep`). */
function readToolList(
  key: string,
  value: unknown,
  ctx: ReadContext,
  isAllowlist: boolean,
): string[] | null {
  let items: unknown[];
  if (typeof value === 'string') {
    items = value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '');
    if (items.length === 0) return isAllowlist ? null : [];
  } else if (Array.isArray(value)) {
    items = value;
  } else {
    invalid(
      ctx,
      key,
      `${key} must be a list of tool specs or a comma-separated string, got ${describeType(value)}` +
        (isAllowlist ? '; the agent gets no tools until this is fixed' : '; nothing is removed'),
    );
    return isAllowlist ? [INVALID_TOOLS_SPEC] : [];
  }
  const specs: string[] = [];
  items.forEach((item, index) => {
    if (typeof item !== 'string' || item.trim() === '') {
      invalid(
        ctx,
        `${key}[${index}]`,
        `${key}[${index}] must be a non-empty string, got ${describeType(item)}; ignored`,
      );
      return;
    }
    const spec = item.trim();
    const mapped = mapClaudeToolName(spec);
    if (mapped !== undefined) {
      ctx.diagnostics.push(
        diagnostic(
          'info',
          `${key}[${index}]`,
          'tools.mapped',
          `'${spec}' is read as the deputy spec '${mapped}'`,
        ),
      );
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

function readSkills(value: unknown, ctx: ReadContext): string[] {
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

function reportIssues(ctx: ReadContext, basePath: string, error: z.ZodError, what: string): void {
  for (const issue of error.issues) {
    const path = formatPath([basePath, ...issue.path]).replace(/\.\[/g, '[');
    invalid(ctx, path, `${what} ignored: ${issue.message}`);
  }
}

function readMcpServers(value: unknown, ctx: ReadContext): Array<string | InlineMcpServer> {
  let entries: Array<{ path: string; value: unknown }>;
  if (Array.isArray(value)) {
    entries = value.map((item, index) => ({ path: `mcpServers[${index}]`, value: item }));
  } else if (value !== null && typeof value === 'object') {
    // Claude Code also writes `mcpServers: {name: {type, command, ...}}`.
    entries = Object.keys(value).map((name) => ({
      path: `mcpServers.${name}`,
      value: { [name]: (value as Values)[name] },
    }));
  } else {
    invalid(
      ctx,
      'mcpServers',
      `mcpServers must be a list, got ${describeType(value)}; no server is declared`,
    );
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
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    invalid(
      ctx,
      path,
      `${path} must be a server name or an inline server, got ${describeType(value)}; ignored`,
    );
    return undefined;
  }
  let candidate = value as Values;
  const keys = Object.keys(candidate);
  if (
    !Object.hasOwn(candidate, 'name') &&
    !Object.hasOwn(candidate, 'transport') &&
    keys.length === 1
  ) {
    const mapped = mapClaudeMcpServer(keys[0]!, candidate[keys[0]!]);
    if (mapped !== undefined) {
      ctx.diagnostics.push(
        diagnostic(
          'info',
          path,
          'mcpServers.mapped',
          `inline server '${keys[0]}' is read from the Claude Code form`,
        ),
      );
      candidate = mapped;
    }
  }
  const result = InlineMcpServerSchema.safeParse(candidate);
  if (!result.success) {
    reportIssues(ctx, path, result.error, 'inline MCP server');
    return undefined;
  }
  return toPlain(result.data) as InlineMcpServer;
}

function readKnowledge(value: unknown, ctx: ReadContext): KnowledgeSourceRef[] {
  if (!Array.isArray(value)) {
    invalid(
      ctx,
      'knowledge',
      `knowledge must be a list of {name, glob}, got ${describeType(value)}; no source is declared`,
    );
    return [];
  }
  const sources: KnowledgeSourceRef[] = [];
  value.forEach((item, index) => {
    const result = KnowledgeSourceSchema.safeParse(item);
    if (!result.success) {
      reportIssues(ctx, `knowledge[${index}]`, result.error, 'knowledge source');
      return;
    }
    sources.push({ name: result.data.name, glob: result.data.glob });
  });
  return sources;
}

function readMemory(value: unknown, ctx: ReadContext): MemoryMode | undefined {
  if (typeof value === 'string' && CLAUDE_MEMORY_SCOPES.has(value)) {
    ctx.diagnostics.push(
      diagnostic(
        ctx.level === 'ecosystem' ? 'warning' : 'error',
        'memory',
        'memory.unsupported-scope',
        `memory '${value}' is a Claude Code scope, not a deputy mode (none, private, shared); memory stays 'none'`,
      ),
    );
    return undefined;
  }
  return readEnum('memory', value, MEMORY_MODES, ctx);
}

function readEnum<T extends string>(
  path: string,
  value: unknown,
  allowed: readonly T[],
  ctx: ReadContext,
): T | undefined {
  if (typeof value === 'string' && (allowed as readonly string[]).includes(value))
    return value as T;
  invalid(
    ctx,
    path,
    `${path} must be one of ${allowed.join(', ')}, got ${describeType(value)}; the default is used`,
  );
  return undefined;
}

function readBoolean(path: string, value: unknown, ctx: ReadContext): boolean | undefined {
  if (typeof value === 'boolean') return value;
  invalid(
    ctx,
    path,
    `${path} must be true or false, got ${describeType(value)}; the default is used`,
  );
  return undefined;
}

function readInteger(path: string, value: unknown, ctx: ReadContext): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  invalid(ctx, path, `${path} must be an integer, got ${describeType(value)}; the default is used`);
  return undefined;
}

function readPositiveInteger(path: string, value: unknown, ctx: ReadContext): number | undefined {
  if (typeof value === 'number' && Number.isSafeInteger(value) && value > 0) return value;
  invalid(
    ctx,
    path,
    `${path} must be a positive integer, got ${describeType(value)}; the default is used`,
  );
  return undefined;
}

function readRunConfig(value: unknown, ctx: ReadContext): number | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    invalid(ctx, 'runConfig', `runConfig must be a mapping, got ${describeType(value)}; ignored`);
    return undefined;
  }
  const config = value as Values;
  const others = Object.keys(config).filter((key) => key !== RUN_CONFIG_TURNS_KEY);
  if (others.length > 0) {
    ctx.diagnostics.push(
      diagnostic(
        'warning',
        'runConfig',
        'field.unsupported',
        `runConfig.${others.join(', runConfig.')} ${others.length === 1 ? 'is' : 'are'} not supported (only runConfig.${RUN_CONFIG_TURNS_KEY} is read); kept in the file unchanged`,
      ),
    );
  }
  const turns = config[RUN_CONFIG_TURNS_KEY];
  if (turns === undefined || turns === null) return undefined;
  return readPositiveInteger(`runConfig.${RUN_CONFIG_TURNS_KEY}`, turns, ctx);
}

/** maxTurns wins over maxToolRounds, which wins over legacy runConfig.max_turns (DEF-1). */
function resolveTurns(
  turns: Array<{ path: string; value: number }>,
  definition: AgentDefinition,
  ctx: ReadContext,
): void {
  const order = ['maxTurns', 'maxToolRounds', `runConfig.${RUN_CONFIG_TURNS_KEY}`];
  turns.sort((a, b) => order.indexOf(a.path) - order.indexOf(b.path));
  const winner = turns[0];
  if (winner === undefined) return;
  definition.maxTurns = winner.value;
  for (const other of turns.slice(1)) {
    if (other.value !== winner.value) {
      ctx.diagnostics.push(
        diagnostic(
          'warning',
          other.path,
          'maxTurns.conflict',
          `${other.path} (${other.value}) disagrees with ${winner.path} (${winner.value}); ${winner.path} is used`,
        ),
      );
    }
  }
}

function readHooks(value: unknown, ctx: ReadContext): Record<string, HookCommand[]> {
  const hooks = Object.create(null) as Record<string, HookCommand[]>;
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    invalid(
      ctx,
      'hooks',
      `hooks must be a mapping of event name to commands, got ${describeType(value)}; no hook runs`,
    );
    return hooks;
  }
  for (const event of Object.keys(value)) {
    const path = `hooks.${event}`;
    const entries = (value as Values)[event];
    if (!Array.isArray(entries)) {
      invalid(
        ctx,
        path,
        `${path} must be a list of {command, timeoutSeconds?}, got ${describeType(entries)}; ignored`,
      );
      continue;
    }
    if (entries.some(isClaudeHookEntry)) {
      ctx.diagnostics.push(
        diagnostic(
          'warning',
          path,
          'hooks.ecosystem-format',
          `${path} uses Claude Code's {matcher, hooks} form, which deputy does not run; write {command, timeoutSeconds?} entries`,
        ),
      );
      continue;
    }
    if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
      ctx.diagnostics.push(
        diagnostic(
          'warning',
          path,
          'hooks.unknown-event',
          `hook event '${event}' never fires; deputy runs hooks at ${HOOK_EVENTS.join(', ')}`,
        ),
      );
    }
    const commands: HookCommand[] = [];
    entries.forEach((entry, index) => {
      const result = HookCommandSchema.safeParse(entry);
      if (!result.success) {
        reportIssues(ctx, `${path}[${index}]`, result.error, 'hook');
        return;
      }
      commands.push(
        result.data.timeoutSeconds === undefined
          ? { command: result.data.command }
          : { command: result.data.command, timeoutSeconds: result.data.timeoutSeconds },
      );
    });
    hooks[event] = commands;
  }
  return hooks;
}

/**
 * Tolerant parse: reading a file never throws and never costs the whole definition.
 * Each problem becomes a diagnostic and the field keeps its default.
 */
import type { DefinitionLevel } from '../../shared/capability-snapshot.js';
import type { Diagnostic, DiagnosticSeverity } from '../../shared/diagnostics.js';
import { DEFINITION_DEFAULTS } from '../definition.js';
import type { AgentDefinition } from '../definition.js';
import { splitFrontmatter } from './frontmatter.js';
import { fileStem, isValidName, looksLikePath, slugifyName } from '../names.js';
import { INVALID_TOOLS_SPEC, readFields } from './fields.js';
import { readFrontmatterYaml } from './yaml-memo.js';

/** Files above this size are not parsed (1 MiB): a definition is a prompt, not a data set. */
export const MAX_DEFINITION_BYTES = 1024 * 1024;

export interface ParseOptions {
  /** File name or path; its stem is the default name. */
  fileName: string;
  /** Level the file comes from; ecosystem files get ecosystem-specific mapping and softer name rules. */
  level: DefinitionLevel;
  /** Model aliases (`sonnet`, `opus`, `haiku`) -> catalog handle. Default: none. */
  aliases?: Record<string, string>;
  /** Built-in model names (`sonnet` -> an Anthropic handle) when a key is configured. Default: none. */
  builtinModel?: (name: string) => string | undefined;
  /** Size cap in bytes. Default MAX_DEFINITION_BYTES. */
  maxBytes?: number;
}

export interface ParseResult {
  definition: AgentDefinition;
  diagnostics: Diagnostic[];
}

export function parseDefinition(text: string, options: ParseOptions): ParseResult {
  const diagnostics: Diagnostic[] = [];
  try {
    return parseUnguarded(text, options, diagnostics);
  } catch (error) {
    // The readers are written not to throw; this keeps the parse tolerant if one still does.
    diagnostics.push({
      severity: 'error',
      path: '',
      code: 'definition.unreadable',
      message: `definition could not be read: ${(error as Error).message}`,
    });
    return {
      definition: unreadable(emptyDefinition(fallbackName(options.fileName), '')),
      diagnostics,
    };
  }
}

/**
 * A frontmatter that exists but cannot be read may have declared a narrow `tools` list; the
 * agent gets no tools rather than every tool until the file is fixed.
 */
function unreadable(definition: AgentDefinition): AgentDefinition {
  definition.tools = [INVALID_TOOLS_SPEC];
  return definition;
}

function parseUnguarded(
  text: string,
  options: ParseOptions,
  diagnostics: Diagnostic[],
): ParseResult {
  const maxBytes = options.maxBytes ?? MAX_DEFINITION_BYTES;
  const stemName = fallbackName(options.fileName);
  // text.length <= bytes, so only measure bytes when the character count could be over.
  if (
    text.length > maxBytes ||
    (text.length * 3 > maxBytes && Buffer.byteLength(text) > maxBytes)
  ) {
    diagnostics.push({
      severity: 'error',
      path: '',
      code: 'file.too-large',
      message: `file is larger than ${maxBytes} bytes and is not read; the agent loads empty`,
    });
    return { definition: unreadable(emptyDefinition(stemName, '')), diagnostics };
  }

  const split = splitFrontmatter(text);
  if (split.unclosed) {
    diagnostics.push({
      severity: 'error',
      path: '',
      code: 'frontmatter.unclosed',
      message:
        'the file opens a frontmatter block with --- but never closes it; read it all as the body',
    });
  } else if (!split.hasFrontmatter) {
    diagnostics.push({
      severity: 'info',
      path: '',
      code: 'frontmatter.missing',
      message:
        'no frontmatter: the whole file is the system prompt and every field uses its default',
    });
  }

  const definition = emptyDefinition(stemName, split.body);
  if (split.unclosed) unreadable(definition);
  if (!split.hasFrontmatter) {
    diagnoseFileName(options, diagnostics);
    definition.description = definition.name;
    return { definition, diagnostics };
  }

  const yaml = readFrontmatterYaml(split.yaml);
  diagnostics.push(...yaml.diagnostics);
  if (yaml.values === undefined) unreadable(definition);
  const values = yaml.values ?? (Object.create(null) as Record<string, unknown>);
  definition.name = readName(values.name, options, diagnostics);
  readFields(values, definition, {
    level: options.level,
    aliases: options.aliases ?? {},
    ...(options.builtinModel === undefined ? {} : { builtinModel: options.builtinModel }),
    diagnostics,
  });
  return { definition, diagnostics };
}

function readName(value: unknown, options: ParseOptions, diagnostics: Diagnostic[]): string {
  if (typeof value === 'string' && isValidName(value)) return value;
  if (value === undefined || value === null) {
    diagnoseFileName(options, diagnostics);
    return fallbackName(options.fileName);
  }
  const stem = fileStem(options.fileName);
  const declared = typeof value === 'string' ? value : undefined;
  const pathLike = declared !== undefined && looksLikePath(declared);
  // A path-like name is never slugified: `../x` must not quietly become the key `x`.
  const name =
    (isValidName(stem) ? stem : undefined) ??
    (declared !== undefined && !pathLike ? slugifyName(declared) : undefined) ??
    fallbackName(options.fileName);
  const severity: DiagnosticSeverity =
    pathLike || options.level !== 'ecosystem' ? 'error' : 'warning';
  diagnostics.push({
    severity,
    path: 'name',
    code: pathLike ? 'name.path-like' : 'name.invalid',
    message:
      declared === undefined
        ? `name must be a string; the agent is keyed '${name}'`
        : `name '${declared}' ${pathLike ? 'looks like a path and is refused as a key' : 'does not match ^[a-z0-9][a-z0-9-]*$'}; the agent is keyed '${name}'`,
  });
  return name;
}

function diagnoseFileName(options: ParseOptions, diagnostics: Diagnostic[]): void {
  const stem = fileStem(options.fileName);
  if (isValidName(stem)) return;
  diagnostics.push({
    severity: options.level === 'ecosystem' ? 'warning' : 'error',
    path: 'name',
    code: 'name.invalid',
    message: `file name '${stem}' is not a valid name and no valid name is declared; the agent is keyed '${fallbackName(options.fileName)}'`,
  });
}

/** The name an agent gets when it declares none usable: its file name, made valid. */
export function fallbackName(fileName: string): string {
  const stem = fileStem(fileName);
  return isValidName(stem) ? stem : (slugifyName(stem) ?? 'unnamed');
}

function emptyDefinition(name: string, body: string): AgentDefinition {
  return {
    name,
    description: name,
    model: DEFINITION_DEFAULTS.model,
    tools: null,
    disallowedTools: [],
    skills: [],
    mcpServers: [],
    knowledge: [],
    memory: DEFINITION_DEFAULTS.memory,
    maxTurns: DEFINITION_DEFAULTS.maxTurns,
    approvalMode: DEFINITION_DEFAULTS.approvalMode,
    permissionMode: null,
    background: DEFINITION_DEFAULTS.background,
    hooks: Object.create(null) as AgentDefinition['hooks'],
    color: DEFINITION_DEFAULTS.color,
    icon: DEFINITION_DEFAULTS.icon,
    displayOrder: DEFINITION_DEFAULTS.displayOrder,
    systemPrompt: body,
    unknownKeys: Object.create(null) as Record<string, unknown>,
  };
}

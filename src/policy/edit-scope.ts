/**
 * Approve with edited arguments: an edit may change what a call says, never what it
 * reaches. Pure and sandbox-safe: the workflow checks an edit in the decision's validator, before
 * it applies, with the card's real (unredacted) arguments.
 *
 * The rule, by the tool's class (docs/policy.md, "Approve with edited arguments"):
 * - every tool: the edited arguments fit the tool's input schema;
 * - a tool with path arguments (read, write, edit, ...): each path argument is exactly the card's
 *   (same string, so the same resolved file), the rest (content, old_string) may change;
 * - `bash`: the edited command is plain words (quotes allowed; no operators, redirections,
 *   substitutions, globs or expansions), and it matches one of the `Bash(<prefix>:*)` patterns
 *   of the card's command (the scope a grant of it would have) and the definition's tool
 *   patterns, if it has any;
 * - an MCP call: the same server and tool; its arguments may change.
 */
import type { CommandAnalysis } from '../shared/tools/command-analysis.js';
import { argumentsProblem } from '../shared/tools/argument-check.js';
import type { ToolSchema } from '../shared/tools/tool-contract.js';
import { grantScopeFor, scopeCovers } from './grants.js';
import { mcpTarget } from './mcp-scope.js';
import { commandPatternRefusal } from './tool-patterns.js';

export interface EditCheck {
  schema: ToolSchema;
  original: Record<string, unknown>;
  edited: Record<string, unknown>;
  /** The card's command as the activity analysed it (`bash`). */
  originalCommand?: CommandAnalysis | undefined;
  /** The definition's `Bash(...)` patterns for this tool, if it has any. */
  commandPatterns?: readonly string[] | undefined;
}

/** Why the edit is refused (it does not fit, or it widens the call), or null when it may run. */
export function editRefusal(check: EditCheck): string | null {
  const { schema, original, edited } = check;
  const misfit = argumentsProblem(schema.inputSchema, edited);
  if (misfit !== null) return `the edited arguments do not fit ${schema.name}: ${misfit}`;
  for (const name of schema.pathArguments ?? []) {
    if (JSON.stringify(edited[name]) !== JSON.stringify(original[name])) {
      return `an edit cannot change '${name}': it must stay ${JSON.stringify(original[name] ?? null)}, the path the card showed`;
    }
  }
  if (schema.toolClass === 'mcp') return mcpRefusal(schema, original, edited);
  if (schema.toolClass === 'exec') return commandRefusal(check);
  return null;
}

function mcpRefusal(
  schema: ToolSchema,
  original: Record<string, unknown>,
  edited: Record<string, unknown>,
): string | null {
  const before = mcpTarget(schema, original);
  const after = mcpTarget(schema, edited);
  if (before === null) return null;
  if (after === null || after.server !== before.server || after.tool !== before.tool) {
    return `an edit cannot change the MCP tool: it must stay ${before.server}/${before.tool}`;
  }
  return null;
}

function commandRefusal(check: EditCheck): string | null {
  const command = check.edited.command;
  if (typeof command !== 'string') return null;
  const argv = plainWords(command);
  if (typeof argv === 'string') return `the edited command ${argv}`;
  const scope = grantScopeFor({
    tool: check.schema.name,
    toolClass: 'exec',
    paths: [],
    command: check.originalCommand,
  });
  if (typeof scope === 'string') {
    return `the card's command cannot be edited (${scope}): approve or deny it as shown`;
  }
  const analysis: CommandAnalysis = { commands: [argv], refused: [] };
  const call = {
    tool: check.schema.name,
    toolClass: 'exec' as const,
    paths: [],
    command: analysis,
  };
  if (!scopeCovers(scope, call)) {
    const patterns = scope.kind === 'commands' ? scope.patterns.join(', ') : '';
    return `the edited command '${clip(command)}' is outside the card's ${patterns}: an edit cannot run another command`;
  }
  if (check.commandPatterns !== undefined) {
    const refused = commandPatternRefusal(check.commandPatterns, analysis);
    if (refused !== null) return `the edited command is not allowed by the definition: ${refused}`;
  }
  return null;
}

/**
 * The words of a command that is plain words (single or double quotes allowed), or why it is
 * not: anything the shell would treat as more than words makes it refused.
 */
export function plainWords(command: string): string[] | string {
  const words: string[] = [];
  let word: string | null = null;
  let quote: '"' | "'" | null = null;
  for (const char of command) {
    if (quote !== null) {
      if (char === quote) quote = null;
      else if (quote === '"' && /[$`\\!]/.test(char))
        return `has '${char}' inside double quotes, which the shell would expand`;
      else word = (word ?? '') + char;
      continue;
    }
    if (char === '"' || char === "'") {
      quote = char;
      word ??= '';
    } else if (char === ' ' || char === '\t') {
      if (word !== null) words.push(word);
      word = null;
    } else if (/[;&|<>$`(){}\\*?[\]~!#\n\r]/.test(char)) {
      return `has '${char === '\n' ? '\\n' : char}', a shell operator or expansion: an edit is plain words`;
    } else word = (word ?? '') + char;
  }
  if (quote !== null) return 'has an unclosed quote';
  if (word !== null) words.push(word);
  if (words.length === 0) return 'is empty';
  return words;
}

function clip(text: string): string {
  return text.length > 120 ? `${text.slice(0, 119)}…` : text;
}

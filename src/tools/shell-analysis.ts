/**
 * The simple commands a `bash` call would run, for `Bash(...)` tool patterns.
 * Node side: it runs in the `callModel` activity and its result enters the workflow as plain
 * data (src/shared/tools/command-analysis.ts), like the calls' canonical paths.
 *
 * The parser is tree-sitter's bash grammar (`tree-sitter-bash`, run through `web-tree-sitter`:
 * WebAssembly, no native build). Its .wasm is vendored in ./grammars (the README there says which
 * version and how to update it): the npm package would build a native addon at every install.
 * The walk below is an allowlist: it accepts programs made of simple commands whose words are
 * literal, joined by `;`, newlines, `&&`, `||` and `|`, with only fd duplications (`2>&1`) and
 * redirections to /dev/null. Everything else the parser reports (or any text it skipped) is
 * listed in `refused`, so the matcher refuses the call instead of guessing what bash would do.
 */
import { fileURLToPath } from 'node:url';
import { Language, Parser, type Node } from 'web-tree-sitter';
import type { CommandAnalysis } from '../shared/tools/command-analysis.js';

/** Longer commands are refused unparsed (they are not what a pattern is for). */
export const MAX_ANALYZED_COMMAND = 16_384;

/** Beside this module, in src/ and in dist/ alike (the build copies grammars/ as it is). */
const BASH_GRAMMAR = fileURLToPath(new URL('./grammars/tree-sitter-bash.wasm', import.meta.url));

let parserPromise: Promise<Parser> | undefined;

function bashParser(): Promise<Parser> {
  parserPromise ??= (async () => {
    await Parser.init();
    const language = await Language.load(BASH_GRAMMAR).catch((error: unknown) => {
      // Most likely a build that left grammars/ out: say which file, not just ENOENT.
      throw new Error(`cannot load the bash grammar ${BASH_GRAMMAR}: ${String(error)}`);
    });
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  })();
  return parserPromise;
}

/** Analyses one command string; never throws for any input. */
export async function analyzeCommand(command: string): Promise<CommandAnalysis> {
  if (command.length > MAX_ANALYZED_COMMAND) {
    return {
      commands: [],
      refused: [`the command is longer than ${MAX_ANALYZED_COMMAND} characters`],
    };
  }
  if (command.includes('\0')) return { commands: [], refused: ['the command contains a NUL byte'] };
  if (command.includes('\r')) {
    return { commands: [], refused: ['the command contains a carriage return'] };
  }
  const parser = await bashParser();
  const tree = parser.parse(command);
  if (tree === null) return { commands: [], refused: ['the command could not be parsed'] };
  try {
    const root = tree.rootNode;
    if (root.hasError || root.endIndex > command.length) {
      return { commands: [], refused: ['the command could not be parsed as shell syntax'] };
    }
    const walk = new Walk(command);
    walk.gap(0, root.startIndex, true);
    walk.list(root);
    walk.gap(root.endIndex, command.length, true);
    return { commands: walk.commands, refused: [...new Set(walk.refused)] };
  } finally {
    tree.delete();
  }
}

/** The command analysis of every `bash` call of a model turn, by call id. */
export async function commandsOfCalls(
  calls: ReadonlyArray<{ id: string; name: string; arguments: Record<string, unknown> }>,
  bashToolName = 'bash',
): Promise<Record<string, CommandAnalysis>> {
  const out: Record<string, CommandAnalysis> = {};
  for (const call of calls) {
    if (call.name !== bashToolName) continue;
    const command = call.arguments.command;
    out[call.id] =
      typeof command === 'string'
        ? await analyzeCommand(command)
        : { commands: [], refused: ['the call has no command string'] };
  }
  return out;
}

const SEPARATORS: Record<string, Set<string>> = {
  program: new Set([';']),
  list: new Set(['&&', '||']),
  pipeline: new Set(['|']),
};

/** Words that bash would expand or treat specially when unquoted and unescaped. */
const UNQUOTED_SPECIAL = new Set([
  '$',
  '`',
  '*',
  '?',
  '[',
  ']',
  '{',
  '}',
  '(',
  ')',
  '<',
  '>',
  '&',
  ';',
  '|',
  "'",
  '"',
  ' ',
  '\t',
  '\n',
  '!',
]);

class Walk {
  readonly commands: string[][] = [];
  readonly refused: string[] = [];

  constructor(private readonly source: string) {}

  refuse(what: string, node?: Node): void {
    this.refused.push(node === undefined ? what : `${what} (${clip(node.text)})`);
  }

  /** Text between tokens must be blanks (and newlines where commands may be separated). */
  gap(from: number, to: number, newlines: boolean): void {
    for (let index = from; index < to; index += 1) {
      const char = this.source[index];
      if (char === ' ' || char === '\t' || (newlines && char === '\n')) continue;
      this.refused.push(
        char === '\\'
          ? 'a line continuation between words'
          : `text the parser did not account for (${clip(this.source.slice(from, to))})`,
      );
      return;
    }
  }

  /** A node whose children are statements and separators (program, list, pipeline). */
  list(node: Node): void {
    const separators = SEPARATORS[node.type] ?? new Set<string>();
    let previousEnd = node.startIndex;
    for (const child of node.children) {
      this.gap(previousEnd, child.startIndex, true);
      previousEnd = child.endIndex;
      if (!child.isNamed) {
        if (!separators.has(child.type)) {
          this.refuse(
            child.type === '&' ? 'running a command in the background' : `'${child.type}'`,
          );
        }
        continue;
      }
      this.statement(child);
    }
    this.gap(previousEnd, node.endIndex, true);
  }

  statement(node: Node): void {
    switch (node.type) {
      case 'command':
        this.command(node);
        return;
      case 'list':
      case 'pipeline':
        this.list(node);
        return;
      case 'redirected_statement':
        this.redirected(node);
        return;
      case 'subshell':
        this.refuse('a subshell', node);
        return;
      case 'function_definition':
        this.refuse('a function definition', node);
        return;
      case 'variable_assignment':
      case 'variable_assignments':
        this.refuse('a variable assignment', node);
        return;
      case 'comment':
        this.refuse('a comment', node);
        return;
      default:
        this.refuse(`shell syntax '${node.type}'`, node);
    }
  }

  redirected(node: Node): void {
    let previousEnd = node.startIndex;
    let body = false;
    for (const child of node.children) {
      this.gap(previousEnd, child.startIndex, false);
      previousEnd = child.endIndex;
      if (!child.isNamed) {
        this.refuse(`'${child.type}'`);
      } else if (child.type === 'file_redirect') {
        this.redirect(child);
      } else if (child.type.endsWith('_redirect')) {
        this.refuse('a here-document or here-string', child);
      } else if (!body) {
        body = true;
        // Only a plain command may carry redirections: `{ ...; } > f` and the like are refused.
        if (child.type === 'command') this.command(child);
        else this.refuse(`redirecting a '${child.type}'`, child);
      } else {
        this.refuse(`shell syntax '${child.type}'`, child);
      }
    }
    this.gap(previousEnd, node.endIndex, false);
  }

  /** fd duplications (`2>&1`, `>&2`, `<&0`, `>&-`) and `/dev/null` are all a pattern allows. */
  redirect(node: Node): void {
    const operators = node.children.filter((child) => !child.isNamed).map((child) => child.type);
    const named = node.namedChildren.filter((child) => child !== null);
    const descriptor = named.find((child) => child.type === 'file_descriptor');
    const destinations = named.filter((child) => child.type !== 'file_descriptor');
    if (
      operators.length !== 1 ||
      destinations.length !== 1 ||
      (descriptor !== undefined && !/^[0-9]$/.test(descriptor.text))
    ) {
      this.refuse('a redirection', node);
      return;
    }
    const operator = operators[0]!;
    const target = this.word(destinations[0]!);
    if (target === null) return;
    if ((operator === '>&' || operator === '<&') && /^([0-9]|-)$/.test(target)) return;
    if (['>', '>>', '2>', '&>', '&>>', '>|'].includes(operator) && target === '/dev/null') return;
    if (operator === '<' && target === '/dev/null') return;
    this.refuse('a redirection to or from a file', node);
  }

  command(node: Node): void {
    const argv: string[] = [];
    let previousEnd = node.startIndex;
    let ok = true;
    for (const child of node.children) {
      this.gap(previousEnd, child.startIndex, false);
      previousEnd = child.endIndex;
      if (!child.isNamed) {
        this.refuse(`'${child.type}'`);
        ok = false;
        continue;
      }
      if (child.type === 'variable_assignment') {
        this.refuse('an environment assignment before the command', child);
        ok = false;
        continue;
      }
      if (child.type === 'file_redirect') {
        this.redirect(child);
        continue;
      }
      if (child.type.endsWith('_redirect')) {
        this.refuse('a here-document or here-string', child);
        ok = false;
        continue;
      }
      const wordNode =
        child.type === 'command_name'
          ? child.namedChildCount === 1 && child.childCount === 1
            ? child.namedChild(0)
            : null
          : child;
      if (wordNode === null) {
        this.refuse('a command name', child);
        ok = false;
        continue;
      }
      if (child.type === 'command_name' && wordNode.startIndex !== child.startIndex) {
        this.refuse('a command name', child);
        ok = false;
        continue;
      }
      const value = this.word(wordNode);
      if (value === null) ok = false;
      else argv.push(value);
    }
    this.gap(previousEnd, node.endIndex, false);
    if (ok && argv.length > 0) this.commands.push(argv);
    else if (ok) this.refuse('an empty command', node);
  }

  /** The literal value of a word, or null (after refusing) when bash would expand it. */
  word(node: Node): string | null {
    switch (node.type) {
      case 'word':
      case 'number':
        return this.unquoted(node);
      case 'raw_string': {
        const text = node.text;
        if (text.length < 2 || !text.startsWith("'") || !text.endsWith("'")) {
          this.refuse('a quoted string', node);
          return null;
        }
        return text.slice(1, -1);
      }
      case 'string':
        return this.doubleQuoted(node);
      case 'concatenation': {
        let value = '';
        let previousEnd = node.startIndex;
        for (const child of node.children) {
          if (child.startIndex !== previousEnd || !child.isNamed) {
            this.refuse('a word', node);
            return null;
          }
          previousEnd = child.endIndex;
          const part = this.word(child);
          if (part === null) return null;
          value += part;
        }
        if (previousEnd !== node.endIndex) {
          this.refuse('a word', node);
          return null;
        }
        return value;
      }
      case 'command_substitution':
        this.refuse('a command substitution', node);
        return null;
      case 'process_substitution':
        this.refuse('a process substitution', node);
        return null;
      case 'simple_expansion':
      case 'expansion':
        this.refuse('a variable expansion', node);
        return null;
      case 'arithmetic_expansion':
        this.refuse('an arithmetic expansion', node);
        return null;
      default:
        this.refuse(`shell syntax '${node.type}' in a word`, node);
        return null;
    }
  }

  private unquoted(node: Node): string | null {
    if (node.childCount !== 0) {
      this.refuse('a word', node);
      return null;
    }
    const text = node.text;
    let value = '';
    for (let index = 0; index < text.length; index += 1) {
      const char = text[index]!;
      if (char === '\\') {
        const next = text[index + 1];
        if (next === undefined || next === '\n') {
          this.refuse('a line continuation inside a word', node);
          return null;
        }
        value += next;
        index += 1;
        continue;
      }
      if (UNQUOTED_SPECIAL.has(char) || (char === '~' && index === 0) || char === '#') {
        this.refuse(
          '*?[]'.includes(char)
            ? 'a glob pattern (quote it to pass it literally)'
            : '{}'.includes(char)
              ? 'a brace expansion (quote it to pass it literally)'
              : char === '~'
                ? 'a tilde expansion'
                : `an unquoted '${char}'`,
          node,
        );
        return null;
      }
      value += char;
    }
    return value;
  }

  private doubleQuoted(node: Node): string | null {
    const text = node.text;
    const contentOnly = node.namedChildren.every((child) => child?.type === 'string_content');
    if (!contentOnly || text.length < 2 || !text.startsWith('"') || !text.endsWith('"')) {
      this.refuse('an expansion inside double quotes', node);
      return null;
    }
    const inner = text.slice(1, -1);
    let value = '';
    for (let index = 0; index < inner.length; index += 1) {
      const char = inner[index]!;
      if (char === '\\') {
        const next = inner[index + 1];
        if (next === undefined) {
          this.refuse('a quoted string', node);
          return null;
        }
        if (next === '\n') {
          index += 1;
          continue;
        }
        value += '$`"\\'.includes(next) ? next : `\\${next}`;
        index += 1;
        continue;
      }
      if (char === '$' || char === '`' || char === '"') {
        this.refuse('an expansion inside double quotes', node);
        return null;
      }
      value += char;
    }
    return value;
  }
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 60 ? `${flat.slice(0, 57)}...` : flat;
}

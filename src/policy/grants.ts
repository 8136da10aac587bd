/**
 * Grants: what a person allowed for the rest of a delegation by approving a card
 * with `allow: 'delegation'`, and which later calls they cover. Pure and sandbox-safe: decide()
 * reads the grants as an input, the workflow records them (docs/policy.md, "Allow for the rest").
 *
 * Scopes, by the tool's class:
 * - MCP: the same tool of the same server (`server/tool`), whatever its arguments;
 * - exec (`bash`): one `Bash(<prefix>:*)` pattern per simple command of the approved command,
 *   the prefix being its first word and, when the second is a subcommand word (`git status`,
 *   `npm run`), that too; a later command is covered when every simple command in it matches
 *   one of them and it has nothing the analysis refuses (redirections, substitutions, ...);
 * - every other class (read, write, edit, config): the exact paths the approved call touched
 *   (absolute, resolved); a later call is covered when it names paths and all are among them.
 */
import type { Grant, GrantScope } from '../shared/policy-contract.js';
import type { CommandAnalysis } from '../shared/tools/command-analysis.js';
import type { ToolClass } from '../shared/tools/tool-contract.js';
import { commandMatches, parseCommandPattern, type CommandPattern } from './tool-patterns.js';

/** A call as grants see it. */
export interface GrantCall {
  /** The tool's name as the model called it (`write`, `bash`, `mcp__srv__tool`). */
  tool: string;
  toolClass: ToolClass;
  /** Absolute, resolved paths the call touches (canonicalCallPaths). */
  paths: readonly string[];
  /** The shell analysis of a `bash` call (ModelTurn.callCommands). */
  command?: CommandAnalysis | undefined;
  /** An MCP call's `server/tool`. */
  mcpTarget?: string | undefined;
}

/** A word that names a subcommand (`status`, `run`, `build:prod`), not an option or a path. */
const SUBCOMMAND = /^[A-Za-z][A-Za-z0-9_:-]*$/;

/** `Bash(git status:*)` for `git status -s`; `Bash(rm:*)` for `rm note.txt`. */
export function commandPrefixPattern(argv: readonly string[]): string {
  const [first, second] = argv;
  const words = second !== undefined && SUBCOMMAND.test(second) ? [first, second] : [first];
  return `Bash(${words.join(' ')}:*)`;
}

/** The scope approving `call` for the rest of the delegation grants, or why it grants none. */
export function grantScopeFor(call: GrantCall): GrantScope | string {
  if (call.toolClass === 'mcp') {
    if (call.mcpTarget === undefined) return 'the MCP call names no server and tool';
    return { kind: 'mcp', target: call.mcpTarget };
  }
  if (call.toolClass === 'exec') {
    const analysis = call.command;
    if (analysis === undefined) return 'the command could not be analysed';
    if (analysis.refused.length > 0) {
      return `the command contains ${analysis.refused.join('; ')}, which no pattern can cover`;
    }
    if (analysis.commands.length === 0) return 'the command runs nothing';
    return { kind: 'commands', patterns: unique(analysis.commands.map(commandPrefixPattern)) };
  }
  if (call.paths.length === 0) return 'the call names no path';
  return { kind: 'paths', paths: unique([...call.paths]) };
}

/** The first grant that covers `call`, if any. */
export function grantCovering(grants: readonly Grant[], call: GrantCall): Grant | undefined {
  return grants.find((grant) => grant.tool === call.tool && scopeCovers(grant.scope, call));
}

export function scopeCovers(scope: GrantScope, call: GrantCall): boolean {
  switch (scope.kind) {
    case 'mcp':
      return call.toolClass === 'mcp' && call.mcpTarget === scope.target;
    case 'commands': {
      const analysis = call.command;
      if (analysis === undefined || analysis.refused.length > 0) return false;
      if (analysis.commands.length === 0) return false;
      const patterns = scope.patterns.map(patternBody).flatMap(parsed);
      return analysis.commands.every((argv) =>
        patterns.some((pattern) => commandMatches(argv, pattern)),
      );
    }
    case 'paths':
      return call.paths.length > 0 && call.paths.every((path) => scope.paths.includes(path));
  }
}

/** How a grant reads in a status line: `bash Bash(git status:*)`, `write /w/note.txt`. */
export function describeGrant(grant: Grant): string {
  const { scope } = grant;
  const what =
    scope.kind === 'mcp'
      ? scope.target
      : scope.kind === 'commands'
        ? scope.patterns.join(' ')
        : scope.paths.join(' ');
  return `${grant.tool} ${what}`;
}

/** `git status:*` of `Bash(git status:*)`. */
function patternBody(pattern: string): string {
  return pattern.startsWith('Bash(') && pattern.endsWith(')') ? pattern.slice(5, -1) : pattern;
}

function parsed(body: string): CommandPattern[] {
  const pattern = parseCommandPattern(body);
  return typeof pattern === 'string' ? [] : [pattern];
}

function unique<T>(values: T[]): T[] {
  return [...new Set(values)];
}

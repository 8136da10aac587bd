/**
 * Where each problem goes on the page. The check's diagnostics and a save's 422 issues name a
 * field by path (`tools[1]`, `tools.1`, `mcpServers.github`, `runConfig.max_turns`, `''`); this
 * turns them into a field key and, for the lists of names, the name the entry had when checked,
 * so a removed entry takes its problem with it before the next check answers.
 */
import type { CheckDiagnostic } from '../../api/editor';
import type { NameList } from './form-model';

export interface Problem {
  severity: 'error' | 'warning' | 'info';
  message: string;
  code?: string;
  line?: number;
}

/** The form's fields a problem can be shown on; anything else goes to the form's top. */
export const FIELD_KEYS = [
  'name',
  'description',
  'level',
  'model',
  'approvalMode',
  'permissionMode',
  'maxTurns',
  'background',
  'systemPrompt',
  'tools',
  'disallowedTools',
  'skills',
  'mcpServers',
  'knowledge',
  'memory',
] as const;
export type FieldKey = (typeof FIELD_KEYS)[number];

const ALIASES: Record<string, FieldKey> = { runConfig: 'maxTurns', scope: 'level' };

const LISTS: readonly NameList[] = ['tools', 'disallowedTools', 'skills', 'mcpServers'];

/** What names a list held when it was checked, to find `tools[1]`'s name. */
export type CheckedLists = Record<NameList | 'knowledge', string[]>;

export interface Located {
  field: FieldKey | null;
  /** For a list entry: its index in the checked list, and the name it had there. */
  index?: number;
  name?: string;
}

/** `tools.1` -> `tools[1]`; a name segment of mcpServers (`mcpServers.github`) found by name. */
export function locate(path: string, checked: CheckedLists | null): Located {
  const match = /^([A-Za-z_]+)(?:\[(\d+)\]|\.(\d+)(?=\.|$)|\.([^.[\]]+))?/.exec(path);
  if (match === null) return { field: null };
  const head = match[1]!;
  const field =
    (FIELD_KEYS as readonly string[]).indexOf(head) >= 0 ? (head as FieldKey) : ALIASES[head];
  if (field === undefined) return { field: null };
  const digits = match[2] ?? match[3];
  const list = field as NameList | 'knowledge';
  if (digits !== undefined) {
    const index = Number(digits);
    const name = checked?.[list]?.[index];
    return { field, index, ...(name === undefined ? {} : { name }) };
  }
  if (match[4] !== undefined && field === 'mcpServers') {
    const name = match[4];
    const index = checked?.mcpServers.indexOf(name) ?? -1;
    return { field, name, ...(index >= 0 ? { index } : {}) };
  }
  return { field };
}

/**
 * Codes that say a declared name gives the agent nothing: an unknown tool, a Claude-only one, a
 * tool hidden from this caller, an MCP tool of an undeclared server, a skill no layer has, a
 * server nobody configured. `mcp.disabled` and `mcp.not-connected` are not among them: those
 * servers exist and are only not in place yet (the two call for opposite next steps).
 */
const RESOLVES_TO_NOTHING = new Set([
  'tool.unknown',
  'tool.claude-only',
  'tool.hidden-by-role',
  'mcp.not-declared',
  'skill.not-found',
  'mcp.not-configured',
]);

/** A YAML the server could not read: its parse is all defaults, not the user's agent. */
export function isUnreadable(diagnostics: readonly CheckDiagnostic[]): boolean {
  return diagnostics.some(
    (diagnostic) => diagnostic.severity === 'error' && diagnostic.code.startsWith('frontmatter.'),
  );
}

export interface FieldProblems {
  /** By field key. */
  fields: Partial<Record<FieldKey, Problem[]>>;
  /** For list entries, by list then by name. */
  entries: Partial<Record<NameList | 'knowledge', Map<string, Problem[]>>>;
  /** Names that resolve to nothing, by list, with why. */
  unresolved: Record<NameList, Map<string, string>>;
  /** Problems with no field of the form (`hooks`, an unknown key, the file as a whole). */
  general: Problem[];
}

export function emptyProblems(): FieldProblems {
  return {
    fields: {},
    entries: {},
    unresolved: {
      tools: new Map(),
      disallowedTools: new Map(),
      skills: new Map(),
      mcpServers: new Map(),
    },
    general: [],
  };
}

/** Diagnostics and issues, each on its field (duplicates of one message shown once). */
export function placeProblems(
  diagnostics: readonly CheckDiagnostic[],
  issues: ReadonlyArray<{ path: string; message: string }>,
  checked: CheckedLists | null,
): FieldProblems {
  const placed = emptyProblems();
  const seen = new Set<string>();
  const add = (path: string, problem: Problem): void => {
    const where = locate(path, checked);
    const key = `${where.field ?? ''}\0${where.name ?? ''}\0${problem.message}`;
    if (seen.has(key)) return;
    seen.add(key);
    if (where.field === null) {
      placed.general.push(
        path === '' ? problem : { ...problem, message: `${path}: ${problem.message}` },
      );
      return;
    }
    const list = where.field as NameList | 'knowledge';
    const isList = (LISTS as readonly string[]).includes(list) || list === 'knowledge';
    if (isList && where.name !== undefined) {
      const code = problem.code ?? '';
      if (list !== 'knowledge' && RESOLVES_TO_NOTHING.has(code)) {
        const why = placed.unresolved[list as NameList];
        if (!why.has(where.name)) why.set(where.name, problem.message);
        return;
      }
      const byName = (placed.entries[list] ??= new Map());
      byName.set(where.name, [...(byName.get(where.name) ?? []), problem]);
      return;
    }
    (placed.fields[where.field] ??= []).push(problem);
  };
  // The server's refusal first: it is what a save just said.
  for (const issue of issues) add(issue.path, { severity: 'error', message: issue.message });
  for (const diagnostic of diagnostics) {
    add(diagnostic.path, {
      severity: diagnostic.severity,
      message: diagnostic.message,
      code: diagnostic.code,
      ...(diagnostic.line === undefined ? {} : { line: diagnostic.line }),
    });
  }
  return placed;
}

const READ_TOOL_SPECS = new Set(['read', 'filesystem', 'filesystem:read']);

/** The server's own rule (src/definitions/schema.ts toolsLackRead): knowledge needs `read`. */
export function toolsLackRead(tools: readonly string[]): boolean {
  if (tools.length === 0) return false;
  return !tools.some((spec) => READ_TOOL_SPECS.has(spec.trim().toLowerCase()));
}

/** True when any name of the lists resolves to nothing (a save is refused then). */
export function hasUnresolved(
  problems: FieldProblems,
  lists: Record<NameList, readonly string[]>,
): boolean {
  return (Object.keys(lists) as NameList[]).some((list) =>
    lists[list].some((name) => problems.unresolved[list].has(name)),
  );
}

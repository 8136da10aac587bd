/**
 * Claude Code's tool patterns (`Bash(git:*)`, `Bash(npm test)`, `Read(docs/**)`), enforced by
 * the decision. Pure and sandbox-safe: the workflow calls it with the snapshot's
 * patterns and what the activity side found in the call (the command analysis of
 * src/tools/shell-analysis.ts; the canonical call paths). A call a pattern does not cover is
 * denied at once, with a message naming the allowed patterns; one it covers still goes through
 * decide() (approval modes, cards).
 */
import type { CommandAnalysis } from '../shared/tools/command-analysis.js';

/** A parsed `Bash(...)` pattern: the exact argv, or the argv's first words. */
export interface CommandPattern {
  words: string[];
  prefix: boolean;
}

/**
 * `git status` = exactly that command; `git:*` (or `git *`) = `git` followed by anything,
 * including nothing. Words are split on blanks; a pattern has no quoting. Returns a reason
 * string when the pattern cannot be used.
 */
export function parseCommandPattern(pattern: string): CommandPattern | string {
  let body = pattern.trim();
  let prefix = false;
  if (body.endsWith(':*')) {
    prefix = true;
    body = body.slice(0, -2);
  } else if (body === '*') {
    return 'a bare * would allow every command: grant the tool without a pattern instead';
  } else if (body.endsWith(' *')) {
    prefix = true;
    body = body.slice(0, -2);
  }
  const words = body.split(/[ \t]+/).filter((word) => word !== '');
  if (words.length === 0) return 'the pattern names no command';
  if (words.some((word) => /[*?]/.test(word))) {
    return 'only a trailing :* (or " *") is a wildcard; write the command words literally';
  }
  if (words.some((word) => /["'\\$`;&|<>(){}]/.test(word))) {
    return 'a pattern is plain command words: no quotes, escapes or shell operators';
  }
  return { words, prefix };
}

export function commandMatches(argv: readonly string[], pattern: CommandPattern): boolean {
  if (pattern.prefix ? argv.length < pattern.words.length : argv.length !== pattern.words.length) {
    return false;
  }
  return pattern.words.every((word, index) => argv[index] === word);
}

/** null = every simple command matches some pattern and nothing else runs; else why not. */
export function commandPatternRefusal(
  patterns: readonly string[],
  analysis: CommandAnalysis | undefined,
): string | null {
  const allowed = describe('Bash', patterns);
  if (analysis === undefined) return `the command could not be analysed; ${allowed}`;
  if (analysis.refused.length > 0) {
    return `the command contains ${analysis.refused.join('; ')}, which no pattern covers; ${allowed}`;
  }
  if (analysis.commands.length === 0) return `the command runs nothing; ${allowed}`;
  const parsed = patterns
    .map(parseCommandPattern)
    .filter((pattern): pattern is CommandPattern => typeof pattern !== 'string');
  const unmatched = analysis.commands.filter(
    (argv) => !parsed.some((pattern) => commandMatches(argv, pattern)),
  );
  if (unmatched.length === 0) return null;
  const shown = unmatched.map((argv) => `'${clip(argv.join(' '))}'`).join(', ');
  return `${shown} ${unmatched.length === 1 ? 'is' : 'are'} not allowed; ${allowed}`;
}

/**
 * Workspace-relative glob match, gitignore-like: `*` and `?` stay inside one path segment,
 * `**` spans any number of segments (`docs/**` also matches `docs` itself). No brace or class
 * syntax: such characters match themselves.
 */
export function pathGlobMatches(glob: string, relative: string): boolean {
  const pattern = glob.replace(/^\.\//, '').replace(/\/+$/, '');
  const globParts = pattern === '' ? [] : pattern.split('/');
  const pathParts = relative === '' ? [] : relative.split('/');
  return matchSegments(globParts, 0, pathParts, 0, new Map());
}

function matchSegments(
  glob: string[],
  gi: number,
  path: string[],
  pi: number,
  memo: Map<string, boolean>,
): boolean {
  const key = `${gi}:${pi}`;
  const known = memo.get(key);
  if (known !== undefined) return known;
  let result: boolean;
  if (gi === glob.length) result = pi === path.length;
  else if (glob[gi] === '**') {
    result =
      matchSegments(glob, gi + 1, path, pi, memo) ||
      (pi < path.length && matchSegments(glob, gi, path, pi + 1, memo));
  } else {
    result =
      pi < path.length &&
      segmentMatches(glob[gi]!, path[pi]!) &&
      matchSegments(glob, gi + 1, path, pi + 1, memo);
  }
  memo.set(key, result);
  return result;
}

/** `*` = any run of characters, `?` = one character, within one segment. */
function segmentMatches(glob: string, segment: string): boolean {
  // Iterative wildcard match with backtracking to the last `*` (linear in practice).
  let g = 0;
  let s = 0;
  let star = -1;
  let mark = 0;
  while (s < segment.length) {
    if (g < glob.length && (glob[g] === '?' || glob[g] === segment[s])) {
      g += 1;
      s += 1;
    } else if (g < glob.length && glob[g] === '*') {
      star = g;
      mark = s;
      g += 1;
    } else if (star !== -1) {
      g = star + 1;
      mark += 1;
      s = mark;
    } else {
      return false;
    }
  }
  while (g < glob.length && glob[g] === '*') g += 1;
  return g === glob.length;
}

/** Why a path glob cannot be used as a workspace-relative pattern, or null. */
export function pathPatternProblem(glob: string): string | null {
  const trimmed = glob.trim();
  if (trimmed === '') return 'it is empty';
  if (trimmed.includes('\0') || trimmed.includes('\\')) {
    return 'it contains a NUL or a backslash (write paths with forward slashes)';
  }
  if (trimmed.startsWith('/') || trimmed.startsWith('~') || /^[A-Za-z]:/.test(trimmed)) {
    return 'it is absolute; deputy reads path patterns relative to the workspace';
  }
  if (trimmed.split('/').includes('..')) return "it climbs out of the workspace with '..'";
  return null;
}

/**
 * null = every path of the call lies in the workspace and matches one of the globs; else why
 * not. `paths` are the canonical (symlink-resolved) paths of the call; a call that names no
 * path is refused (the tool's default, the whole workspace, is not what the patterns grant).
 */
export function pathPatternRefusal(
  toolLabel: string,
  globs: readonly string[],
  workspaceRoot: string,
  paths: readonly string[],
): string | null {
  const allowed = describe(toolLabel, globs);
  if (paths.length === 0) return `the call names no path; ${allowed}`;
  const root = workspaceRoot.replace(/\/+$/, '');
  for (const path of paths) {
    const relative =
      path === root ? '' : path.startsWith(`${root}/`) ? path.slice(root.length + 1) : null;
    if (relative === null) return `'${clip(path)}' is outside the workspace; ${allowed}`;
    const usable = globs.filter((glob) => pathPatternProblem(glob) === null);
    if (!usable.some((glob) => pathGlobMatches(glob.trim(), relative))) {
      return `'${clip(relative === '' ? '.' : relative)}' is not allowed; ${allowed}`;
    }
  }
  return null;
}

function describe(label: string, patterns: readonly string[]): string {
  if (patterns.length === 0)
    return `no pattern of ${label}(...) could be used, so nothing is allowed`;
  return `allowed: ${patterns.map((pattern) => `${label}(${pattern})`).join(', ')}`;
}

function clip(text: string): string {
  const flat = text.replace(/\s+/g, ' ');
  return flat.length > 80 ? `${flat.slice(0, 77)}...` : flat;
}

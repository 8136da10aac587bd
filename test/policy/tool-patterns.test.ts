import { describe, expect, it } from 'vitest';
import { analyzeCommand, commandsOfCalls } from '../../src/tools/shell-analysis.js';
import {
  commandPatternRefusal,
  parseCommandPattern,
  pathGlobMatches,
  pathPatternRefusal,
} from '../../src/policy/tool-patterns.js';

async function verdict(patterns: string[], command: string): Promise<string | null> {
  return commandPatternRefusal(patterns, await analyzeCommand(command));
}

describe('shell analysis (tree-sitter-bash)', () => {
  it('lists every simple command with its literal argv', async () => {
    expect(await analyzeCommand('git status')).toEqual({
      commands: [['git', 'status']],
      refused: [],
    });
    expect(await analyzeCommand(`git 'st'"a"tus -n 5 a\\ b "x\\$y"`)).toEqual({
      commands: [['git', 'status', '-n', '5', 'a b', 'x$y']],
      refused: [],
    });
    expect((await analyzeCommand('a; b && c || d | e\nf')).commands).toEqual([
      ['a'],
      ['b'],
      ['c'],
      ['d'],
      ['e'],
      ['f'],
    ]);
    expect(await analyzeCommand('  git status ;\n')).toEqual({
      commands: [['git', 'status']],
      refused: [],
    });
    expect(await analyzeCommand('git status 2>&1 >/dev/null')).toEqual({
      commands: [['git', 'status']],
      refused: [],
    });
  });

  it.each([
    ['git status $(rm x)', 'command substitution'],
    ['git status `rm x`', 'command substitution'],
    ['git $(rm x)', 'command substitution'],
    ['cat <(rm x)', 'process substitution'],
    ['git status > x', 'redirection'],
    ['git status >& x', 'redirection'],
    ['git log < x', 'redirection'],
    ['cat <<EOF\nhi\nEOF', 'here-document'],
    ['( rm x )', 'subshell'],
    ['{ rm x; }', "'compound_statement'"],
    ['f() { rm x; }', 'function definition'],
    ['git status &', 'background'],
    ['A=1 git status', 'environment assignment'],
    ['x=$(rm y)', 'variable assignment'],
    ['git $CMD', 'variable expansion'],
    ['git "${x}"', 'expansion inside double quotes'],
    ['git status *', 'glob'],
    ['ls ~', 'tilde'],
    ['echo {a,b}', 'brace'],
    ['echo $((1+2))', 'arithmetic'],
    ["echo $'\\x41'", 'ansi_c_string'],
    ['if true; then rm x; fi', "'if_statement'"],
    ['git status # rm x', 'comment'],
    ['"unterminated', 'could not be parsed'],
    ['git status |& rm x', "'|&'"],
    ['a;;b', "';;'"],
    ['! git status', "'negated_command'"],
    ['git \\\nstatus', 'line continuation'],
  ])('refuses %j (%s)', async (command, what) => {
    const analysis = await analyzeCommand(command);
    expect(analysis.refused.join(' | ')).toContain(what);
  });

  it('analyses only the bash calls of a turn', async () => {
    const out = await commandsOfCalls([
      { id: '1', name: 'bash', arguments: { command: 'git status' } },
      { id: '2', name: 'read', arguments: { path: 'x' } },
      { id: '3', name: 'bash', arguments: {} },
    ]);
    expect(Object.keys(out)).toEqual(['1', '3']);
    expect(out['3']?.refused).toEqual(['the call has no command string']);
  });
});

describe('Bash(...) patterns', () => {
  it('parses exact and prefix patterns', () => {
    expect(parseCommandPattern('git status')).toEqual({ words: ['git', 'status'], prefix: false });
    expect(parseCommandPattern('npm run test:*')).toEqual({
      words: ['npm', 'run', 'test'],
      prefix: true,
    });
    expect(parseCommandPattern('git *')).toEqual({ words: ['git'], prefix: true });
    expect(parseCommandPattern('*')).toMatch(/every command/);
    expect(parseCommandPattern('git * main')).toMatch(/trailing/);
    expect(parseCommandPattern('git; rm')).toMatch(/operators/);
  });

  it('Bash(git status) runs git status and refuses the rest, naming the pattern', async () => {
    const patterns = ['git status'];
    expect(await verdict(patterns, 'git status')).toBeNull();
    expect(await verdict(patterns, 'rm x')).toBe(
      "'rm x' is not allowed; allowed: Bash(git status)",
    );
    expect(await verdict(patterns, 'git status; rm x')).toBe(
      "'rm x' is not allowed; allowed: Bash(git status)",
    );
    const substituted = await verdict(patterns, 'git status $(rm x)');
    expect(substituted).toContain('a command substitution ($(rm x))');
    expect(substituted).toContain('allowed: Bash(git status)');
    expect(await verdict(patterns, 'git status --short')).toContain('is not allowed');
    expect(await verdict(patterns, 'git')).toContain('is not allowed');
  });

  it('prefix patterns match whole words', async () => {
    const patterns = ['git:*', 'npm test', 'npm run test:*'];
    expect(await verdict(patterns, 'git log --oneline && git status')).toBeNull();
    expect(await verdict(patterns, 'git')).toBeNull();
    expect(await verdict(patterns, 'npm test')).toBeNull();
    expect(await verdict(patterns, 'npm run test')).toBeNull();
    expect(await verdict(patterns, 'npm run test:unit -- -x')).toContain('is not allowed');
    expect(await verdict(patterns, 'npm run test -- -x')).toBeNull();
    expect(await verdict(patterns, 'gitk')).toContain('is not allowed');
    expect(await verdict(patterns, 'npm test; rm -rf x')).toContain("'rm -rf x' is not allowed");
    expect(await verdict(patterns, 'git log | rm x')).toContain("'rm x'");
    expect(await verdict(patterns, 'git $(rm x)')).toContain('command substitution');
  });

  it('refuses everything when no pattern could be used, or no analysis came', async () => {
    expect(await verdict([], 'git status')).toContain('nothing is allowed');
    expect(commandPatternRefusal(['git status'], undefined)).toContain('could not be analysed');
    expect(await verdict(['git status'], '')).toContain('runs nothing');
  });
});

describe('path patterns', () => {
  it('matches workspace-relative globs', () => {
    expect(pathGlobMatches('docs/**', 'docs/a/b.md')).toBe(true);
    expect(pathGlobMatches('docs/**', 'docs')).toBe(true);
    expect(pathGlobMatches('docs/**', 'docsx/a')).toBe(false);
    expect(pathGlobMatches('docs/*.md', 'docs/a.md')).toBe(true);
    expect(pathGlobMatches('docs/*.md', 'docs/a/b.md')).toBe(false);
    expect(pathGlobMatches('**/*.ts', 'src/a/b.ts')).toBe(true);
    expect(pathGlobMatches('**/*.ts', 'b.ts')).toBe(true);
    expect(pathGlobMatches('./src/?.ts', 'src/a.ts')).toBe(true);
    expect(pathGlobMatches('README.md', 'README.md')).toBe(true);
    expect(pathGlobMatches('README.md', 'docs/README.md')).toBe(false);
  });

  it('refuses paths outside the globs or the workspace, and calls without a path', () => {
    const root = '/w';
    expect(pathPatternRefusal('Read', ['docs/**'], root, ['/w/docs/a.md'])).toBeNull();
    expect(pathPatternRefusal('Read', ['docs/**'], root, ['/w/src/a.ts'])).toBe(
      "'src/a.ts' is not allowed; allowed: Read(docs/**)",
    );
    expect(pathPatternRefusal('Read', ['**'], root, ['/etc/passwd'])).toContain(
      'outside the workspace',
    );
    expect(pathPatternRefusal('Read', ['**'], root, ['/wx/a'])).toContain('outside the workspace');
    expect(pathPatternRefusal('Glob', ['docs/**'], root, [])).toContain('names no path');
    expect(pathPatternRefusal('Read', ['/etc/**'], root, ['/w/etc/a'])).toContain('is not allowed');
  });
});

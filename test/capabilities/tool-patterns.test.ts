/**
 * Claude Code tool patterns from file to snapshot: `Bash(...)`, `Read(...)` and the
 * other file tools grant their tool restricted to the patterns (snapshot `toolPatterns`);
 * `Agent(...)`/`Task(...)` are a diagnostic on a delegate; `mcp__server__*` is `mcp:server`.
 */
import { describe, expect, it } from 'vitest';
import { SUBAGENT_FRAMING } from '../../src/capabilities/prompt.js';
import { resolveCapabilities } from '../../src/capabilities/resolve.js';
import { parseDefinition } from '../../src/definitions/read/parse.js';
import type { LoadedDefinition } from '../../src/definitions/definition.js';
import { mapClaudeToolName } from '../../src/definitions/ecosystem.js';
import { splitSpecList } from '../../src/definitions/read/capabilities.js';
import { input } from './helpers.js';

function snapshotOf(frontmatter: string) {
  const parsed = parseDefinition(
    `---\nname: helper\ndescription: d\n${frontmatter}\n---\nBody.\n`,
    {
      fileName: 'helper.md',
      level: 'ecosystem',
    },
  );
  const base = input();
  const loaded: LoadedDefinition = {
    ...base.loaded,
    definition: parsed.definition,
    diagnostics: parsed.diagnostics,
  };
  return resolveCapabilities({ ...base, loaded });
}

function codes(snapshot: ReturnType<typeof snapshotOf>): string[] {
  return snapshot.diagnostics.map((d) => `${d.severity}:${d.code}:${d.path}`);
}

describe('tool patterns in resolution', () => {
  it('Bash(...) grants bash restricted to its patterns', () => {
    const snapshot = snapshotOf('tools: Read, Bash(git:*), Bash(npm test), Bash(npm run test:*)');
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(['read', 'bash']);
    expect(snapshot.toolPatterns).toEqual({ bash: ['git:*', 'npm test', 'npm run test:*'] });
    expect(codes(snapshot).filter((code) => code.startsWith('error'))).toEqual([]);
  });

  it('path patterns restrict the file tool they name', () => {
    const snapshot = snapshotOf('tools: ["Read(docs/**)", "Edit(src/**/*.ts)", "Write(out/*)"]');
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(['read', 'write', 'edit']);
    expect(snapshot.toolPatterns).toEqual({
      read: ['docs/**'],
      edit: ['src/**/*.ts'],
      write: ['out/*'],
    });
  });

  it('a plain grant of the same tool lifts its patterns (as in Claude Code)', () => {
    const snapshot = snapshotOf('tools: Bash, Bash(git:*)');
    expect(snapshot.toolPatterns).toBeUndefined();
    expect(codes(snapshot)).toContain('info:tool.pattern-overridden:tools');
  });

  it('snapshots without patterns carry no toolPatterns field (old snapshots decide as before)', () => {
    expect('toolPatterns' in snapshotOf('tools: Read, Bash')).toBe(false);
  });

  it('the prompt lists the patterns; without any, it stays framing + body', () => {
    const restricted = snapshotOf('tools: ["Bash(git status)", "Bash(npm run test:*)", Read]');
    expect(restricted.systemPrompt).toContain('# Restricted tools');
    expect(restricted.systemPrompt).toContain(
      '- bash: only `git status` exactly, `npm run test` with any arguments.',
    );
    expect(restricted.systemPrompt).not.toContain('- read:');
    const plain = snapshotOf('tools: Read, Bash');
    expect(plain.systemPrompt).toBe(`${SUBAGENT_FRAMING}Body.\n`);
  });

  it('an unusable pattern is an error and allows nothing, never everything', () => {
    const snapshot = snapshotOf('tools: ["Bash(*)", "Read(/etc/**)"]');
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(['read', 'bash']);
    expect(snapshot.toolPatterns).toEqual({ bash: [], read: [] });
    expect(codes(snapshot)).toEqual(
      expect.arrayContaining([
        'error:tool.pattern-invalid:tools[0]',
        'error:tool.pattern-invalid:tools[1]',
      ]),
    );
  });

  it('a pattern on a tool that has no paths or commands is refused', () => {
    const snapshot = snapshotOf('tools: ["WebFetch(domain:example.com)", "Nope(x)"]');
    expect(snapshot.tools).toEqual([]);
    expect(codes(snapshot)).toEqual(
      expect.arrayContaining(['error:tool.claude-only:tools[0]', 'error:tool.unknown:tools[1]']),
    );
  });

  it('Agent(a, b) and Task(a, b) are a diagnostic on a delegate, never Task', () => {
    const snapshot = snapshotOf('tools: Read, Agent(reviewer, tester), Task(a, b)');
    expect(snapshot.tools.map((tool) => tool.name)).toEqual(['read']);
    const agent = snapshot.diagnostics.filter((d) => d.code === 'tool.agent-pattern');
    expect(agent.map((d) => d.path)).toEqual(['tools[1]', 'tools[2]']);
    expect(agent[0]?.message).toContain('never starts agents (it has no Task tool)');
  });

  it('splits comma lists outside parentheses only', () => {
    expect(splitSpecList('Read, Agent(a, b), Bash(git:*)')).toEqual([
      'Read',
      ' Agent(a, b)',
      ' Bash(git:*)',
    ]);
  });

  it('maps mcp__server__tool, mcp__server__* and mcp__server', () => {
    expect(mapClaudeToolName('mcp__github__search')).toBe('mcp:github:search');
    expect(mapClaudeToolName('mcp__github__*')).toBe('mcp:github');
    expect(mapClaudeToolName('mcp__github')).toBe('mcp:github');
    expect(mapClaudeToolName('Read')).toBeUndefined();
    const snapshot = snapshotOf('tools: mcp__github__*\nmcpServers: [github]');
    expect(snapshot.mcpServers.map((server) => server.name)).toEqual(['github']);
    expect(codes(snapshot).filter((code) => code.startsWith('error'))).toEqual([]);
  });
});

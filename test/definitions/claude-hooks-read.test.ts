/** Reading hooks in Claude Code's `{matcher, hooks: [{type, command, timeout}]}` form. */
import { describe, expect, it } from 'vitest';
import { parseDefinition, type ParseOptions } from '../../src/definitions/read/parse.js';
import { claudeMatcherMatches, claudeToolName } from '../../src/shared/claude-hooks.js';
import { verdictAfterHooks } from '../../src/workflows/claude-hooks.js';

const ecosystem: ParseOptions = { fileName: 'helper.md', level: 'ecosystem' };

function read(hooks: string) {
  return parseDefinition(
    `---\nname: helper\ndescription: d\nhooks:\n${hooks}---\nBody\n`,
    ecosystem,
  );
}

describe("hooks in Claude Code's form", () => {
  it('read into normalized entries, SubagentStop and Stop at Stop', () => {
    const { definition, diagnostics } = read(`  PreToolUse:
    - matcher: "Bash|Edit"
      hooks:
        - { type: command, command: ./check.sh, timeout: 5 }
        - { type: command, command: ./log.sh }
    - hooks: [{ type: command, command: ./all.sh }]
  PostToolUse:
    - matcher: Write
      hooks: [{ type: command, command: ./fmt.sh }]
  SubagentStop:
    - hooks: [{ type: command, command: ./done.sh }]
  Stop:
    - hooks: [{ type: command, command: ./stop.sh }]
`);
    expect(definition.hooks).toEqual({
      PreToolUse: [
        { command: './check.sh', timeoutSeconds: 5, matcher: 'Bash|Edit', format: 'claude' },
        { command: './log.sh', matcher: 'Bash|Edit', format: 'claude' },
        { command: './all.sh', format: 'claude' },
      ],
      PostToolUse: [{ command: './fmt.sh', matcher: 'Write', format: 'claude' }],
      Stop: [
        { command: './done.sh', format: 'claude' },
        { command: './stop.sh', format: 'claude' },
      ],
    });
    expect(diagnostics.map((d) => `${d.severity}:${d.code}:${d.path}`)).toEqual([
      'info:hooks.claude-stop:hooks.SubagentStop',
      'info:hooks.claude-stop:hooks.Stop',
    ]);
  });

  it('reports what it cannot run, and keeps the rest', () => {
    const { definition, diagnostics } = read(`  PreToolUse:
    - matcher: "Bash("
      hooks: [{ type: command, command: ./bad-matcher.sh }]
    - matcher: Bash
      hooks:
        - { type: prompt, prompt: "is it safe?" }
        - { type: command, command: "" }
        - { type: command, command: ./ok.sh, timeout: -1 }
  UserPromptSubmit:
    - hooks: [{ type: command, command: ./x.sh }]
`);
    expect(definition.hooks).toEqual({
      PreToolUse: [{ command: './ok.sh', matcher: 'Bash', format: 'claude' }],
    });
    expect(diagnostics.map((d) => `${d.code}:${d.path}`)).toEqual([
      'field.invalid:hooks.PreToolUse[0].matcher',
      'hooks.unsupported-type:hooks.PreToolUse[1].hooks[0].type',
      'field.invalid:hooks.PreToolUse[1].hooks[1].command',
      'field.invalid:hooks.PreToolUse[1].hooks[2].timeout',
      'hooks.unknown-event:hooks.UserPromptSubmit',
    ]);
  });

  it("deputy's own form, and the normalized form an editor saves back, read as before", () => {
    const { definition, diagnostics } = parseDefinition(
      `---\nname: helper\ndescription: d\nhooks:\n  PreToolUse:\n    - { command: ./own.sh, timeoutSeconds: 3 }\n    - { command: ./cc.sh, matcher: Bash, format: claude }\n---\nBody\n`,
      { fileName: 'helper.md', level: 'project' },
    );
    expect(definition.hooks).toEqual({
      PreToolUse: [
        { command: './own.sh', timeoutSeconds: 3 },
        { command: './cc.sh', matcher: 'Bash', format: 'claude' },
      ],
    });
    expect(diagnostics).toEqual([]);
  });
});

describe("Claude Code's matcher and tool names", () => {
  it('names deputy tools as Claude Code does', () => {
    expect(claudeToolName('bash', null)).toBe('Bash');
    expect(claudeToolName('edit', null)).toBe('Edit');
    expect(claudeToolName('kb_search', null)).toBe('kb_search');
    expect(claudeToolName('mcp_call', { server: 'github', tool: 'create_issue' })).toBe(
      'mcp__github__create_issue',
    );
  });

  it('matches the whole name as a regular expression; empty and * match all', () => {
    expect(claudeMatcherMatches('Bash|Edit', 'Edit')).toBe(true);
    expect(claudeMatcherMatches('Bash|Edit', 'Write')).toBe(false);
    expect(claudeMatcherMatches('Bash', 'BashOutput')).toBe(false);
    expect(claudeMatcherMatches('mcp__github__.*', 'mcp__github__create_issue')).toBe(true);
    expect(claudeMatcherMatches(undefined, 'Read')).toBe(true);
    expect(claudeMatcherMatches('', 'Read')).toBe(true);
    expect(claudeMatcherMatches('*', 'Read')).toBe(true);
    expect(claudeMatcherMatches('(', 'Read')).toBe(false);
  });
});

describe('the verdict after PreToolUse hooks', () => {
  const ctx = { touchesProtected: false, unattended: 'ask' as const };
  const allow = { kind: 'allow' } as const;
  const ask = { kind: 'ask', reason: 'write outside the workspace' } as const;
  const answer = (decision: 'allow' | 'deny' | 'ask' | null, reason = 'r') => ({
    decision,
    reason,
    errors: [],
  });

  it('deny denies, with the reason', () => {
    expect(verdictAfterHooks(allow, answer('deny', 'nope'), ctx)).toEqual({
      kind: 'deny',
      reason: 'blocked by a PreToolUse hook: nope',
    });
  });

  it('ask opens a card on an allowed call, or denies when no one will answer', () => {
    expect(verdictAfterHooks(allow, answer('ask', 'check'), ctx)).toEqual({
      kind: 'ask',
      reason: 'a PreToolUse hook asks for approval: check',
    });
    expect(verdictAfterHooks(allow, answer('ask'), { ...ctx, unattended: 'deny' }).kind).toBe(
      'deny',
    );
  });

  it('allow skips the card, but never for a protected path', () => {
    expect(verdictAfterHooks(ask, answer('allow'), ctx)).toEqual(allow);
    expect(verdictAfterHooks(ask, answer('allow'), { ...ctx, touchesProtected: true })).toEqual(
      ask,
    );
  });

  it('no decision leaves policy alone', () => {
    expect(verdictAfterHooks(ask, answer(null), ctx)).toEqual(ask);
    expect(verdictAfterHooks(allow, answer(null), ctx)).toEqual(allow);
  });
});

/**
 * Approve with edited arguments: an edit must fit the tool's schema and never widen
 * the call, per tool class: a path, a bash command's pattern, an MCP tool.
 */
import { describe, expect, it } from 'vitest';
import { editRefusal, plainWords } from '../../src/policy/edit-scope.js';
import { MCP_CALL_TOOL_SCHEMA } from '../../src/shared/tools/capability-tool-schemas.js';
import {
  BASH_TOOL_SCHEMA,
  WRITE_TOOL_SCHEMA,
} from '../../src/shared/tools/workspace-tool-schemas.js';
import type { ToolSchema } from '../../src/shared/tools/tool-contract.js';

describe('an edit of a file tool', () => {
  const original = { path: 'note.txt', content: 'one\n' };
  const check = (edited: Record<string, unknown>) =>
    editRefusal({ schema: WRITE_TOOL_SCHEMA, original, edited });

  it('may change the content, not the path', () => {
    expect(check({ path: 'note.txt', content: 'two\n' })).toBeNull();
    expect(check({ path: 'other.txt', content: 'two\n' })).toMatch(/cannot change 'path'/);
    expect(check({ path: '../note.txt', content: 'x' })).toMatch(/cannot change 'path'/);
  });

  it('must fit the schema', () => {
    expect(check({ path: 'note.txt' })).toMatch(/content is required/);
    expect(check({ path: 'note.txt', content: 3 })).toMatch(/content must be a string/);
  });
});

describe('an edit of a bash command', () => {
  const check = (command: string, patterns?: string[]) =>
    editRefusal({
      schema: BASH_TOOL_SCHEMA,
      original: { command: 'git status' },
      edited: { command },
      originalCommand: { commands: [['git', 'status']], refused: [] },
      commandPatterns: patterns,
    });

  it("stays inside the card's Bash(<prefix>:*) pattern", () => {
    expect(check('git status --short')).toBeNull();
    expect(check("git status 'a b'")).toBeNull();
    expect(check('git push')).toMatch(/outside the card's Bash\(git status:\*\)/);
    expect(check('rm -rf /')).toMatch(/outside the card's/);
  });

  it('adds no operator, redirection, substitution or glob', () => {
    for (const widened of [
      'git status; rm -rf /',
      'git status && curl x',
      'git status | sh',
      'git status > /etc/passwd',
      'git status $(rm x)',
      'git status `rm x`',
      'git status "$HOME"',
      'git status *',
    ]) {
      expect(check(widened), widened).toMatch(/shell operator|expand/);
    }
  });

  it("also keeps to the definition's patterns", () => {
    expect(check('git status -s', ['git status'])).toMatch(/not allowed by the definition/);
    expect(check('git status', ['git status'])).toBeNull();
  });

  it('cannot edit a card whose own command has operators', () => {
    expect(
      editRefusal({
        schema: BASH_TOOL_SCHEMA,
        original: { command: 'ls > out' },
        edited: { command: 'ls' },
        originalCommand: { commands: [['ls']], refused: ['output redirection (>)'] },
      }),
    ).toMatch(/cannot be edited/);
  });

  it('splits plain words as the shell would', () => {
    expect(plainWords(`git commit -m "a message" 'x y'`)).toEqual([
      'git',
      'commit',
      '-m',
      'a message',
      'x y',
    ]);
    expect(plainWords('  ')).toBe('is empty');
    expect(plainWords('echo "x')).toBe('has an unclosed quote');
  });
});

describe('an edit of an MCP call', () => {
  it('through the gateway: same server and tool, other arguments', () => {
    const original = { server: 'github', tool: 'create_issue', arguments: { title: 'a' } };
    const check = (edited: Record<string, unknown>) =>
      editRefusal({ schema: MCP_CALL_TOOL_SCHEMA, original, edited });
    expect(check({ ...original, arguments: { title: 'b' } })).toBeNull();
    expect(check({ ...original, tool: 'delete_repo' })).toMatch(/cannot change the MCP tool/);
    expect(check({ ...original, server: 'gitlab' })).toMatch(/cannot change the MCP tool/);
  });

  it('a direct MCP tool: its arguments may change, it cannot become another', () => {
    const schema: ToolSchema = {
      name: 'mcp__github__create_issue',
      provider: 'Mcp',
      description: '',
      toolClass: 'mcp',
      inputSchema: {
        type: 'object',
        properties: { title: { type: 'string' } },
        additionalProperties: false,
      },
      mcp: { server: 'github', tool: 'create_issue' },
    };
    const check = (edited: Record<string, unknown>) =>
      editRefusal({ schema, original: { title: 'a' }, edited });
    expect(check({ title: 'b' })).toBeNull();
    expect(check({ title: 'b', tool: 'delete_repo' })).toMatch(/not an argument of this tool/);
  });
});

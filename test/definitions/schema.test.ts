import { describe, expect, it } from 'vitest';
import {
  frontmatterChangesJsonSchema,
  frontmatterJsonSchema,
  validateChanges,
  validateForSave,
} from '../../src/definitions/schema.js';

const base = { name: 'helper', description: 'Helps' };

function issuePaths(input: unknown): string[] {
  const result = validateForSave(input);
  return result.ok ? [] : result.issues.map((issue) => issue.path);
}

describe('validateForSave (strict)', () => {
  it('accepts a minimal and a full definition', () => {
    expect(validateForSave(base)).toEqual({ ok: true, value: base });
    const full = {
      ...base,
      model: 'openai/gpt-4o',
      tools: ['read', 'mcp:docs'],
      disallowedTools: ['bash'],
      skills: ['pdf'],
      mcpServers: [
        'docs',
        { name: 'local', transport: 'stdio', command: 'node', args: ['s.js'], env: { A: 'b' } },
        {
          name: 'remote',
          transport: 'http',
          endpoint: 'https://x.test/mcp',
          auth: 'bearer',
          approve: ['list'],
        },
      ],
      knowledge: [{ name: 'docs', glob: 'docs/**/*.md' }],
      memory: 'shared',
      maxTurns: 3,
      approvalMode: 'full-access',
      background: true,
      hooks: { PreToolUse: [{ command: 'x', timeoutSeconds: 2 }] },
      color: 'red',
      icon: 'bot',
      displayOrder: -1,
    };
    expect(validateForSave(full).ok).toBe(true);
  });

  it('requires a valid name and a non-empty description', () => {
    expect(issuePaths({ name: 'Bad Name', description: 'd' })).toEqual(['name']);
    expect(issuePaths({ name: '-x', description: 'd' })).toEqual(['name']);
    expect(issuePaths({ name: '../x', description: 'd' })).toEqual(['name']);
    expect(issuePaths({ name: 'x' })).toEqual(['description']);
    expect(issuePaths({ name: 'x', description: '   ' })).toEqual(['description']);
    const missing = validateForSave({ name: 'x' });
    expect(missing.ok === false && missing.issues[0]?.message).toContain('required');
  });

  it('refuses unknown keys, wrong types and bad values, listing every one', () => {
    expect(
      issuePaths({
        ...base,
        extra: 1,
        tools: 'Read, Grep',
        maxTurns: 0,
        memory: 'project',
        approvalMode: 'yolo',
        displayOrder: 1.5,
        background: 'yes',
      }).sort(),
    ).toEqual([
      'approvalMode',
      'background',
      'displayOrder',
      'extra',
      'maxTurns',
      'memory',
      'tools',
    ]);
  });

  it('validates inline MCP servers', () => {
    expect(issuePaths({ ...base, mcpServers: [{ transport: 'stdio', command: 'x' }] })).toEqual([
      'mcpServers[0].name',
    ]);
    expect(issuePaths({ ...base, mcpServers: [{ name: 'a', transport: 'http' }] })).toEqual([
      'mcpServers[0].endpoint',
    ]);
    expect(issuePaths({ ...base, mcpServers: [{ name: 'a', transport: 'stdio' }] })).toEqual([
      'mcpServers[0].command',
    ]);
    expect(
      issuePaths({
        ...base,
        mcpServers: [{ name: 'a', transport: 'sse', endpoint: 'https://x.test' }],
      }),
    ).toEqual(['mcpServers[0].transport']);
    expect(
      issuePaths({
        ...base,
        mcpServers: [{ name: 'a', transport: 'stdio', command: 'x', auth: 'bearer' }],
      }),
    ).toEqual(['mcpServers[0].auth']);
    expect(issuePaths({ ...base, mcpServers: ['a', 'a'] })).toEqual(['mcpServers[1]']);
  });

  it('refuses more than 16 skills, escaping knowledge globs, and knowledge without read', () => {
    const skills = Array.from({ length: 17 }, (_, i) => `s${i}`);
    expect(issuePaths({ ...base, skills })).toEqual(['skills']);
    expect(issuePaths({ ...base, knowledge: [{ name: 'k', glob: '/etc/*' }] })).toEqual([
      'knowledge[0].glob',
    ]);
    expect(issuePaths({ ...base, knowledge: [{ name: 'k', glob: 'a/../../b' }] })).toEqual([
      'knowledge[0].glob',
    ]);
    const knowledge = [{ name: 'k', glob: 'docs/*.md' }];
    expect(issuePaths({ ...base, tools: ['grep'], knowledge })).toEqual(['knowledge']);
    expect(issuePaths({ ...base, tools: ['grep', 'READ'], knowledge })).toEqual([]);
    expect(issuePaths({ ...base, tools: ['FileSystem:read'], knowledge })).toEqual([]);
    expect(issuePaths({ ...base, tools: [], knowledge })).toEqual([]);
    expect(issuePaths({ ...base, knowledge })).toEqual([]);
  });

  it('lets unknown keys through only when asked (updating a file that has some)', () => {
    expect(validateForSave({ ...base, custom: 1 }, { allowUnknownKeys: true }).ok).toBe(true);
  });
});

describe('validateChanges', () => {
  it('accepts null and empty values (they clear) and refuses unknown fields', () => {
    expect(validateChanges({ tools: [], model: null, hooks: {} }).ok).toBe(true);
    const result = validateChanges({ toolz: ['x'] });
    expect(result).toEqual({
      ok: false,
      issues: [{ path: 'toolz', message: 'unknown field: toolz' }],
    });
  });
});

describe('JSON Schema for the API', () => {
  it('is produced from the same zod schema', () => {
    const schema = frontmatterJsonSchema();
    expect(schema.type).toBe('object');
    expect(schema.required).toEqual(['name', 'description']);
    expect(schema.additionalProperties).toBe(false);
    const properties = schema.properties as Record<string, Record<string, unknown>>;
    expect(properties.name?.pattern).toBe('^[a-z0-9][a-z0-9-]*$');
    expect(properties.approvalMode?.enum).toEqual([
      'confirm',
      'auto-in-workspace',
      'auto-edit',
      'full-access',
    ]);
    expect(properties.skills?.maxItems).toBe(16);
    expect(Object.keys(properties)).toContain('mcpServers');
    expect(JSON.stringify(frontmatterChangesJsonSchema())).toContain('null');
  });
});

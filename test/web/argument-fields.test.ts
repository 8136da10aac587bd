/**
 * The edit-arguments form's fields (web/src/pages/inbox/argument-fields.ts): typed by a tool's
 * JSON Schema when there is one, else by the card's values, and read back into arguments.
 */
import { describe, expect, it } from 'vitest';
import {
  argumentFields,
  argumentsOf,
  fieldText,
} from '../../web/src/pages/inbox/argument-fields.js';
import {
  EDIT_TOOL_SCHEMA,
  WRITE_TOOL_SCHEMA,
} from '../../src/shared/tools/workspace-tool-schemas.js';

const SCHEMA = {
  type: 'object',
  properties: {
    path: { type: 'string', description: 'File path' },
    limit: { type: 'integer' },
    force: { type: 'boolean' },
    tags: { type: 'array', items: { type: 'string' } },
  },
  required: ['path'],
};

describe('argumentFields', () => {
  it('types fields by the schema, keeps its order and required list, and adds unnamed arguments', () => {
    expect(argumentFields(SCHEMA, { path: 'a.txt', extra: 3 })).toEqual([
      { name: 'path', kind: 'text', required: true, description: 'File path' },
      { name: 'limit', kind: 'number', required: false },
      { name: 'force', kind: 'boolean', required: false },
      { name: 'tags', kind: 'json', required: false },
      { name: 'extra', kind: 'number', required: false },
    ]);
  });

  it("builds a built-in tool's fields from its real schema (as GET /workspace/tools serves it)", () => {
    expect(argumentFields(WRITE_TOOL_SCHEMA.inputSchema, { path: 'a.txt', content: 'x' })).toEqual([
      {
        name: 'path',
        kind: 'text',
        required: true,
        description: 'File path, relative to the workspace root.',
      },
      {
        name: 'content',
        kind: 'text',
        required: true,
        description: 'The complete new content of the file.',
      },
    ]);
    // edit's optional flag is a checkbox even when the card left it out.
    const edit = argumentFields(EDIT_TOOL_SCHEMA.inputSchema, { path: 'a', old_string: 'b' });
    expect(edit.map((field) => [field.name, field.kind, field.required])).toEqual([
      ['path', 'text', true],
      ['old_string', 'text', true],
      ['new_string', 'text', true],
      ['replace_all', 'boolean', false],
    ]);
  });

  it('without a schema, types fields by the values; long or multi-line text gets a text area', () => {
    const fields = argumentFields(null, {
      path: 'a.txt',
      content: 'line one\nline two',
      count: 2,
      on: true,
      nested: { a: 1 },
    });
    expect(fields.map((field) => [field.name, field.kind])).toEqual([
      ['path', 'text'],
      ['content', 'long-text'],
      ['count', 'number'],
      ['on', 'boolean'],
      ['nested', 'json'],
    ]);
  });
});

describe('argumentsOf', () => {
  const fields = argumentFields(SCHEMA, {});

  it('reads the texts back as JSON values and leaves out empty optional fields', () => {
    expect(
      argumentsOf(fields, { path: 'b.txt', limit: '20', force: 'true', tags: '["x"]' }),
    ).toEqual({ arguments: { path: 'b.txt', limit: 20, force: true, tags: ['x'] } });
    expect(argumentsOf(fields, { path: 'b.txt', limit: ' ', force: 'false', tags: '' })).toEqual({
      arguments: { path: 'b.txt', force: false },
    });
  });

  it('names each field that says nothing valid', () => {
    expect(argumentsOf(fields, { path: 'b.txt', limit: 'ten', tags: '[x' })).toEqual({
      problems: { limit: 'not a number', tags: 'not valid JSON' },
    });
  });

  it('starts each field from the card value', () => {
    const [path, limit, force, tags] = fields;
    expect(fieldText(path!, 'a.txt')).toBe('a.txt');
    expect(fieldText(limit!, 5)).toBe('5');
    expect(fieldText(force!, undefined)).toBe('false');
    expect(fieldText(tags!, ['x'])).toBe('[\n  "x"\n]');
  });
});

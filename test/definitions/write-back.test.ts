import { describe, expect, it } from 'vitest';
import { parseDefinition } from '../../src/definitions/read/parse.js';
import { applyChanges, serializeNewDefinition } from '../../src/definitions/registry/write-back.js';

const original = `---
# Reviewer agent: keep this comment
name: reviewer # the registry key
description: 'Reviews code, single-quoted on purpose'
tools: [read, grep]
customField:
  nested: true # unknown to deputy
model: default
maxTurns: 10
---

# Prompt

Body with trailing spaces   
and no final newline`;

const body = original.slice(original.indexOf('---\n', 4) + 4);

describe('applyChanges', () => {
  it('changes one field and keeps comments, key order, quoting, unknown keys and the body', () => {
    const next = applyChanges(original, { model: 'openai/gpt-4o' });
    expect(next).toBe(original.replace('model: default', 'model: openai/gpt-4o'));
  });

  it('appends a new field at the end of the frontmatter', () => {
    const next = applyChanges(original, { color: 'red' });
    expect(next).toBe(original.replace('maxTurns: 10\n', 'maxTurns: 10\ncolor: red\n'));
  });

  it('replaces a list, keeping its flow style', () => {
    const next = applyChanges(original, { tools: ['bash', 'read'] });
    expect(next).toContain('tools: [bash, read]\n');
    expect(next).toContain('# Reviewer agent: keep this comment');
    expect(next.endsWith(body)).toBe(true);
  });

  it('clears fields with null, [] and {}', () => {
    const next = applyChanges(original, { tools: [], model: null, customField: {} });
    expect(next).not.toContain('tools:');
    expect(next).not.toContain('model:');
    expect(next).not.toContain('customField');
    expect(next).toContain('maxTurns: 10');
    expect(
      parseDefinition(next, { fileName: 'x.md', level: 'project' }).definition.tools,
    ).toBeNull();
  });

  it('writes maxTurns into every spelling the file uses', () => {
    const legacy = '---\nname: q\nrunConfig:\n  max_turns: 5\n  max_time_minutes: 2\n---\nBody';
    const next = applyChanges(legacy, { maxTurns: 8 });
    expect(next).toBe('---\nname: q\nrunConfig:\n  max_turns: 8\n  max_time_minutes: 2\n---\nBody');
    const alias = applyChanges('---\nmaxToolRounds: 5\n---\n', { maxTurns: 6 });
    expect(alias).toBe('---\nmaxToolRounds: 6\n---\n');
    const cleared = applyChanges('---\nmaxTurns: 3\nrunConfig: { max_turns: 3 }\n---\n', {
      maxTurns: null,
    });
    expect(cleared).toBe('---\n---\n');
  });

  it('leaves every untouched byte alone: odd spacing, flow padding, block lists, comments', () => {
    const odd = [
      '---',
      'name:    spaced   # aligned comment',
      'vendor: { a: 1, b: [ x, y ] }',
      '# about tools',
      'tools:',
      '- read   # unindented list',
      '- grep',
      '',
      'description: >-',
      '  folded',
      '  text',
      'maxTurns: 3',
      '---',
      'Body',
    ].join('\n');
    const next = applyChanges(odd, { tools: ['bash'], maxTurns: 4 });
    expect(next).toBe(
      odd
        .replace('tools:\n- read   # unindented list\n- grep\n', 'tools:\n  - bash\n')
        .replace('maxTurns: 3', 'maxTurns: 4'),
    );
    const removed = applyChanges(odd, { description: null });
    expect(removed).toBe(odd.replace('description: >-\n  folded\n  text\n', ''));
  });

  it('keeps CRLF line endings and adds a frontmatter to a file without one', () => {
    const crlf = '---\r\nname: a\r\ndescription: d\r\n---\r\nBody\r\n';
    expect(applyChanges(crlf, { description: 'e' })).toBe(
      '---\r\nname: a\r\ndescription: e\r\n---\r\nBody\r\n',
    );
    expect(applyChanges('Only a body\n', { description: 'd' })).toBe(
      '---\ndescription: d\n---\nOnly a body\n',
    );
  });

  it('returns the text untouched when nothing is sent', () => {
    expect(applyChanges(original, {})).toBe(original);
    expect(applyChanges(original, { tools: undefined })).toBe(original);
  });

  it('refuses to edit a frontmatter it cannot read without loss', () => {
    expect(() => applyChanges('---\nname: [x\n---\n', { description: 'd' })).toThrow(
      /not valid YAML/,
    );
    expect(() => applyChanges('---\nname: x\n', { description: 'd' })).toThrow(/never closed/);
  });
});

describe('serializeNewDefinition', () => {
  it('writes fields in the order of docs/definitions.md, skips empty ones, and round-trips through the parser', () => {
    const text = serializeNewDefinition(
      {
        maxTurns: 5,
        description: 'Line one: with a colon',
        name: 'writer',
        tools: ['read'],
        skills: [],
        model: null,
        hooks: { Stop: [{ command: 'echo "done"' }] },
      },
      '\nYou write.\n',
    );
    expect(
      text.startsWith('---\nname: writer\ndescription: "Line one: with a colon"\ntools:\n'),
    ).toBe(true);
    expect(text).not.toContain('skills');
    const { definition, diagnostics } = parseDefinition(text, {
      fileName: 'writer.md',
      level: 'project',
    });
    expect(diagnostics).toEqual([]);
    expect(definition).toMatchObject({
      name: 'writer',
      description: 'Line one: with a colon',
      tools: ['read'],
      maxTurns: 5,
      hooks: { Stop: [{ command: 'echo "done"' }] },
      systemPrompt: '\nYou write.\n',
    });
  });
});

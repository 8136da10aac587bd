/**
 * docs/claude-code.md and the code agree: each row's field is read by deputy or is a declared
 * unsupported field, and the row's example, read as an ecosystem file, gives exactly the
 * diagnostics the row names (with and without an Anthropic key).
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { UNSUPPORTED_FIELDS } from '../../src/definitions/ecosystem.js';
import { parseDefinition } from '../../src/definitions/read/parse.js';
import { FRONTMATTER_FIELDS } from '../../src/definitions/schema.js';
import { builtinModelHandle } from '../../src/models/builtin-models.js';

const root = new URL('../../', import.meta.url);
const read = (path: string): string => readFileSync(fileURLToPath(new URL(path, root)), 'utf8');
const doc = read('docs/claude-code.md');

/** The subagent frontmatter fields Claude Code's documentation lists (checked when written). */
const CLAUDE_CODE_FIELDS = [
  'name',
  'description',
  'tools',
  'disallowedTools',
  'model',
  'permissionMode',
  'maxTurns',
  'skills',
  'mcpServers',
  'hooks',
  'memory',
  'background',
  'effort',
  'isolation',
  'initialPrompt',
  'color',
];
/** Keys deputy reads besides its schema's fields (read-fields.ts). */
const READ_ALIASES = ['maxToolRounds', 'runConfig'];

interface Row {
  section: string;
  field: string;
  example: string;
  diagnostics: string[];
}

function rows(markdown: string): Row[] {
  const out: Row[] = [];
  let section = '';
  let columns: string[] | undefined;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('## ')) {
      section = line.slice(3).trim();
      columns = undefined;
      continue;
    }
    if (!line.startsWith('|')) {
      columns = undefined;
      continue;
    }
    const cells = line
      .slice(1, -1)
      .split('|')
      .map((cell) => cell.trim());
    if (columns === undefined) {
      columns = cells;
      continue;
    }
    if (cells.every((cell) => /^-+$/.test(cell))) continue;
    const cell = (name: string): string => cells[columns!.indexOf(name)] ?? '';
    out.push({
      section,
      field: unquote(cell('field')),
      example: unquote(cell('example')),
      diagnostics:
        cell('diagnostic') === '—'
          ? []
          : cell('diagnostic')
              .split(';')
              .map((part) => {
                const match = /^`([^`]+)` \((error|warning|info)\)$/.exec(part.trim());
                if (match === null) throw new Error(`diagnostic cell not understood: '${part}'`);
                return `${match[2]}:${match[1]}`;
              }),
    });
  }
  return out;
}

function unquote(cell: string): string {
  const match = /^`([^`]+)`$/.exec(cell);
  if (match === null) throw new Error(`expected one code span, got '${cell}'`);
  return match[1]!;
}

const table = rows(doc);
const claudeRows = table.filter((row) => row.section === 'Fields');

/** What reading a file with only `example` gives, besides description.missing. */
function diagnosticsOf(example: string, anthropicKey: boolean): string[] {
  const env = anthropicKey ? { ANTHROPIC_API_KEY: 'sk-test' } : {};
  const { diagnostics } = parseDefinition(`---\n${example}\n---\nYou review code.\n`, {
    fileName: 'reviewer.md',
    level: 'ecosystem',
    aliases: {},
    builtinModel: (name) => builtinModelHandle(name, {}, env),
  });
  return diagnostics
    .filter((d) => d.code !== 'description.missing')
    .map((d) => `${d.severity}:${d.code}`);
}

describe('docs/claude-code.md', () => {
  it("has one row per field of Claude Code's subagent frontmatter, in its order", () => {
    expect(claudeRows.map((row) => row.field)).toEqual(CLAUDE_CODE_FIELDS);
  });

  it('names only fields deputy reads or declares unsupported, and every unsupported one', () => {
    const read = new Set<string>([...FRONTMATTER_FIELDS, ...READ_ALIASES]);
    for (const row of table) {
      const unsupported = Object.hasOwn(UNSUPPORTED_FIELDS, row.field);
      expect(read.has(row.field) !== unsupported, row.field).toBe(true);
      expect(row.diagnostics.includes('warning:field.unsupported'), row.field).toBe(unsupported);
    }
    const fields = table.map((row) => row.field);
    for (const field of Object.keys(UNSUPPORTED_FIELDS)) expect(fields).toContain(field);
  });

  for (const row of table) {
    it(`${row.field}: '${row.example}' gives ${row.diagnostics.join(', ') || 'no diagnostic'}`, () => {
      expect(row.example.split(':')[0]).toBe(row.field);
      const seen = new Set([
        ...diagnosticsOf(row.example, false),
        ...diagnosticsOf(row.example, true),
      ]);
      expect([...seen].sort()).toEqual([...row.diagnostics].sort());
    });
  }

  it("keeps deputy's own meaning outside the ecosystem level", () => {
    const { definition, diagnostics } = parseDefinition(
      '---\ndescription: d\nmemory: project\nskills: [pdf]\nbackground: true\n---\n',
      { fileName: 'a.md', level: 'project' },
    );
    expect(definition.memory).toBe('none');
    expect(definition.skills).toEqual(['pdf']);
    expect(definition.background).toBe(true);
    expect(diagnostics.map((d) => `${d.severity}:${d.code}`)).toEqual([
      'error:memory.unsupported-scope',
    ]);
  });

  it('is linked from docs/definitions.md and the README', () => {
    expect(read('docs/definitions.md')).toContain('(claude-code.md)');
    expect(read('README.md')).toContain('(docs/claude-code.md)');
  });
});

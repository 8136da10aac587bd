/**
 * The fast frontmatter reader (src/definitions/read/simple-yaml.ts) against the `yaml` library:
 * whatever it accepts reads to the values the library gives, with no diagnostic; what it is not
 * sure of it leaves to the library. And it does accept the files agents are usually written as,
 * or it would speed nothing up.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';
import { splitFrontmatter } from '../../src/definitions/read/frontmatter.js';
import {
  isSimpleButForUnquotedColons,
  readSimpleFrontmatter,
} from '../../src/definitions/read/simple-yaml.js';
import { readFrontmatterYaml, readWithYamlLibrary } from '../../src/definitions/read/yaml-read.js';

const corpus = fileURLToPath(
  new URL('../fixtures/corpus/claude-agents-voltagent/categories', import.meta.url),
);
const corpusYaml = fg
  .sync('**/*.md', { cwd: corpus, absolute: true })
  .sort()
  .map((file) => ({ file, yaml: splitFrontmatter(readFileSync(file, 'utf8')).yaml }));

/** Only the library: no fast path, not even for the text recovered from an invalid one. */
const byLibrary = (yaml: string) => readWithYamlLibrary(yaml, () => undefined);

/**
 * A value spelled out with each object's prototype and key order, so two reads compare fully
 * (toStrictEqual alone would take a key named `constructor` for the object's type).
 */
function shape(value: unknown): unknown {
  if (Array.isArray(value)) return { list: value.map(shape) };
  if (value !== null && typeof value === 'object') {
    const prototype = Object.getPrototypeOf(value) === null ? 'null' : 'Object';
    const entries = Object.keys(value).map((key) => [
      key,
      shape((value as Record<string, unknown>)[key]),
    ]);
    return { prototype, entries };
  }
  return { type: typeof value, value };
}

function shapeOf(read: ReturnType<typeof byLibrary>): unknown {
  return { values: shape(read.values), diagnostics: read.diagnostics };
}

/** Fails when the fast reader accepts `yaml` but reads it differently from the library. */
function expectSameAsLibrary(yaml: string): boolean {
  const simple = readSimpleFrontmatter(yaml);
  if (simple === undefined) return false;
  expect(shapeOf({ values: simple, diagnostics: [] }), yaml).toEqual(shapeOf(byLibrary(yaml)));
  return true;
}

const TYPICAL = [
  'name: api-designer\ndescription: "Use this agent when designing APIs."\ntools: Read, Write, Edit, Bash\nmodel: sonnet\n',
  '# generated\nname: agent-0001\ndescription: "Agent number 1: does one thing well"\nmodel: default\ntools:\n  - read\n  - bash\nknowledge:\n  - { name: docs, glob: "docs/**/*.md" }\nmemory: private\nmaxTurns: 6\ndisplayOrder: 1\n',
  'name: a\ntools: [read, grep, glob]\nmcpServers:\n  - docs\n  - name: local\n    transport: stdio\n    command: node\n    args: [server.js]\nbackground: true\nicon: null\n',
  "name: b\ndescription: 'it''s quoted' # a comment\ndisallowedTools: []\nskills:\n- one\n- two\n\ncolor: blue\n",
  '',
  '# only a comment\n',
];

describe('simple frontmatter reader', () => {
  it('reads the usual shapes, exactly as the yaml library does', () => {
    for (const yaml of TYPICAL) expect(expectSameAsLibrary(yaml), yaml).toBe(true);
  });

  it('reads the corpus files the library reads without recovery, the same way', () => {
    let accepted = 0;
    for (const { file, yaml } of corpusYaml) {
      const library = byLibrary(yaml);
      if (library.diagnostics.length > 0) continue;
      expect(expectSameAsLibrary(yaml), file).toBe(true);
      accepted++;
    }
    expect(accepted).toBeGreaterThanOrEqual(140);
  });

  it('gives recovered files the same values and warning as a second library parse', () => {
    const recovered = corpusYaml.filter(({ yaml }) =>
      byLibrary(yaml).diagnostics.some((d) => d.code === 'frontmatter.yaml-recovered'),
    );
    expect(recovered.length).toBeGreaterThan(0);
    for (const { file, yaml } of recovered)
      expect(shapeOf(readFrontmatterYaml(yaml)), file).toEqual(shapeOf(byLibrary(yaml)));
  });

  it('leaves to the library what it cannot be sure of', () => {
    const notSimple = [
      'name: a\nname: b\n', // duplicate key: a diagnostic
      'description: >\n  folded\n', // block scalar
      'description: first\n  continued\n', // multi-line plain
      'tools: &t [read]\nskills: *t\n', // anchor and alias
      'maxTurns: 1.5\n', // float
      'maxTurns: 0x10\n', // hex
      'maxTurns: -3\n', // signed
      'description: "tab\\x09"\n', // escape outside the common ones
      'description: a: b\n', // invalid YAML
      'name: x\r\nmodel: y\r\n', // CRLF
      'hooks:\n  PreToolUse: []\n', // block map
      'true: x\n', // key read as a boolean
      'tools: [a, [b]]\n', // nested flow
      'tools: [a,\n  b]\n', // multi-line flow
      'knowledge:\n  - name: x\n    glob:\n      - a\n', // deeper block
      '{ name: x }\n', // flow map document
      'description: "x"y\n',
    ];
    for (const yaml of notSimple) expect(readSimpleFrontmatter(yaml), yaml).toBeUndefined();
  });

  it('reads generated near-miss frontmatter exactly as the library does', () => {
    // Values written with an unquoted `: ` (strict YAML rejects them; read after quoting).
    const colonValue = fc.constantFrom(
      'Use when: x',
      "Triggers on: 'GDPR', 'CCPA'",
      'a: "x" y',
      'a: [x',
      'a: {x',
      'a: |',
      'a: >',
      'a: &x',
      'a: *x',
      'a: !x',
      'a: - b',
      'a: ? b',
      'a: #b',
      'a: b: c',
      'a:b: c',
      'a, b: c',
      '(a): b',
      'a [b]: c',
      'a: b # c: d',
      `${'long '.repeat(210)}: x`,
    );
    // Values of every other kind, in and out of the simple subset.
    const otherValue = fc.constantFrom(
      'read',
      'Read, Write',
      'null',
      'Null',
      '~',
      'TRUE',
      'false',
      'yes',
      '42',
      '007',
      '-1',
      '1e3',
      '.inf',
      'a: b',
      'a:b',
      'a #c',
      'a# c',
      'x:',
      '"q: x"',
      '"esc \\" \\\\ \\n \\t \\/"',
      '"bad \\u0041"',
      "'it''s'",
      "'a\\b'",
      '"open',
      '[a, b]',
      '[]',
      '{}',
      '[a, "b, c", \'d\']',
      '[a,]',
      '[a b, c:d]',
      '{ name: docs, glob: "docs/**/*.md" }',
      '{ a: 1, a: 2 }',
      '{a:1}',
      '[{ a: x }, b]',
      '/abs/path',
      '_under',
      'http://example.com',
      '@at',
      '!tag x',
      '&anchor x',
      '*alias',
      '| ',
      '- item',
      '? key',
      '%x',
      '`x`',
      'ü ünïcode',
      '"x" # c',
      '"x"# c',
      '[a] # c',
    );
    const key = fc.constantFrom(
      'name',
      'tools',
      'model',
      'description',
      'maxTurns',
      'my-key',
      '_x',
      'True',
      '__proto__',
      'constructor',
    );
    /** Frontmatter lines built from `scalar` values, with list items, nested keys and comments. */
    const lineOf = (scalar: fc.Arbitrary<string>) =>
      fc.oneof(
        fc.tuple(key, scalar).map(([k, v]) => `${k}: ${v}`),
        key.map((k) => `${k}:`),
        fc.tuple(fc.constantFrom('', ' ', '  ', '    '), scalar).map(([i, v]) => `${i}- ${v}`),
        fc
          .tuple(fc.constantFrom('  ', '    ', '   ', ' '), key, scalar)
          .map(([i, k, v]) => `${i}${k}: ${v}`),
        fc.tuple(fc.constantFrom('  ', ''), key, scalar).map(([i, k, v]) => `${i}- ${k}: ${v}`),
        fc.constantFrom('', '# comment', '   # indented comment', '  ', '---', '...', '-'),
      );
    let accepted = 0;
    let recovered = 0;
    const check = (lines: string[]) => {
      const yaml = `${lines.join('\n')}\n`;
      if (expectSameAsLibrary(yaml)) accepted++;
      if (isSimpleButForUnquotedColons(yaml)) recovered++;
      expect(shapeOf(readFrontmatterYaml(yaml)), yaml).toEqual(shapeOf(byLibrary(yaml)));
    };
    const anyLine = lineOf(fc.oneof(colonValue, otherValue));
    fc.assert(fc.property(fc.array(anyLine, { maxLength: 8 }), check), { numRuns: 3000 });
    // Mostly simple lines with a colon value or two: the recovered path's usual input.
    const simpleValue = fc.constantFrom('read', 'Read, Write', '"q: x"', '[a, b]', '42', "'s'");
    const simpleLine = fc.tuple(key, simpleValue).map(([k, v]) => `${k}: ${v}`);
    const mostlySimple = fc.oneof(
      { weight: 4, arbitrary: simpleLine },
      { weight: 1, arbitrary: fc.tuple(key, colonValue).map(([k, v]) => `${k}: ${v}`) },
      { weight: 1, arbitrary: lineOf(otherValue) },
    );
    // One line per key: a duplicate key would send the text to the library anyway.
    const distinctKeys = fc.uniqueArray(mostlySimple, {
      maxLength: 8,
      selector: (line) => line.split(':')[0],
    });
    fc.assert(fc.property(distinctKeys, check), { numRuns: 2000 });
    // The generator must reach both fast paths often, or this test checks nothing.
    expect(accepted).toBeGreaterThan(300);
    expect(recovered).toBeGreaterThan(30);
  });
});

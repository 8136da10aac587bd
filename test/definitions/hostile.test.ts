/** Hostile input: whatever a file contains, parsing returns diagnostics, never hangs, and harms nothing. */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { stringify } from 'yaml';
import { describe, expect, it } from 'vitest';
import { parseDefinition } from '../../src/definitions/read/parse.js';
import { INVALID_TOOLS_SPEC } from '../../src/definitions/read/fields.js';
import type { ParseOptions } from '../../src/definitions/read/parse.js';
import type { DeputyError } from '../../src/errors.js';
import { agentFile, useTempRegistries } from './support.js';
import { budgetFrom, type Budget, type BudgetRule } from '../support/calibration.js';

const options: ParseOptions = { fileName: 'victim.md', level: 'project' };
const NAME = /^[a-z0-9][a-z0-9-]*$/;
const FIELDS = [
  'name',
  'description',
  'model',
  'tools',
  'disallowedTools',
  'skills',
  'mcpServers',
  'knowledge',
  'memory',
  'maxTurns',
  'maxToolRounds',
  'runConfig',
  'approvalMode',
  'background',
  'hooks',
  'color',
  'icon',
  'displayOrder',
  '__proto__',
  'constructor',
  'permissionMode',
];

/**
 * Only a guard against a hang (an alias bomb expanded, a parser recursing without end), not a
 * speed claim (how fast parsing is belongs to bench/registry-load.ts). Each parse is measured
 * against a benign file of the same size parsed just before it, its bytes in one YAML scalar:
 * 100 of those, or 2 s, is far above a parser that refuses the input and far below one that
 * expands an alias bomb or recurses without end.
 */
const NO_HANG: BudgetRule = { factor: 100, floorMs: 2_000 };

function benignOfSize(length: number): string {
  const head = '---\nname: benign\ndescription: ';
  const tail = '\n---\n';
  return `${head}${'x'.repeat(Math.max(1, length - head.length - tail.length))}${tail}`;
}

function msOf(parse: () => unknown): number {
  const started = performance.now();
  parse();
  return performance.now() - started;
}

interface Timed {
  ms: number;
  budget: Budget;
}

let parses: Timed[] = [];

function timedParse(text: string, parseOptions: ParseOptions = options) {
  const benign = benignOfSize(text.length);
  const baselineMs = Math.max(
    ...[1, 2].map(() => msOf(() => parseDefinition(benign, parseOptions))),
  );
  const budget = budgetFrom(`a benign file of ${text.length} characters`, baselineMs, NO_HANG);
  const started = performance.now();
  const result = parseDefinition(text, parseOptions);
  const ms = performance.now() - started;
  parses.push({ ms, budget });
  return { ...result, ms, budget };
}

function expectNoHang(): void {
  for (const [index, { ms, budget }] of parses.entries()) {
    budget.expectWithin(ms, `parse ${index + 1} of ${parses.length}`);
  }
  parses = [];
}

function expectPrototypesClean(): void {
  expect(Object.keys(Object.prototype)).toEqual([]);
  expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  expect(({} as Record<string, unknown>).name).toBeUndefined();
  expect(Object.getPrototypeOf({})).toBe(Object.prototype);
}

describe('property-based fuzzing', () => {
  it('never throws on arbitrary text, keeps a valid name and never hangs', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), (text) => {
        const { definition, diagnostics } = timedParse(text);
        expect(definition.name).toMatch(NAME);
        expect(Array.isArray(diagnostics)).toBe(true);
      }),
      { numRuns: 300 },
    );
    expectNoHang();
    expectPrototypesClean();
  });

  it('never throws on arbitrary frontmatter values under known and dangerous keys', () => {
    const frontmatter = fc.dictionary(
      fc.oneof(fc.constantFrom(...FIELDS), fc.string()),
      fc.anything(),
      {
        maxKeys: 8,
      },
    );
    fc.assert(
      fc.property(frontmatter, fc.string({ maxLength: 200 }), (values, body) => {
        let yaml: string;
        try {
          yaml = stringify(values);
        } catch {
          return;
        }
        const { definition, diagnostics } = timedParse(`---\n${yaml}---\n${body}`);
        expect(definition.name).toMatch(NAME);
        expect(definition.systemPrompt).toBe(body);
        expect(definition.maxTurns).toBeGreaterThan(0);
        for (const d of diagnostics) {
          expect(['error', 'warning', 'info']).toContain(d.severity);
          expect(typeof d.path).toBe('string');
          expect(typeof d.code).toBe('string');
        }
      }),
      { numRuns: 300 },
    );
    expectNoHang();
    expectPrototypesClean();
  });

  it('never throws on YAML-looking line soup', () => {
    const line = fc.oneof(
      fc.constantFrom(
        '---',
        '- a',
        '  - b',
        'tools: Read, Grep',
        'tools: [read',
        'name: &a x',
        'description: *a',
        'hooks: {Stop: [{command: x}]}',
        'x: !!binary aGk=',
        'y: !custom tag',
        '? complex key',
        ': value',
        '<<: *a',
        '%YAML 1.1',
        '"unterminated',
        '\t tab',
      ),
      fc.string({ maxLength: 40 }),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 30 }), (lines) => {
        const { definition } = timedParse(`---\n${lines.join('\n')}\n---\nbody`);
        expect(definition.name).toMatch(NAME);
      }),
      { numRuns: 300 },
    );
    expectNoHang();
  });
});

describe('resource exhaustion', () => {
  it('refuses an alias bomb without expanding it, keeping the other fields', () => {
    const rows = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]'];
    for (let i = 1; i < 10; i++) {
      const prev = String.fromCharCode(96 + i);
      const next = String.fromCharCode(97 + i);
      rows.push(`${next}: &${next} [${Array(9).fill(`*${prev}`).join(',')}]`);
    }
    const text = `---\nname: bomb\ndescription: d\n${rows.join('\n')}\n---\nbody`;
    const { definition, diagnostics, ms, budget } = timedParse(text);
    expect(definition.name).toBe('bomb');
    expect(definition.description).toBe('d');
    expect(diagnostics.map((d) => d.code)).toContain('frontmatter.alias-limit');
    budget.expectWithin(ms, 'the alias bomb');
  });

  it('refuses a self-referencing alias without hanging', () => {
    const { definition, ms, budget } = timedParse('---\nname: loop\nx: &a [*a]\n---\n');
    expect(definition.name).toBe('loop');
    budget.expectWithin(ms, 'the self-referencing alias');
  });

  it('loads a 10 MB file as an empty stub named after the file', () => {
    const text = `---\nname: huge\ndescription: d\n---\n${'x'.repeat(10 * 1024 * 1024)}`;
    const { definition, diagnostics, ms, budget } = timedParse(text, {
      fileName: 'big-file.md',
      level: 'project',
    });
    expect(definition.name).toBe('big-file');
    expect(definition.systemPrompt).toBe('');
    expect(definition.tools).toEqual([INVALID_TOOLS_SPEC]);
    expect(diagnostics).toEqual([
      expect.objectContaining({ severity: 'error', code: 'file.too-large' }),
    ]);
    budget.expectWithin(ms, 'the 10 MB file');
  });

  it('refuses 5,000-deep nesting (flow and block) and loads the rest', () => {
    const flow = `---\nname: deep\ndescription: d\ntools: [read]\nx: ${'['.repeat(5000)}${']'.repeat(5000)}\n---\nbody`;
    const flowResult = timedParse(flow);
    flowResult.budget.expectWithin(flowResult.ms, '5,000-deep flow nesting');
    expect(flowResult.diagnostics.some((d) => d.severity === 'error')).toBe(true);
    const mapping = `---\nname: deep\ndescription: d\ntools: [read]\nx: ${'{a: '.repeat(5000)}1${'}'.repeat(5000)}\n---\n`;
    expect(timedParse(mapping).definition.name).toMatch(NAME);
    expect(flowResult.definition.tools).toEqual([INVALID_TOOLS_SPEC]);
    // Deeper than any field needs but parseable: that key is refused, the rest loads.
    const moderate = `---\nname: deep\ndescription: d\ntools: [read]\nx: ${'['.repeat(40)}${']'.repeat(40)}\n---\nbody`;
    const result = timedParse(moderate);
    expect(result.definition).toMatchObject({ name: 'deep', description: 'd', tools: ['read'] });
    expect(result.definition.unknownKeys.x).toBeUndefined();
    expect(result.diagnostics.map((d) => `${d.code}:${d.path}`)).toContain(
      'frontmatter.too-deep:x',
    );
    let block = '';
    for (let i = 0; i < 1200; i++) block += `${' '.repeat(i)}k:\n`;
    const blockResult = timedParse(`---\n${block}---\nbody`);
    expect(blockResult.definition.systemPrompt).toBe('body');
    blockResult.budget.expectWithin(blockResult.ms, '1,200-deep block nesting');
  });
});

describe('prototype pollution and duplicate keys', () => {
  it('keeps __proto__ and constructor keys as plain data', () => {
    const text = [
      '---',
      'name: proto',
      '__proto__: { polluted: yes, name: evil }',
      'constructor: { prototype: { polluted: yes } }',
      'hooks:',
      '  __proto__: [{ command: x }]',
      'mcpServers:',
      '  - { name: s, transport: stdio, command: x, env: { __proto__: y } }',
      'runConfig: { __proto__: { max_turns: 3 } }',
      '---',
      '',
    ].join('\n');
    const { definition } = timedParse(text);
    expectPrototypesClean();
    expect(Object.hasOwn(definition.unknownKeys, '__proto__')).toBe(true);
    expect(definition.name).toBe('proto');
    expect(definition.maxTurns).toBe(40);
    expect(Object.getPrototypeOf(definition.unknownKeys)).toBeNull();
    expect((definition as unknown as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('reports duplicate keys, top-level and nested; the last one is used', () => {
    const text =
      '---\nname: dup\nmaxTurns: 3\nmaxTurns: 4\nhooks:\n  Stop: [{command: a}]\n  Stop: [{command: b}]\n---\n';
    const { definition, diagnostics } = timedParse(text);
    expect(definition.maxTurns).toBe(4);
    expect(definition.hooks).toEqual({ Stop: [{ command: 'b' }] });
    const paths = diagnostics
      .filter((d) => d.code === 'frontmatter.duplicate-key')
      .map((d) => d.path);
    expect(paths.sort()).toEqual(['hooks.Stop', 'maxTurns']);
  });
});

describe('path-like names through the registry', () => {
  const temp = useTempRegistries();

  it('never keys or writes a definition by a path-like name', async () => {
    await temp.layout.write(
      join(temp.layout.dirs.project, 'evil.md'),
      '---\nname: ../../escape\ndescription: d\n---\nbody',
    );
    const registry = await temp.load();
    const evil = registry.get('evil');
    expect(evil?.diagnostics.find((d) => d.path === 'name')?.code).toBe('name.path-like');
    expect(registry.list().map((e) => e.definition.name)).toEqual(['evil']);

    const refused = await registry
      .create('project', { name: '../../escape', description: 'd' }, 'x')
      .catch((e: unknown) => e);
    expect((refused as DeputyError).kind).toBe('invalid');
    for (const attempt of [
      registry.update('../../escape', { description: 'x' }),
      registry.delete('../escape'),
      registry.restore('../escape', '20260101T000000000Z-00000000'),
    ]) {
      expect(((await attempt.catch((e: unknown) => e)) as DeputyError).kind).toBe('not-found');
    }
    expect(await registry.revisions('../../escape')).toEqual([]);

    await registry.update('evil', { description: 'still evil' }).catch(() => undefined);
    await registry.delete('evil');
    expect(await readdir(temp.layout.root)).toEqual(expect.arrayContaining(['data', 'workspace']));
    expect((await readdir(temp.layout.root)).sort()).toEqual(['data', 'workspace']);
    expect(await readdir(join(temp.layout.config.dataDir, 'revisions', 'project'))).toEqual([
      'evil',
    ]);
  });

  it('loads a 10 MB file in a level as a stub without stalling the registry', async () => {
    await writeFile(
      join(
        await temp.layout.write(join(temp.layout.dirs.project, 'small.md'), agentFile('small')),
        '..',
        'big.md',
      ),
      'x'.repeat(10 * 1024 * 1024),
    );
    const registry = await temp.load();
    expect(registry.get('small')).toBeDefined();
    expect(registry.get('big')?.diagnostics.map((d) => d.code)).toEqual(['file.too-large']);
  });
});

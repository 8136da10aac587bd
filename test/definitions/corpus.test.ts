/**
 * Every Claude Code agent in test/fixtures/corpus (written by other people, copied with their
 * licence; see its README) loads through the ecosystem level without an error-severity
 * diagnostic. How fast it loads is measured by bench/registry-load.ts, not asserted here.
 */
import { cp, readFile } from 'node:fs/promises';
import { basename, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DefinitionRegistry } from '../../src/definitions/registry/registry.js';
import { loadedRegistry, tempLayout } from './support.js';
import type { TempLayout } from './support.js';

const repoRoot = resolve(fileURLToPath(new URL('../..', import.meta.url)));
const corpus = resolve(
  repoRoot,
  'test',
  'fixtures',
  'corpus',
  'claude-agents-voltagent',
  'categories',
);
const files = fg.sync('**/*.md', { cwd: corpus, absolute: true }).sort();

let layout: TempLayout;
let registry: DefinitionRegistry;

beforeAll(async () => {
  layout = await tempLayout();
  await cp(corpus, layout.dirs.claude, { recursive: true });
  // Only sonnet is mapped, so opus and haiku must be diagnosed.
  // No Anthropic key (env: {}), so the built-in Anthropic defaults stay out of it.
  registry = await loadedRegistry(layout, {
    aliases: { sonnet: 'openai/gpt-4o-mini' },
    env: {},
  });
});

afterAll(async () => {
  await layout.cleanup();
});

describe('ecosystem corpus (claude-agents-voltagent)', () => {
  it('is present', () => {
    expect(files.length).toBeGreaterThanOrEqual(150);
  });

  it('loads every file, each as an ecosystem agent, with no error diagnostic', () => {
    const loaded = registry.listAll();
    expect(loaded).toHaveLength(files.length);
    const errors = loaded.flatMap((entry) =>
      entry.diagnostics
        .filter((d) => d.severity === 'error')
        .map((d) => `${basename(entry.filePath)}: ${d.code} ${d.message}`),
    );
    expect(errors).toEqual([]);
    for (const entry of loaded) {
      expect(entry.level).toBe('ecosystem');
      expect(entry.readOnly).toBe(true);
      expect(entry.definition.description.length).toBeGreaterThan(20);
      expect(entry.definition.systemPrompt.length).toBeGreaterThan(100);
    }
    expect(registry.list()).toHaveLength(files.length);
  });

  it('maps comma-separated tools to lists and keeps every name', async () => {
    for (const file of files) {
      const text = await readFile(file, 'utf8');
      const line = /^tools:\s*(.+)$/m.exec(text)?.[1];
      if (line === undefined) continue;
      const entry = registry.listAll().find((e) => basename(e.filePath) === basename(file))!;
      const expected = line
        .split(',')
        .map((t) => t.trim())
        .filter((t) => t !== '')
        // Claude Code's MCP wire names become deputy specs.
        .map((t) => t.replace(/^mcp__(.+?)__(.+)$/, 'mcp:$1:$2'))
        // `mcp__server` (and `mcp__server__*`): every tool of the server.
        .map((t) => t.replace(/^mcp__([^_].*?)(__\*)?$/, 'mcp:$1'));
      expect(entry.definition.tools).toEqual(expected);
    }
  });

  it('resolves mapped aliases, diagnoses unmapped ones, and reads inherit as default', async () => {
    const seen = new Set<string>();
    for (const file of files) {
      const model = /^model:\s*(\S+)/m.exec(await readFile(file, 'utf8'))?.[1];
      const entry = registry.listAll().find((e) => basename(e.filePath) === basename(file))!;
      const codes = entry.diagnostics.map((d) => d.code);
      if (model === undefined) {
        expect(entry.definition.model).toBe('default');
        continue;
      }
      seen.add(model);
      if (model === 'sonnet') {
        expect(entry.definition.model).toBe('openai/gpt-4o-mini');
      } else if (model === 'inherit') {
        expect(entry.definition.model).toBe('default');
        expect(codes).toContain('model.inherit');
      } else {
        expect(entry.definition.model).toBe('default');
        expect(codes).toContain('model.alias-unmapped');
      }
    }
    expect([...seen].sort()).toEqual(['haiku', 'inherit', 'sonnet']);
  });

  it('keys every agent by a valid name, normalizing the few with dots', () => {
    const names = registry.list().map((e) => e.definition.name);
    expect(names).toContain('powershell-5-1-expert');
    for (const name of names) expect(name).toMatch(/^[a-z0-9][a-z0-9-]*$/);
  });

  it('reloads to the same definitions and diagnostics', async () => {
    const before = registry.listAll();
    await registry.reload();
    expect(registry.listAll()).toEqual(before);
  });

  it('keeps the files it read untouched', async () => {
    const first = files[0]!;
    const copied = join(layout.dirs.claude, first.slice(corpus.length + 1));
    expect(await readFile(copied, 'utf8')).toBe(await readFile(first, 'utf8'));
  });
});

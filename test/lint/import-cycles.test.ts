/**
 * No import cycle in src/, type-only imports and `import()` included: a cycle, even of
 * types, means two modules each know the other, and layers stop being layers.
 * The graph is read from the sources' own import specifiers; the checker is held against a cycle
 * it must find, so it cannot pass by seeing nothing.
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fg from 'fast-glob';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** Relative specifiers of `import`, `export ... from` and `import()`, type-only ones included. */
const IMPORT_SOURCE =
  /(?:^|\n)\s*(?:import|export)\s[^'";]*?from\s*['"](\.{1,2}\/[^'"]+)['"]|(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]|import\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g;

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(path.join(ROOT, file), 'utf8');
    const targets: string[] = [];
    for (const match of text.matchAll(IMPORT_SOURCE)) {
      const specifier = match[1] ?? match[2] ?? match[3] ?? '';
      const base = path.posix.join(path.posix.dirname(file), specifier);
      const candidates = [base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base];
      const target = candidates.find((candidate) => known.has(candidate));
      if (target !== undefined) targets.push(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** Strongly connected components of more than one file, or a file importing itself (Tarjan). */
function cycles(graph: Map<string, string[]>): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node) ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node)!, low.get(target)!));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node)!, index.get(target)!));
      }
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1 || (graph.get(node) ?? []).includes(node))
      found.push(component.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found;
}

describe('import cycles', () => {
  it('src/ has none, type-only imports included', () => {
    const files = fg.sync(['src/**/*.ts', 'src/**/*.tsx'], { cwd: ROOT });
    expect(files.length).toBeGreaterThan(250);
    expect(statSync(path.join(ROOT, 'src/cli/main.ts')).isFile()).toBe(true);
    const graph = importGraph(files);
    // The graph is real: the entry point reaches its program through an `import()`.
    expect(graph.get('src/cli/main.ts')).toContain('src/cli/program.ts');
    expect(cycles(graph)).toEqual([]);
  });

  it('finds a cycle through a type-only import', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ]);
    expect(cycles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts']]);
    const text =
      "import type { A } from './a.js';\nexport { B } from './b.js';\nawait import('./c.js');";
    expect(
      [...text.matchAll(IMPORT_SOURCE)].map((match) => match[1] ?? match[2] ?? match[3]),
    ).toEqual(['./a.js', './b.js', './c.js']);
  });
});

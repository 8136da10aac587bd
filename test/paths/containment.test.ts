import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isInsideReal } from '../../src/paths/containment.js';
import { realpathLenient } from '../../src/paths/realpath-lenient.js';
import { isInside } from '../../src/shared/path-containment.js';
import { containmentCases } from '../support/containment-cases.js';

// A real tree in os.tmpdir(); no file system mocks. `base` is resolved so that a symlinked
// temp folder (macOS /var -> /private/var) does not change the answers.
const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deputy-containment-')));
const ws = path.join(base, 'ws');
const outside = path.join(base, 'outside');

beforeAll(() => {
  for (const directory of ['ws/src', 'ws/sub', 'ws2', 'ws-x', 'outside']) {
    fs.mkdirSync(path.join(base, directory), { recursive: true });
  }
  fs.writeFileSync(path.join(ws, 'src', 'a.ts'), 'a');
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'secret');
  const link = (target: string, at: string): void => fs.symlinkSync(target, path.join(base, at));
  link('../outside', 'ws/out'); // inside, pointing out (relative target)
  link(path.join(outside, 'secret.txt'), 'ws/secret.txt'); // a linked file pointing out
  link(path.join(ws, 'src'), 'door'); // outside, pointing in
  link('../ws', 'ws2/back'); // in the ws2 sibling, pointing into ws
  link(path.join(outside, 'not-yet.txt'), 'ws/dangling-out'); // dangling, target outside
  link(path.join(ws, 'later.txt'), 'ws/dangling-in'); // dangling, target inside
  link('src', 'ws/alias'); // inside, pointing inside
  link('hop2', 'ws/hop1'); // a chain that ends outside
  link('../outside', 'ws/hop2');
  link('loop-b', 'ws/loop-a'); // a loop: cannot be resolved
  link('loop-a', 'ws/loop-b');
  link('/', 'ws/slash'); // to the file system root
  link('..', 'ws/up'); // to the root's parent
  link('ws', 'ws-link'); // a second name for the root itself
});

afterAll(() => {
  fs.rmSync(base, { recursive: true, force: true });
});

describe('isInsideReal on a tree without links: the shared table', () => {
  it.each(containmentCases(base))('$name', (c) => {
    expect(isInsideReal(c.root, c.candidate)).toBe(c.inside);
    // The lexical rule gives the same answer on the same concrete paths.
    expect(isInside(c.root, c.candidate)).toBe(c.inside);
  });
});

describe('isInsideReal through symbolic links', () => {
  const cases: Array<[string, string, string, boolean]> = [
    ['a link inside pointing outside', ws, 'ws/out', false],
    ['a file below a link that points outside', ws, 'ws/out/secret.txt', false],
    ['a new file below a link that points outside', ws, 'ws/out/new/file.txt', false],
    ['a linked file pointing outside', ws, 'ws/secret.txt', false],
    ['a link outside pointing inside', ws, 'door', true],
    ['a file below a link outside that points inside', ws, 'door/a.ts', true],
    ['a link in the ws2 sibling pointing into ws', ws, 'ws2/back/src/a.ts', true],
    ['the ws2 sibling directory itself', ws, 'ws2', false],
    ['a dangling link whose target is outside', ws, 'ws/dangling-out', false],
    ['a dangling link whose target is inside', ws, 'ws/dangling-in', true],
    ['a link inside pointing inside', ws, 'ws/alias/a.ts', true],
    ['a chain of links ending outside', ws, 'ws/hop1/secret.txt', false],
    ['a link to the file system root', ws, 'ws/slash/etc/passwd', false],
    ['a link to the parent, then back into the root', ws, 'ws/up/ws/src', true],
    ['a link to the parent, then out', ws, 'ws/up/outside', false],
    // `..` is folded before links are followed (as fs.realpathSync does): out/.. is ws.
    ['.. after a link is folded first', ws, 'ws/out/../src/a.ts', true],
    ['.. after a link, folded, still leaving', ws, 'ws/out/../../ws2', false],
    ['the root named through a link', 'ws-link', 'ws/src/a.ts', true],
    ['a path named through the root link', ws, 'ws-link/src/a.ts', true],
    ['outside the root named through a link', 'ws-link', 'outside/secret.txt', false],
    ['a loop in the candidate is refused, not thrown', ws, 'ws/loop-a/x', false],
    ['a loop as the root is refused, not thrown', 'ws/loop-a', 'ws/loop-a/x', false],
  ];

  it.each(cases)('%s', (_name, root, candidate, inside) => {
    // Concatenated, not path.join: joining would fold `out/..` lexically before the test.
    const absolute = (p: string): string => (p.startsWith('/') ? p : `${base}/${p}`);
    expect(isInsideReal(absolute(root), absolute(candidate))).toBe(inside);
  });

  it('judges what it resolves with the lexical rule itself', () => {
    // The one place the two answers differ is where a link leads: lexically ws/out is inside.
    expect(isInside(ws, path.join(ws, 'out'))).toBe(true);
    expect(realpathLenient(path.join(ws, 'out/new'))).toBe(path.join(outside, 'new'));
  });

  it('never resolves a relative input against the working directory', () => {
    // Resolved against the cwd, 'x' would be inside it.
    expect(isInsideReal(process.cwd(), 'x')).toBe(false);
    expect(isInsideReal('.', path.join(process.cwd(), 'x'))).toBe(false);
  });
});

describe('realpathLenient', () => {
  it('resolves the existing prefix, keeps the missing tail and follows dangling links', () => {
    expect(realpathLenient(path.join(ws, 'alias/new/b.ts'))).toBe(path.join(ws, 'src/new/b.ts'));
    expect(realpathLenient(path.join(ws, 'dangling-out'))).toBe(path.join(outside, 'not-yet.txt'));
    expect(realpathLenient(path.join(ws, 'hop1'))).toBe(outside);
  });

  it('folds .. before following links, as fs.realpathSync does', () => {
    expect(realpathLenient(`${ws}/out/../src/a.ts`)).toBe(fs.realpathSync(`${ws}/out/../src/a.ts`));
    expect(realpathLenient(`${ws}/out/../missing/x`)).toBe(path.join(ws, 'missing/x'));
  });

  it('throws for a loop (callers decide how to refuse)', () => {
    expect(() => realpathLenient(path.join(ws, 'loop-a/x'))).toThrow();
  });
});

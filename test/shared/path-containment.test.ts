import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  isAbsolutePosixPath,
  isInside,
  relativeInside,
} from '../../src/shared/path-containment.js';
import { containmentCases } from '../support/containment-cases.js';

describe('isInside (the lexical rule, sandbox-safe)', () => {
  it.each(containmentCases(''))('$name: $candidate in $root -> $inside', (c) => {
    expect(isInside(c.root, c.candidate)).toBe(c.inside);
  });

  it('refuses what is not a string instead of throwing', () => {
    for (const bad of [undefined, null, 42, {}, ['/ws'], new String('/ws')]) {
      expect(isInside(bad as string, '/ws/a')).toBe(false);
      expect(isInside('/ws', bad as string)).toBe(false);
      expect(isAbsolutePosixPath(bad)).toBe(false);
    }
  });

  it('agrees with node:path (posix) on every short combination of tricky segments', () => {
    // The reference is the old path.relative-based check, which Node's own normalization backs.
    const reference = (root: string, candidate: string): boolean => {
      const relative = path.posix.relative(resolved(root), resolved(candidate));
      return relative === '' || (relative !== '..' && !relative.startsWith('../'));
    };
    const cache = new Map<string, string>();
    const resolved = (p: string): string => {
      if (!cache.has(p)) cache.set(p, path.posix.resolve(p));
      return cache.get(p) ?? p;
    };
    const pieces = ['ws', 'ws2', 'WS', '..', '.', '', '..foo'];
    // Every path of up to three pieces: '/', '/ws', '/ws/..', '/ws//WS', ...
    let level = [''];
    const paths = ['/'];
    for (let length = 1; length <= 3; length += 1) {
      level = level.flatMap((previous) => pieces.map((piece) => `${previous}/${piece}`));
      paths.push(...level);
    }
    const disagreements: string[] = [];
    for (const root of paths) {
      for (const candidate of paths) {
        if (isInside(root, candidate) !== reference(root, candidate)) {
          disagreements.push(`${candidate} in ${root}`);
        }
      }
    }
    expect(paths).toHaveLength(1 + 7 + 49 + 343);
    expect(disagreements).toEqual([]);
  });
});

describe('relativeInside', () => {
  it('gives the normalized path below the root, empty for the root itself', () => {
    expect(relativeInside('/ws', '/ws')).toBe('');
    expect(relativeInside('/ws/', '/ws/./src//a.ts')).toBe('src/a.ts');
    expect(relativeInside('/', '/etc/passwd')).toBe('etc/passwd');
    expect(relativeInside('/ws', '/ws/src/../a.ts')).toBe('a.ts');
  });

  it('gives undefined outside the root or for a refused input', () => {
    expect(relativeInside('/ws', '/ws2/a')).toBeUndefined();
    expect(relativeInside('/ws', '/ws/../etc')).toBeUndefined();
    expect(relativeInside('/ws', 'src/a.ts')).toBeUndefined();
    expect(relativeInside('/ws', '/ws/a\0')).toBeUndefined();
  });
});

describe('isAbsolutePosixPath', () => {
  it('accepts absolute POSIX paths only', () => {
    expect(isAbsolutePosixPath('/')).toBe(true);
    expect(isAbsolutePosixPath('//ws/../x')).toBe(true);
    expect(isAbsolutePosixPath('')).toBe(false);
    expect(isAbsolutePosixPath('ws')).toBe(false);
    expect(isAbsolutePosixPath('C:\\ws')).toBe(false);
    expect(isAbsolutePosixPath('/ws\0')).toBe(false);
  });
});

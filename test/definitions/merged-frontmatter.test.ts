import { describe, expect, it } from 'vitest';
import {
  mergedFrontmatter,
  withoutUndefined,
} from '../../src/definitions/registry/merged-frontmatter.js';
import { DeputyError } from '../../src/errors.js';

const file = `---
name: reviewer
description: Reviews code
tools: [read, grep]
customField: kept by write-back
model: null
---
Body
`;

describe('mergedFrontmatter (what an update would leave, validated before writing)', () => {
  it('applies sent fields, clears on null / [] / {}, and leaves out unknown and null keys', () => {
    const merged = mergedFrontmatter(file, 'reviewer', {
      description: 'Reviews diffs',
      tools: [],
      color: 'red',
      maxTurns: undefined,
    });
    expect(merged).toEqual({ name: 'reviewer', description: 'Reviews diffs', color: 'red' });
  });

  it('takes the name from the registry key when the file has no frontmatter', () => {
    expect(mergedFrontmatter('Just a prompt\n', 'helper', { model: 'default' })).toEqual({
      name: 'helper',
      model: 'default',
    });
  });

  it('refuses a file whose frontmatter is not YAML, as an invalid definition', () => {
    const broken = '---\nname: [unclosed\n---\nBody\n';
    let thrown: unknown;
    try {
      mergedFrontmatter(broken, 'broken', {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DeputyError);
    expect((thrown as DeputyError).kind).toBe('invalid');
    expect((thrown as DeputyError).issues).toEqual([
      { path: '', message: "the file's frontmatter is not valid YAML; fix the file by hand first" },
    ]);
  });
});

describe('withoutUndefined', () => {
  it('drops keys that were not sent and keeps the clearing values', () => {
    expect(withoutUndefined({ a: undefined, b: null, c: [], d: 'x' })).toEqual({
      b: null,
      c: [],
      d: 'x',
    });
  });
});

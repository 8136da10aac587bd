/**
 * The layout's two rules, so the drift stops at the commit that starts it: no folder of src/ or
 * web/src holds more than 20 files directly (a folder that grows past that holds more than one
 * idea and wants subfolders), and every top-level folder of src/ is governed by a boundary of
 * eslint.boundaries.js (a folder no rule names may import anything, so its arrows go unchecked).
 */
import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { BOUNDARIES } from '../../eslint.boundaries.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const MAX_FILES = 20;

/** Every folder below `top` (itself included), with the number of files directly in it. */
function fileCounts(root: string, top: string): Array<{ folder: string; files: number }> {
  const entries = readdirSync(path.join(root, top), { withFileTypes: true });
  const here = { folder: top, files: entries.filter((entry) => entry.isFile()).length };
  const below = entries
    .filter((entry) => entry.isDirectory())
    .flatMap((entry) => fileCounts(root, path.posix.join(top, entry.name)));
  return [here, ...below];
}

function crowded(top: string, root = ROOT): string[] {
  return fileCounts(root, top)
    .filter(({ files }) => files > MAX_FILES)
    .map(({ folder, files }) => `${folder}: ${files} files`);
}

function topLevelFolders(top: string): string[] {
  return (
    readdirSync(path.join(ROOT, top), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => path.posix.join(top, entry.name))
      // A folder git left empty after its files moved is not part of the layout.
      .filter((folder) => fileCounts(ROOT, folder).some(({ files }) => files > 0))
  );
}

describe('the layout', () => {
  it(`keeps every folder of src/ and web/src at ${MAX_FILES} files or fewer`, () => {
    // Held against a folder nested two down with one file too many, so it cannot pass by seeing
    // nothing.
    const probe = mkdtempSync(path.join(tmpdir(), 'deputy-layout-'));
    try {
      mkdirSync(path.join(probe, 'src/a/b'), { recursive: true });
      for (let n = 0; n <= MAX_FILES; n += 1)
        writeFileSync(path.join(probe, `src/a/b/${n}.ts`), '');
      expect(crowded('src', probe)).toEqual([`src/a/b: ${MAX_FILES + 1} files`]);
    } finally {
      rmSync(probe, { recursive: true, force: true });
    }
    expect([...crowded('src'), ...crowded('web/src')]).toEqual([]);
  });

  it('names every top-level folder of src/ in a boundary rule', () => {
    const governed = new Set(BOUNDARIES.flatMap((boundary) => boundary.folders));
    const folders = topLevelFolders('src');
    expect(folders.length).toBeGreaterThan(10);
    expect(folders.filter((folder) => !governed.has(folder))).toEqual([]);
  });
});

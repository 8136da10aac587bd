/**
 * What is on disk under some roots, as one comparable text: every directory and file path with
 * the sha256 of the file's bytes. The authoring fuzz compares it before and after each refused
 * request ("a refused request changes nothing"), and scans the same files for text that must
 * never be written (the `__redacted__` placeholder).
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join, relative } from 'node:path';

/** Every file under `root`, depth first, absolute paths; an absent root has none. */
function walk(root: string, visit: (path: string, isDirectory: boolean) => void): void {
  if (!existsSync(root)) return;
  const pending = [root];
  while (pending.length > 0) {
    const directory = pending.pop()!;
    for (const entry of readdirSync(directory, { withFileTypes: true })) {
      const path = join(directory, entry.name);
      visit(path, entry.isDirectory());
      if (entry.isDirectory()) pending.push(path);
    }
  }
}

/**
 * sha256 by path, reused while the file's inode, size, mtime and ctime (nanoseconds) are the same:
 * any write changes ctime, and nothing can set it back, so an unchanged stat means unchanged bytes.
 */
const hashes = new Map<string, { stat: string; sha256: string }>();

function sha256Of(path: string): string {
  const { ino, size, mtimeNs, ctimeNs } = statSync(path, { bigint: true });
  const stat = `${ino}:${size}:${mtimeNs}:${ctimeNs}`;
  const known = hashes.get(path);
  if (known?.stat === stat) return known.sha256;
  const sha256 = createHash('sha256').update(readFileSync(path)).digest('hex');
  hashes.set(path, { stat, sha256 });
  return sha256;
}

/**
 * `<root index>:<relative path> <sha256>` per file and `<root index>:<relative path>/` per
 * directory, sorted: equal texts mean byte-identical trees (an absent root and an empty one differ).
 */
export function snapshotTrees(roots: readonly string[]): string {
  const lines: string[] = [];
  roots.forEach((root, index) => {
    lines.push(`${index}:${existsSync(root) ? '.' : '(absent)'}`);
    walk(root, (path, isDirectory) => {
      const name = `${index}:${relative(root, path)}`;
      lines.push(isDirectory ? `${name}/` : `${name} ${sha256Of(path)}`);
    });
  });
  return lines.sort().join('\n');
}

/** The files under `roots` whose bytes contain `needle` (UTF-8). */
export function filesContaining(roots: readonly string[], needle: string): string[] {
  const found: string[] = [];
  const bytes = Buffer.from(needle, 'utf8');
  for (const root of roots) {
    walk(root, (path, isDirectory) => {
      if (!isDirectory && readFileSync(path).includes(bytes)) found.push(path);
    });
  }
  return found;
}

/** Every file under `roots` with its bytes, and every directory: to put the trees back as they were. */
export interface CapturedTrees {
  roots: readonly string[];
  files: Map<string, Buffer>;
  directories: Set<string>;
}

export function captureTrees(roots: readonly string[]): CapturedTrees {
  const files = new Map<string, Buffer>();
  const directories = new Set<string>();
  for (const root of roots) {
    if (existsSync(root)) directories.add(root);
    walk(root, (path, isDirectory) => {
      if (isDirectory) directories.add(path);
      else files.set(path, readFileSync(path));
    });
  }
  return { roots, files, directories };
}

/**
 * Puts the trees back as `captured`, touching only what differs: files and directories added
 * since are removed, changed or removed files are written again.
 */
export function restoreTrees(captured: CapturedTrees): void {
  const now = captureTrees(captured.roots);
  for (const path of now.files.keys()) {
    if (!captured.files.has(path)) rmSync(path, { force: true });
  }
  // Deepest first, so a directory is empty when its turn comes.
  for (const directory of [...now.directories].sort((a, b) => b.length - a.length)) {
    if (!captured.directories.has(directory)) rmSync(directory, { recursive: true, force: true });
  }
  for (const directory of captured.directories) mkdirSync(directory, { recursive: true });
  for (const [path, content] of captured.files) {
    const current = now.files.get(path);
    if (current === undefined || !current.equals(content)) writeFileSync(path, content);
  }
}

import fs from 'node:fs';
import path from 'node:path';

/** More hops than any sane tree needs; the kernel's own limit is 40. */
const MAX_SYMLINK_HOPS = 40;

/**
 * Like fs.realpathSync, but for a path whose tail may not exist: the longest existing prefix
 * is resolved (symlinks included, dangling ones by reading their target) and the missing
 * components are appended. Never throws for paths outside any root: policy needs to see
 * where a call really points, the tools refuse it afterwards. Throws for what cannot
 * be resolved at all (a symlink loop, a folder it may not search, a NUL byte).
 *
 * `.` and `..` are folded lexically first (path.resolve), as fs.realpathSync itself does:
 * `ws/link/..` is `ws`, although the kernel would open the parent of the link's target. The
 * result describes path.resolve(absolutePath), so a caller opens that (or this result), never
 * the raw string. Folding up front also keeps the fallback below (lstat, readlink) from mixing
 * the kernel's reading of `link/..` into a lexical one.
 *
 * Resolution is the kernel's (realpath(3), `fs.realpathSync.native`): one call where Node's own
 * JavaScript realpath makes an lstat per path component, which made policy's look at deputy's
 * own roots (about twenty of them, on every model turn that names a path) cost ~1.9 ms.
 *
 * @param absolutePath an absolute path; a relative one resolves against the process's cwd.
 * @param seen answers already found during ONE computation (several roots sharing a missing
 *   parent resolve it once); never kept across computations, so nothing is stale.
 */
export function realpathLenient(absolutePath: string, seen?: Map<string, string>): string {
  return resolveLenient(path.resolve(absolutePath), 0, seen);
}

function resolveLenient(absolutePath: string, hops: number, seen?: Map<string, string>): string {
  const known = seen?.get(absolutePath);
  if (known !== undefined) return known;
  const resolved = resolveUncached(absolutePath, hops, seen);
  seen?.set(absolutePath, resolved);
  return resolved;
}

function resolveUncached(absolutePath: string, hops: number, seen?: Map<string, string>): string {
  try {
    return fs.realpathSync.native(absolutePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  let stats: fs.Stats | undefined;
  try {
    stats = fs.lstatSync(absolutePath);
  } catch {
    stats = undefined;
  }
  if (stats?.isSymbolicLink() === true) {
    // A dangling link: writing through it would create its target, so its target is the path.
    if (hops >= MAX_SYMLINK_HOPS) throw new Error('too many levels of symbolic links');
    const target = fs.readlinkSync(absolutePath);
    return resolveLenient(path.resolve(path.dirname(absolutePath), target), hops + 1, seen);
  }
  const parent = path.dirname(absolutePath);
  if (parent === absolutePath) return absolutePath;
  return path.join(resolveLenient(parent, hops, seen), path.basename(absolutePath));
}

/**
 * The Node-side path-containment check: where a path really leads, symlinks included. The
 * lexical rule itself lives once, sandbox-safe, in src/shared/path-containment.ts; this module
 * only resolves both sides first and then asks it. Code that compares paths as the file system
 * reports them (no resolving wanted) imports `isInside` from there directly.
 */
import { isAbsolutePosixPath, isInside } from '../shared/path-containment.js';
import { realpathLenient } from './realpath-lenient.js';

/**
 * `candidate` really is `root` or lies below it: both sides are resolved with realpathLenient
 * (every symlink followed; a missing tail is kept; a dangling link counts as its target, since
 * writing through it would create that) and then judged by {@link isInside}. Like
 * fs.realpathSync, `..` is folded lexically before links are followed (`ws/link/..` is `ws`),
 * so the answer is about path.resolve(candidate): open that or its real path, never the raw
 * string, whose `link/..` the kernel would take after the link.
 *
 * Same contract as isInside: absolute POSIX inputs; an empty or relative input, or one holding
 * a NUL byte, is refused (`false`) before the file system is touched, so a relative path never
 * resolves against the process's cwd. Never throws: a path that cannot be resolved (a symlink
 * loop, a folder it may not search) is refused too, failing closed.
 *
 * The answer holds for the moment of the check; a caller that then opens the path accepts the
 * window in between (see resolveInWorkspace).
 */
export function isInsideReal(root: string, candidate: string): boolean {
  const realRoot = resolveOrRefuse(root);
  const realCandidate = resolveOrRefuse(candidate);
  return realRoot !== undefined && realCandidate !== undefined && isInside(realRoot, realCandidate);
}

function resolveOrRefuse(path: string): string | undefined {
  if (!isAbsolutePosixPath(path)) return undefined;
  try {
    return realpathLenient(path);
  } catch {
    return undefined;
  }
}

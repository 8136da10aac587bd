/**
 * The one lexical rule for "is this path inside that directory?" (security code).
 *
 * Pure and sandbox-safe: plain string work, no Node module, so the workflow's decide() and the
 * Node-side tools answer with the same function. Node code that must know where a path really
 * leads (symlinks) uses isInsideReal in src/paths/containment.ts, which resolves both sides and
 * then asks this module, so the two can never disagree about `..`, prefixes or slashes.
 */

/**
 * Whether `path` is acceptable to this module: a string that starts with `/` (an absolute POSIX
 * path) and holds no NUL byte (no file name can contain one; the kernel would cut the path
 * there, so it is refused rather than guessed at). Never throws, whatever it is given.
 */
export function isAbsolutePosixPath(path: unknown): path is string {
  return typeof path === 'string' && path.startsWith('/') && !path.includes('\0');
}

/**
 * Where `candidate` lies below `root`, as a relative POSIX path: `''` for the root itself,
 * `'src/a.ts'` below it, `undefined` when it is not inside or an input is refused. Same
 * contract as {@link isInside}, which is this function's `!== undefined`.
 */
export function relativeInside(root: string, candidate: string): string | undefined {
  const base = segments(root);
  const below = segments(candidate);
  if (base === undefined || below === undefined || below.length < base.length) return undefined;
  // Whole segments, compared exactly: `/ws2` and `/ws-x` share a string prefix with `/ws`,
  // not a segment. Case-sensitive on purpose: Linux file systems are, and on a case-insensitive
  // volume this can only refuse a path that is really inside, never admit one that is outside.
  for (let index = 0; index < base.length; index += 1) {
    if (below[index] !== base[index]) return undefined;
  }
  return below.slice(base.length).join('/');
}

/**
 * `candidate` is `root` itself or lies below it, judged lexically (symlinks are not followed).
 *
 * Contract:
 * - Both inputs must be absolute POSIX paths ({@link isAbsolutePosixPath}). An empty or relative
 *   input, a non-string, or one holding a NUL byte is refused: the answer is `false`, never an
 *   exception, so a caller that forgot to validate fails closed.
 * - Each side is normalized here first: repeated slashes collapse (a leading `//` too, as Linux
 *   does; POSIX leaves it implementation-defined), `.` segments drop, trailing slashes are
 *   ignored, and `..` removes the segment before it (at `/` it stays at `/`, as the kernel
 *   does). So `/ws/../etc` is outside `/ws`, `/../ws/a` and `/ws/..foo` are inside it.
 * - The root itself counts as inside (`/ws` is inside `/ws`; `/` contains every path).
 * - Segment-wise and case-sensitive: `/ws2`, `/ws-x` and `/WS/a` are not inside `/ws`.
 * - `\` is an ordinary character of a POSIX file name, not a separator.
 */
export function isInside(root: string, candidate: string): boolean {
  return relativeInside(root, candidate) !== undefined;
}

/** The normalized segments of an absolute POSIX path, or `undefined` when it is refused. */
function segments(path: unknown): string[] | undefined {
  if (!isAbsolutePosixPath(path)) return undefined;
  const kept: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') kept.pop();
    else kept.push(segment);
  }
  return kept;
}

/**
 * One table of hostile path-containment cases, run unchanged against the pure lexical rule
 * (test/shared/path-containment.test.ts, `base` = '') and against the Node-side, realpath-aware
 * check on a real directory tree (test/paths/containment.test.ts, `base` = a temp folder). Both
 * must give every expected answer, so the two functions cannot drift apart.
 */

export interface ContainmentCase {
  /** Stable title, the same in both runs. */
  name: string;
  root: string;
  candidate: string;
  /** Whether `candidate` is `root` or below it. */
  inside: boolean;
}

/**
 * The cases for a tree rooted at `base`: `${base}/ws` is the root under test, `${base}/ws2` and
 * `${base}/ws-x` are siblings sharing its name as a prefix, and nothing else needs to exist
 * (missing tails are fine). Paths that must start at the file system's own `/` (a `..` there)
 * put it before `base`.
 *
 * @param base '' for the pure rule, or an absolute, symlink-free folder without a trailing
 *   slash for the Node-side check.
 */
export function containmentCases(base: string): ContainmentCase[] {
  const ws = `${base}/ws`;
  const cases: Array<[string, string, string, boolean]> = [
    // [name, root, candidate, inside]
    ['the root itself', ws, ws, true],
    ['a path below the root', ws, `${ws}/a`, true],
    ['a deep path below the root', ws, `${ws}/a/b/c.txt`, true],
    ['the parent of the root', ws, `${base}/`, false],
    ['a root deeper than the candidate', `${ws}/a`, ws, false],
    ['an unrelated path', ws, `${base}/etc/passwd`, false],
    ['the file system root contains everything', '/', `${ws}/a`, true],
    ['the file system root contains itself', '/', '/', true],

    // `..` in all its places
    ['.. leaving the root', ws, `${ws}/../etc`, false],
    ['.. twice leaving the root', ws, `${ws}/a/../../etc`, false],
    ['.. as the last segment (the parent)', ws, `${ws}/..`, false],
    ['.. staying inside', ws, `${ws}/a/../b`, true],
    ['.. leaving and coming back', ws, `${ws}/../ws/a`, true],
    ['.. through a sibling back to the root', ws, `${base}/ws2/../ws/a`, true],
    ['.. in the root itself', `${ws}/sub/..`, `${ws}/a`, true],
    ['.. at the file system root stays there', ws, `/..${ws}/a`, true],
    ['../.. at the file system root stays there', ws, `/../..${ws}/a`, true],
    ['.. at the file system root does not reach elsewhere', ws, '/../etc', false],
    ['a name that starts with .. is inside', ws, `${ws}/..foo`, true],
    ['a name of three dots is inside', ws, `${ws}/...`, true],
    ['percent-encoded dots are a name, not ..', ws, `${ws}/%2e%2e/etc`, true],
    ['backslashes are part of a name, not separators', ws, `${ws}/a\\..\\..\\etc`, true],

    // Siblings sharing a string prefix
    ['a sibling with a longer name (ws2)', ws, `${base}/ws2`, false],
    ['a path below a sibling (ws2/a)', ws, `${base}/ws2/a`, false],
    ['a sibling with a dash (ws-x)', ws, `${base}/ws-x`, false],
    ['a sibling with a trailing space', ws, `${base}/ws /a`, false],
    ['a shorter prefix (w)', ws, `${base}/w`, false],

    // Slashes and `.`
    ['a trailing slash on the root', `${ws}/`, `${ws}/a`, true],
    ['a trailing slash on the candidate', ws, `${ws}/`, true],
    ['trailing slashes on both', `${ws}//`, `${ws}/a//`, true],
    ['a trailing slash does not widen the root to a sibling', `${ws}/`, `${base}/ws2/`, false],
    ['doubled slashes in the candidate', ws, `${base}//ws//a`, true],
    ['doubled slashes in the root', `${base}//ws`, `${ws}/a`, true],
    ['a leading // is /', ws, `/${ws}/a`, true],
    ['doubled slashes do not join a sibling', `${ws}//`, `${base}//ws2`, false],
    ['. segments in the candidate', ws, `${ws}/./a/.`, true],
    ['. segments in the root', `${base}/./ws/.`, `${ws}/a`, true],
    ['. as the last segment is the root', ws, `${ws}/.`, true],
    ['. and .. reaching a sibling', ws, `${ws}/.././ws2`, false],

    // Case: Linux file systems are case-sensitive
    ['an upper-case candidate is another directory', ws, `${base}/WS/a`, false],
    ['an upper-case root is another directory', `${base}/WS`, `${ws}/a`, false],

    // Refused inputs: false, never an exception
    ['an empty candidate', ws, '', false],
    ['an empty root', '', `${ws}/a`, false],
    ['both empty', '', '', false],
    ['a relative candidate', ws, 'ws/a', false],
    ['a ./ relative candidate', ws, './a', false],
    ['a ../ relative candidate', ws, '../ws/a', false],
    ['a . candidate', ws, '.', false],
    ['a relative root', 'ws', `${ws}/a`, false],
    ['both relative', 'ws', 'ws/a', false],
    ['a ~ path is relative', ws, '~/ws/a', false],
    ['a NUL byte in the candidate', ws, `${ws}/a\0`, false],
    ['a NUL byte hiding an escape', ws, `${ws}/a\0/../../etc`, false],
    ['a NUL byte in the root', `${ws}\0`, `${ws}/a`, false],
  ];
  return cases.map(([name, root, candidate, inside]) => ({ name, root, candidate, inside }));
}

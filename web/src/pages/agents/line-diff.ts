/**
 * A small line diff for an agent file against one of its revisions (tens to a few hundred
 * lines): the longest common subsequence of lines, then the changes grouped in hunks with a few
 * lines of context, as `diff -u` shows them. Quadratic, so larger inputs are refused rather
 * than freezing the page; definition files are far below the bound.
 */

export type DiffLine =
  | { kind: 'same'; text: string; oldNumber: number; newNumber: number }
  | { kind: 'removed'; text: string; oldNumber: number }
  | { kind: 'added'; text: string; newNumber: number };

export interface DiffHunk {
  lines: DiffLine[];
}

/** Lines times lines above which no diff is computed (a 3,000-line file against itself). */
export const MAX_DIFF_CELLS = 9_000_000;

/** Every line of `before` and `after` in order, each kept, removed or added. */
export function diffLines(before: string, after: string): DiffLine[] | null {
  const a = splitLines(before);
  const b = splitLines(after);
  if (a.length * b.length > MAX_DIFF_CELLS) return null;
  // lcs[i][j]: the longest common subsequence of a[i..] and b[j..], in one flat array.
  const width = b.length + 1;
  const lcs = new Uint32Array((a.length + 1) * width);
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      lcs[i * width + j] =
        a[i] === b[j]
          ? lcs[(i + 1) * width + j + 1]! + 1
          : Math.max(lcs[(i + 1) * width + j]!, lcs[i * width + j + 1]!);
    }
  }
  const lines: DiffLine[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push({ kind: 'same', text: a[i]!, oldNumber: i + 1, newNumber: j + 1 });
      i += 1;
      j += 1;
    } else if (
      j < b.length &&
      (i === a.length || lcs[i * width + j + 1]! >= lcs[(i + 1) * width + j]!)
    ) {
      lines.push({ kind: 'added', text: b[j]!, newNumber: j + 1 });
      j += 1;
    } else {
      lines.push({ kind: 'removed', text: a[i]!, oldNumber: i + 1 });
      i += 1;
    }
  }
  // Within a run of changes, removals first, as `diff -u` prints them.
  return groupChanges(lines);
}

/** The changes with `context` unchanged lines around each; [] when the texts are equal. */
export function diffHunks(lines: DiffLine[], context = 3): DiffHunk[] {
  // A line is shown when a change is at most `context` lines away; shown runs are the hunks.
  const shown = new Array<boolean>(lines.length).fill(false);
  lines.forEach((line, index) => {
    if (line.kind === 'same') return;
    for (
      let k = Math.max(0, index - context);
      k <= Math.min(lines.length - 1, index + context);
      k += 1
    ) {
      shown[k] = true;
    }
  });
  const hunks: DiffHunk[] = [];
  let current: DiffLine[] = [];
  lines.forEach((line, index) => {
    if (shown[index] === true) {
      current.push(line);
    } else if (current.length > 0) {
      hunks.push({ lines: current });
      current = [];
    }
  });
  if (current.length > 0) hunks.push({ lines: current });
  return hunks;
}

function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split(/\r?\n/);
  // A final newline ends the last line; it does not start an empty one.
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}

function groupChanges(lines: DiffLine[]): DiffLine[] {
  const out: DiffLine[] = [];
  let removed: DiffLine[] = [];
  let added: DiffLine[] = [];
  const flush = () => {
    out.push(...removed, ...added);
    removed = [];
    added = [];
  };
  for (const line of lines) {
    if (line.kind === 'removed') removed.push(line);
    else if (line.kind === 'added') added.push(line);
    else {
      flush();
      out.push(line);
    }
  }
  flush();
  return out;
}

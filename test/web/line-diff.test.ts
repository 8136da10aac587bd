/** The agent page's line diff (web/src/pages/agents/line-diff.ts): lines kept, removed, added. */
import { describe, expect, it } from 'vitest';
import { diffHunks, diffLines, MAX_DIFF_CELLS } from '../../web/src/pages/agents/line-diff.js';

const marks = (before: string, after: string): string[] =>
  (diffLines(before, after) ?? []).map(
    (line) => `${line.kind === 'same' ? ' ' : line.kind === 'added' ? '+' : '-'}${line.text}`,
  );

describe('diffLines', () => {
  it('keeps equal texts as they are, with both line numbers', () => {
    expect(diffLines('a\nb\n', 'a\nb\n')).toEqual([
      { kind: 'same', text: 'a', oldNumber: 1, newNumber: 1 },
      { kind: 'same', text: 'b', oldNumber: 2, newNumber: 2 },
    ]);
  });

  it('shows a changed line as removed then added, around the lines kept', () => {
    expect(
      marks('---\nname: a\nmodel: x\n---\nPrompt\n', '---\nname: a\nmodel: y\n---\nPrompt\n'),
    ).toEqual([' ---', ' name: a', '-model: x', '+model: y', ' ---', ' Prompt']);
  });

  it('finds insertions and deletions at either end', () => {
    expect(marks('b\nc', 'a\nb\nc\nd')).toEqual(['+a', ' b', ' c', '+d']);
    expect(marks('a\nb\nc', 'b')).toEqual(['-a', ' b', '-c']);
    expect(marks('', 'x')).toEqual(['+x']);
  });

  it('numbers the lines of each side', () => {
    const lines = diffLines('a\nb\nc', 'a\nc\nd') ?? [];
    expect(lines).toContainEqual({ kind: 'removed', text: 'b', oldNumber: 2 });
    expect(lines).toContainEqual({ kind: 'same', text: 'c', oldNumber: 3, newNumber: 2 });
    expect(lines).toContainEqual({ kind: 'added', text: 'd', newNumber: 3 });
  });

  it('refuses inputs too large to compare quickly', () => {
    const big = 'x\n'.repeat(Math.ceil(Math.sqrt(MAX_DIFF_CELLS)) + 1);
    expect(diffLines(big, `${big}y\n`)).toBeNull();
  });
});

describe('diffHunks', () => {
  const numbered = (n: number) => Array.from({ length: n }, (_, i) => `line ${i + 1}`);

  it('has no hunk for equal texts', () => {
    expect(diffHunks(diffLines('a\nb', 'a\nb') ?? [])).toEqual([]);
  });

  it('keeps three lines of context and splits distant changes', () => {
    const before = numbered(20);
    const after = [...before];
    after[1] = 'changed 2';
    after[17] = 'changed 18';
    const hunks = diffHunks(diffLines(before.join('\n'), after.join('\n')) ?? []);
    expect(hunks).toHaveLength(2);
    expect(hunks[0]?.lines.map((line) => line.text)).toEqual([
      'line 1',
      'line 2',
      'changed 2',
      'line 3',
      'line 4',
      'line 5',
    ]);
    expect(hunks[1]?.lines.map((line) => line.text)).toEqual([
      'line 15',
      'line 16',
      'line 17',
      'line 18',
      'changed 18',
      'line 19',
      'line 20',
    ]);
  });

  it('joins changes whose contexts touch', () => {
    const before = numbered(12);
    const after = [...before];
    after[2] = 'x';
    after[8] = 'y';
    expect(diffHunks(diffLines(before.join('\n'), after.join('\n')) ?? [])).toHaveLength(1);
  });
});

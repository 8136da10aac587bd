import { describe, expect, it } from 'vitest';
import { OutputEnds } from '../../src/processes/output-ends.js';

describe('OutputEnds', () => {
  it('keeps short output whole', () => {
    const ends = new OutputEnds(10);
    ends.add('abc');
    ends.add('def');
    expect(ends.toString()).toBe('abcdef');
  });

  it('keeps output of twice the limit whole, without a gap mark', () => {
    const ends = new OutputEnds(4);
    ends.add('panic: x');
    expect(ends.toString()).toBe('panic: x');
  });

  it('keeps the first lines (the cause) and the last lines (the stack) of a long output', () => {
    const ends = new OutputEnds(12);
    ends.add('panic: port taken\n');
    for (let line = 0; line < 100; line += 1) ends.add(`frame ${line}\n`);
    ends.add('main.main()\n');
    const text = ends.toString();
    expect(text.startsWith('panic: port ')).toBe(true);
    expect(text).toContain('\n[…]\n');
    expect(text.endsWith('main.main()\n')).toBe(true);
    expect(text).not.toContain('frame 50');
  });
});

import { describe, expect, it } from 'vitest';
import { formatDuration, MAX_DURATION_MS, parseDuration } from '../../src/shared/duration.js';

describe('parseDuration', () => {
  it('reads the units people write, alone and together', () => {
    expect(parseDuration('90s')).toEqual({ ok: true, ms: 90_000 });
    expect(parseDuration('30m')).toEqual({ ok: true, ms: 1_800_000 });
    expect(parseDuration('2h')).toEqual({ ok: true, ms: 7_200_000 });
    expect(parseDuration('1d')).toEqual({ ok: true, ms: 86_400_000 });
    expect(parseDuration('1h30m')).toEqual({ ok: true, ms: 5_400_000 });
    expect(parseDuration(' 500ms ')).toEqual({ ok: true, ms: 500 });
  });

  it('refuses what is not a positive duration of at most 30 days, saying how to write one', () => {
    for (const text of ['', '90', 'm', '1.5h', '-3s', '2 h', '1w', '30m later']) {
      const parsed = parseDuration(text);
      expect(parsed.ok, text).toBe(false);
      if (!parsed.ok) expect(parsed.problem).toMatch(/not a duration: write a number and a unit/);
    }
    expect(parseDuration('0s')).toEqual({
      ok: false,
      problem: "'0s' is zero: a duration must be positive",
    });
    expect(parseDuration('31d').ok).toBe(false);
    expect(parseDuration('30d')).toEqual({ ok: true, ms: MAX_DURATION_MS });
  });
});

describe('formatDuration', () => {
  it('writes the largest units that fit', () => {
    expect(formatDuration(90_000)).toBe('1m30s');
    expect(formatDuration(2_000)).toBe('2s');
    expect(formatDuration(5_400_000)).toBe('1h30m');
    expect(formatDuration(1_500)).toBe('1s500ms');
  });
});

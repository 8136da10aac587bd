/**
 * Durations as people write them in definitions, configuration and requests: `90s`, `30m`,
 * `2h`, `1d`, or parts together (`1h30m`). Shared by Node code and the workflow sandbox: no I/O.
 */

const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const PART = /(\d+)(ms|s|m|h|d)/g;
const WHOLE = /^(?:\d+(?:ms|s|m|h|d))+$/;

/** Thirty days: a card that waits longer than that is better left without a deadline. */
export const MAX_DURATION_MS = 30 * UNIT_MS.d;

/** What `parseDuration` answers: milliseconds, or why the text is not a duration. */
export type ParsedDuration = { ok: true; ms: number } | { ok: false; problem: string };

export function parseDuration(text: string): ParsedDuration {
  const compact = text.trim();
  if (!WHOLE.test(compact)) {
    return {
      ok: false,
      problem: `'${text}' is not a duration: write a number and a unit (ms, s, m, h, d), e.g. 90s, 30m, 2h, 1h30m`,
    };
  }
  let ms = 0;
  for (const [, amount, unit] of compact.matchAll(PART)) {
    ms += Number(amount) * UNIT_MS[unit as keyof typeof UNIT_MS];
  }
  if (ms <= 0) return { ok: false, problem: `'${text}' is zero: a duration must be positive` };
  if (ms > MAX_DURATION_MS) {
    return { ok: false, problem: `'${text}' is longer than the 30 days a duration may be` };
  }
  return { ok: true, ms };
}

/** A duration's shortest spelling in the largest units that fit, for messages: `90s` -> `1m30s`. */
export function formatDuration(ms: number): string {
  let rest = ms;
  let text = '';
  for (const unit of ['d', 'h', 'm', 's', 'ms'] as const) {
    const size = UNIT_MS[unit];
    if (rest >= size) {
      text += `${Math.floor(rest / size)}${unit}`;
      rest %= size;
    }
  }
  return text || '0s';
}

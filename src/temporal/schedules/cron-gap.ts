/**
 * How close together a cron string can fire, read the way Temporal reads a schedule's cron
 * string: an optional `TZ=`/`CRON_TZ=` prefix, a `#` comment, `@every <interval>[/<phase>]`,
 * the `@hourly`-style shorthands, and 5 (minute first), 6 (a year last) or 7 (a second first)
 * fields. Only the second, minute and hour fields decide how close two runs can be; the day
 * fields only thin them out, so a day is counted as if the next one also ran (a cron that
 * fires at 23:30 and 00:10 fires 40 minutes apart on some night, unless its day fields say
 * otherwise, which is not worth the risk of getting wrong).
 */

/** What a cron string says about its closest two firings. */
export type CronGap =
  /** The shortest time between two firings, milliseconds. */
  | { kind: 'gap'; ms: number }
  /** Cron-shaped, but a time field deputy cannot read: refused, since it cannot be checked. */
  | { kind: 'unreadable'; problem: string }
  /** Not a cron string Temporal accepts either (wrong field count, unknown `@` word). */
  | { kind: 'not-cron' };

const DAY_SECONDS = 86_400;

/** Temporal's shorthands, as the fields they stand for. */
const SHORTHANDS: Record<string, string> = {
  '@yearly': '0 0 1 1 *',
  '@annually': '0 0 1 1 *',
  '@monthly': '0 0 1 * *',
  '@weekly': '0 0 * * 0',
  '@daily': '0 0 * * *',
  '@midnight': '0 0 * * *',
  '@hourly': '0 * * * *',
};

/** Go's duration units, plus Temporal's `d`, for `@every`. */
const GO_UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
const GO_DURATION = /^(?:\d+(?:\.\d+)?(?:ns|us|µs|ms|s|m|h|d))+$/;
const GO_PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/g;

export function cronGap(cronString: string): CronGap {
  let text = cronString.trim();
  if (/^(?:CRON_)?TZ=/.test(text)) text = text.replace(/^\S+\s*/, '');
  text = (text.split('#')[0] ?? '').trim();
  if (text.startsWith('@every')) return everyGap(text);
  text = SHORTHANDS[text.toLowerCase()] ?? text;
  const fields = text.split(/\s+/);
  const [second, minute, hour] =
    fields.length === 7
      ? fields
      : fields.length === 5 || fields.length === 6
        ? ['0', fields[0], fields[1]]
        : [];
  if (second === undefined || minute === undefined || hour === undefined) {
    return { kind: 'not-cron' };
  }
  const seconds = valuesOf(second, 'second', 0, 59);
  const minutes = valuesOf(minute, 'minute', 0, 59);
  const hours = valuesOf(hour, 'hour', 0, 23);
  for (const field of [seconds, minutes, hours]) {
    if (typeof field === 'string') return { kind: 'unreadable', problem: field };
  }
  return {
    kind: 'gap',
    ms: closestInDay(seconds as number[], minutes as number[], hours as number[]),
  };
}

/** `@every 90s` or `@every 1h/15m`: the interval, whatever the phase. */
function everyGap(text: string): CronGap {
  const interval = (text.slice('@every'.length).trim().split('/')[0] ?? '').trim();
  if (!GO_DURATION.test(interval)) return { kind: 'not-cron' };
  let ms = 0;
  for (const [, amount, unit] of interval.matchAll(GO_PART)) {
    ms += Number(amount) * (GO_UNIT_MS[unit!] ?? 0);
  }
  return { kind: 'gap', ms };
}

/** The sorted values of one time field, or why it cannot be read. */
function valuesOf(field: string, name: string, min: number, max: number): number[] | string {
  const values = new Set<number>();
  for (const part of field.split(',')) {
    const match = /^(\*|\?|\d+)(?:-(\d+))?(?:\/(\d+))?$/.exec(part);
    const step = Number(match?.[3] ?? '1');
    if (match === null || step < 1) {
      return `the ${name} field '${field.slice(0, 40)}' is not numbers, ranges, steps or lists`;
    }
    const whole = match[1] === '*' || match[1] === '?';
    const start = whole ? min : Number(match[1]);
    // `a/s` runs from a to the field's end, as `a-max/s`.
    const end = match[2] !== undefined ? Number(match[2]) : whole || match[3] ? max : start;
    if (start < min || end > max || start > end) {
      return `the ${name} field '${field.slice(0, 40)}' is outside ${min}-${max}`;
    }
    for (let value = start; value <= end; value += step) values.add(value);
  }
  return [...values].sort((a, b) => a - b);
}

/** The shortest gap between the times of day the fields give, midnight included, in ms. */
function closestInDay(seconds: number[], minutes: number[], hours: number[]): number {
  const times: number[] = [];
  for (const hour of hours) {
    for (const minute of minutes) {
      for (const second of seconds) times.push(hour * 3600 + minute * 60 + second);
    }
  }
  let closest = DAY_SECONDS + times[0]! - times.at(-1)!;
  for (let index = 1; index < times.length; index++) {
    closest = Math.min(closest, times[index]! - times[index - 1]!);
  }
  return closest * 1000;
}

/**
 * One figure of a benchmark. `ratio` is `value / baseline` when the figure has a baseline measured
 * in the same run; `target` says what the figure should meet (`<= 1.10`), when the issue set one:
 * the ratio when there is one, else the value (see targetMet).
 */
export interface BenchRow {
  metric: string;
  value: number;
  unit: string;
  baseline?: number;
  ratio?: number;
  target?: string;
}

/**
 * What every benchmark returns: a title, its figures (one table row each in `npm run bench`, and
 * the JSON record), and notes printed under the table (how it was measured, what dominates).
 */
export interface BenchReport {
  name: string;
  rows: BenchRow[];
  notes?: string[];
}

/** A figure against its baseline: `of` (median, a percentile) of each side's samples, in ms. */
export function msAgainst(
  metric: string,
  samples: number[],
  baselineSamples: number[],
  of: (values: number[]) => number,
  target?: string,
): BenchRow {
  const value = of(samples);
  const baseline = of(baselineSamples);
  return {
    metric,
    value,
    unit: 'ms',
    baseline,
    ratio: value / baseline,
    ...(target === undefined ? {} : { target }),
  };
}

export function median(values: number[]): number {
  return percentile(values, 50);
}

/** Nearest-rank percentile. */
export function percentile(values: number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}

/** Runs `sides` `pairs` times, rotating which goes first, so drift hits every side alike. */
export async function alternate(
  pairs: number,
  sides: Array<() => Promise<unknown>>,
): Promise<void> {
  for (let pair = 0; pair < pairs; pair++) {
    for (let index = 0; index < sides.length; index++) {
      await sides[(pair + index) % sides.length]!();
    }
  }
}

/** A workflow history timestamp (protobuf seconds and nanos) in milliseconds. */
export interface HistoryTime {
  seconds?: number | { toNumber(): number } | null;
  nanos?: number | null;
}

export function eventMs(time: HistoryTime | null | undefined): number {
  const seconds = time?.seconds ?? 0;
  return (
    (typeof seconds === 'number' ? seconds : seconds.toNumber()) * 1000 + (time?.nanos ?? 0) / 1e6
  );
}

/**
 * Whether a row meets its target (`<= 1.10`, `>= 0.8`, `< 10`): the ratio when the row has one,
 * else the value. Undefined when there is no target or it does not parse.
 */
export function targetMet(row: BenchRow): boolean | undefined {
  const match = /^\s*(<=|>=|<|>)\s*(-?[\d.]+)/.exec(row.target ?? '');
  if (!match) return undefined;
  const figure = row.ratio ?? row.value;
  const bound = Number(match[2]);
  switch (match[1]) {
    case '<=':
      return figure <= bound;
    case '>=':
      return figure >= bound;
    case '<':
      return figure < bound;
    default:
      return figure > bound;
  }
}

/**
 * Time bounds set from the machine as it is in this run. A test whose claim is about time (an
 * answer instead of a hang, a loop that stays free, a retry that comes when the policy says)
 * first measures a baseline that the same load slows down as much (the same request against a
 * healthy server, a benign input of the same size, a trivial child-process round trip), and
 * bounds the claim by that, so a busy machine stretches the bound with the measurement instead
 * of failing a test that was right. Speed itself belongs in `npm run bench`.
 */
import { expect } from 'vitest';

export interface BudgetRule {
  /**
   * How many baselines the measured thing may take: the room between the baseline and what a
   * wrong implementation costs (a hang, a retry loop, the cap instead of the first wait).
   */
  factor: number;
  /**
   * The least bound in milliseconds, whatever the baseline: a baseline of a few milliseconds
   * times any factor is within one scheduler hiccup or garbage collection.
   */
  floorMs: number;
  /**
   * A wait the product makes on purpose (a timeout, a backoff), in milliseconds, added to the
   * bound as it is: a timer is not slowed by a loaded machine the way work is. Default 0.
   */
  plusMs?: number;
}

export interface Budget {
  /** What was measured for the baseline, for the failure message. */
  readonly baseline: string;
  /** The slowest of the baseline's samples, in milliseconds. */
  readonly baselineMs: number;
  /** The bound: plusMs + max(floorMs, factor x baselineMs), in milliseconds. */
  readonly boundMs: number;
  /** How the bound was made, with the numbers, for a failure message. */
  readonly formula: string;
  /** Asserts `ms` is within the bound; a failure names the baseline it was compared to. */
  expectWithin(ms: number, what: string): void;
  /** The same budget with a further deliberate wait of `waitMs` milliseconds added. */
  plus(waitMs: number): Budget;
}

/** The budget for a baseline already measured (`baselineMs`, in milliseconds). */
export function budgetFrom(baseline: string, baselineMs: number, rule: BudgetRule): Budget {
  const boundMs = (rule.plusMs ?? 0) + Math.max(rule.floorMs, rule.factor * baselineMs);
  const formula =
    `${Math.round(boundMs)} ms = ${rule.plusMs ?? 0} + max(${rule.floorMs}, ${rule.factor} x ` +
    `${Math.round(baselineMs)} ms measured for ${baseline})`;
  return {
    baseline,
    baselineMs,
    boundMs,
    formula,
    expectWithin(ms, what) {
      expect(ms, `${what}: ${Math.round(ms)} ms against a bound of ${formula}`).toBeLessThanOrEqual(
        boundMs,
      );
    },
    plus(waitMs) {
      return budgetFrom(baseline, baselineMs, { ...rule, plusMs: (rule.plusMs ?? 0) + waitMs });
    },
  };
}

/**
 * Measures `sample` `samples` times (default 3) and sets the budget from the slowest: the bound
 * must hold at the machine's slow moments, not its typical one.
 */
export async function calibrate(
  baseline: string,
  sample: () => unknown,
  rule: BudgetRule,
  samples = 3,
): Promise<Budget> {
  let slowest = 0;
  for (let index = 0; index < samples; index += 1) {
    slowest = Math.max(slowest, (await timed(sample)).ms);
  }
  return budgetFrom(baseline, slowest, rule);
}

/** Runs `work` and says how long it took, in milliseconds. */
export async function timed<T>(work: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const began = performance.now();
  const value = await work();
  return { value, ms: performance.now() - began };
}

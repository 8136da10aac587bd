/**
 * The configured minimum time between two runs of a schedule (`schedules.minInterval`, and
 * `schedules.minIntervalByRole` for a role's own), checked when a schedule is created, through
 * the API and the CLI alike, for every way the timing can say how often: `every`, a cron's
 * fields (seconds included), `@every` and the `@hourly`-style shorthands.
 */
import type { SchedulesConfig } from '../../config/schedules-schema.js';
import { DeputyError } from '../../errors.js';
import type { Caller } from '../../shared/caller.js';
import { formatDuration, parseDuration } from '../../shared/duration.js';
import { cronGap } from './cron-gap.js';
import type { ScheduleTiming } from './types.js';

/** The minimum that applies to a caller, and the setting it comes from. */
export interface MinimumInterval {
  ms: number;
  /** Where it is configured, e.g. `schedules.minIntervalByRole.admin`. */
  setting: string;
}

/** The lowest of the caller's roles' own minimums, else `minInterval`. */
export function minimumIntervalFor(limits: SchedulesConfig, caller: Caller): MinimumInterval {
  let found: MinimumInterval | null = null;
  for (const role of caller.roles) {
    const text = limits.minIntervalByRole[role];
    if (text === undefined) continue;
    const ms = msOf(text);
    if (found === null || ms < found.ms) {
      found = { ms, setting: `schedules.minIntervalByRole.${role}` };
    }
  }
  return found ?? { ms: msOf(limits.minInterval), setting: 'schedules.minInterval' };
}

/**
 * Refuses (`invalid`, naming the minimum and its setting) a timing that can run more often than
 * the caller's minimum, or a cron whose time fields cannot be read to tell. Anything else wrong
 * with the timing is left to the spec's own checks (timing.ts) and to Temporal.
 */
export function assertScheduleInterval(
  timing: ScheduleTiming,
  limits: SchedulesConfig,
  caller: Caller,
): void {
  const minimum = minimumIntervalFor(limits, caller);
  if (timing.every !== undefined) {
    const parsed = parseDuration(timing.every);
    if (parsed.ok && parsed.ms < minimum.ms) {
      throw tooOften('every', `every ${timing.every.trim()}`, minimum);
    }
  }
  if (timing.cron !== undefined) {
    const gap = cronGap(timing.cron);
    if (gap.kind === 'unreadable') {
      const message = `cron: ${gap.problem}, so how often it runs cannot be checked against the minimum interval`;
      throw new DeputyError('invalid', message, { issues: [{ path: 'cron', message }] });
    }
    if (gap.kind === 'gap' && gap.ms < minimum.ms) {
      const closest = gap.ms < 1 ? 'less than 1ms' : formatDuration(Math.floor(gap.ms));
      throw tooOften('cron', `cron "${timing.cron.trim()}" runs ${closest} apart`, minimum);
    }
  }
}

function tooOften(path: string, what: string, minimum: MinimumInterval): DeputyError {
  const message =
    `${what}: more often than the minimum interval between runs, ${formatDuration(minimum.ms)} ` +
    `(set by ${minimum.setting} in .subagents/config.yaml)`;
  return new DeputyError('invalid', message, { issues: [{ path, message }] });
}

/** A configured duration, already validated by the configuration's schema. */
function msOf(text: string): number {
  const parsed = parseDuration(text);
  return parsed.ok ? parsed.ms : 0;
}

/**
 * When a schedule runs, checked before Temporal is asked: a cron expression or an interval
 * (never both, never neither) and a time zone the runtime knows. Temporal checks the cron
 * expression itself; its refusal is turned into a clear `invalid` by the facade.
 */
import type { ScheduleSpec } from '@temporalio/client';
import { DeputyError } from '../../errors.js';
import { parseDuration } from '../../shared/duration.js';
import type { ScheduleTiming } from './types.js';

const MAX_CRON_CHARS = 200;
/** A run a second: anything tighter is a loop, not a schedule. */
const MIN_INTERVAL_MS = 1_000;

/** The Temporal spec for `timing`; `invalid` naming the field for the first thing wrong. */
export function scheduleSpecOf(timing: ScheduleTiming): ScheduleSpec {
  const timezone = timing.timezone ?? 'UTC';
  assertKnownTimeZone(timezone);
  if ((timing.cron === undefined) === (timing.every === undefined)) {
    throw invalid('cron', 'give exactly one of cron (e.g. "0 9 * * 1-5") and every (e.g. 1h)');
  }
  if (timing.cron !== undefined) {
    const cron = timing.cron.trim();
    if (cron === '' || cron.length > MAX_CRON_CHARS || /[\r\n]/.test(cron)) {
      throw invalid('cron', `cron must be one line of at most ${MAX_CRON_CHARS} characters`);
    }
    return { cronExpressions: [cron], timezone };
  }
  const parsed = parseDuration(timing.every ?? '');
  if (!parsed.ok) throw invalid('every', `every: ${parsed.problem}`);
  if (parsed.ms < MIN_INTERVAL_MS) throw invalid('every', 'every must be at least 1s');
  return { intervals: [{ every: parsed.ms }], timezone };
}

function assertKnownTimeZone(timezone: string): void {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
  } catch {
    throw invalid(
      'timezone',
      `unknown time zone '${timezone.slice(0, 80)}' (use an IANA name, e.g. Europe/Paris)`,
    );
  }
}

function invalid(path: string, message: string): DeputyError {
  return new DeputyError('invalid', message, { issues: [{ path, message }] });
}

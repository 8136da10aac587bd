/**
 * A schedule's create request from what a caller asked (the API's body, the CLI's options): the
 * same request a delegation start builds (masked task, session, options), since each run is an
 * ordinary delegation, plus when it runs and what a run due during another does. How often it
 * may run is the configuration's to say (min-interval.ts), per the caller's roles.
 */
import type { SchedulesConfig } from '../../config/schedules-schema.js';
import type { SecretMasker } from '../../secrets/masker.js';
import { delegationStart, type DelegationAsk } from '../start-requests.js';
import { assertScheduleInterval } from './min-interval.js';
import type { CreateScheduleRequest, OverlapPolicy, ScheduleTiming } from './types.js';

export function scheduleCreation(
  name: string,
  ask: DelegationAsk & ScheduleTiming & { overlap?: OverlapPolicy | undefined },
  masker: SecretMasker,
  /** The configuration's `schedules`: how often the caller's schedules may run. */
  limits: SchedulesConfig,
): CreateScheduleRequest {
  // Before anything is built: a schedule that would run too often is refused whole.
  assertScheduleInterval(ask, limits, ask.caller);
  const { request } = delegationStart(ask, { masker, agentRunsInBackground: () => false });
  return {
    name,
    agent: request.agent,
    task: request.task,
    session: request.session,
    caller: request.caller,
    options: request.options,
    ...(ask.cron === undefined ? {} : { cron: ask.cron }),
    ...(ask.every === undefined ? {} : { every: ask.every }),
    ...(ask.timezone === undefined ? {} : { timezone: ask.timezone }),
    ...(ask.overlap === undefined ? {} : { overlap: ask.overlap }),
  };
}

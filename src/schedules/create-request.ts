/**
 * A schedule's create request from what a caller asked (the API's body, the CLI's options): the
 * same request a delegation start builds (masked task, session, options), since each run is an
 * ordinary delegation, plus when it runs and what a run due during another does.
 */
import type { SecretMasker } from '../secrets/masker.js';
import { delegationStart, type DelegationAsk } from '../temporal/start-requests.js';
import type { CreateScheduleRequest, OverlapPolicy, ScheduleTiming } from './types.js';

export function scheduleCreation(
  name: string,
  ask: DelegationAsk & ScheduleTiming & { overlap?: OverlapPolicy | undefined },
  masker: SecretMasker,
): CreateScheduleRequest {
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

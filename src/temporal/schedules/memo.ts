/**
 * What a schedule remembers about itself in its memo, read back by list and show without
 * decoding the action: Temporal's listing carries the memo but not the action's input, and its
 * description gives a cron back as calendars, not as it was written.
 */
import { firstLine } from '../../shared/delegation.js';
import type { CreateScheduleRequest, ScheduleDetail } from './types.js';

/** The fields of a schedule's detail that its creation settles once and for all. */
export type ScheduleMemo = Pick<
  ScheduleDetail,
  | 'agent'
  | 'task'
  | 'session'
  | 'cron'
  | 'every'
  | 'timezone'
  | 'overlap'
  | 'createdBy'
  | 'unattended'
  | 'cardTimeout'
  | 'maxTokens'
>;

export function memoOf(request: CreateScheduleRequest, session: string): ScheduleMemo {
  return {
    agent: request.agent,
    task: firstLine(request.task),
    session,
    cron: request.cron?.trim() ?? null,
    every: request.every?.trim() ?? null,
    timezone: request.timezone ?? 'UTC',
    overlap: request.overlap ?? 'skip',
    createdBy: request.caller.id,
    unattended: request.options.unattended !== undefined,
    cardTimeout: request.options.cardTimeout ?? null,
    maxTokens: request.options.maxTokens ?? null,
  };
}

/** The memo as read back; fields a hand-edited schedule lacks come back empty. */
export function readMemo(memo: Record<string, unknown> | undefined): ScheduleMemo {
  const text = (key: string) => (typeof memo?.[key] === 'string' ? (memo[key] as string) : null);
  const overlap = text('overlap');
  const maxTokens = memo?.maxTokens;
  return {
    agent: text('agent') ?? '',
    task: text('task') ?? '',
    session: text('session') ?? 'default',
    cron: text('cron'),
    every: text('every'),
    timezone: text('timezone') ?? 'UTC',
    overlap: overlap === 'buffer-one' || overlap === 'allow-all' ? overlap : 'skip',
    createdBy: text('createdBy'),
    unattended: memo?.unattended === true,
    cardTimeout: text('cardTimeout'),
    maxTokens: typeof maxTokens === 'number' ? maxTokens : null,
  };
}

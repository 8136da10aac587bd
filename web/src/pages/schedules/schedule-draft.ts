/**
 * What the schedule form holds while it is typed, and the create request it becomes: text as
 * typed, trimmed and left out when empty on the way to the API.
 */
import type { CreateScheduleRequest, OverlapPolicy } from '../../api/schedules';

export type When = 'cron' | 'every';

export interface ScheduleDraft {
  name: string;
  /** '' until one is chosen: the form shows (and sends) the first agent then. */
  agent: string;
  task: string;
  when: When;
  cron: string;
  every: string;
  timezone: string;
  overlap: OverlapPolicy;
  unattended: boolean;
  cardTimeout: string;
  maxTokens: string;
}

export const EMPTY_DRAFT: ScheduleDraft = {
  name: '',
  agent: '',
  task: '',
  when: 'cron',
  cron: '',
  every: '',
  timezone: '',
  overlap: 'skip',
  unattended: false,
  cardTimeout: '',
  maxTokens: '',
};

/** The create request for a draft, with `agent` the one the form shows as chosen. */
export function scheduleRequest(draft: ScheduleDraft, agent: string): CreateScheduleRequest {
  const { when, cron, every, timezone, overlap, unattended, cardTimeout, maxTokens } = draft;
  return {
    name: draft.name.trim(),
    agent,
    task: draft.task,
    ...(when === 'cron' ? { cron: cron.trim() } : { every: every.trim() }),
    ...(timezone.trim() === '' ? {} : { timezone: timezone.trim() }),
    overlap,
    ...(unattended ? { unattended: true } : {}),
    ...(cardTimeout.trim() === '' ? {} : { cardTimeout: cardTimeout.trim() }),
    // Sent as typed, so the API's own check answers a bad number.
    ...(maxTokens.trim() === '' ? {} : { maxTokens: Number(maxTokens) }),
  };
}

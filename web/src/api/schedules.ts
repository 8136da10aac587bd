/**
 * Typed calls for schedules (src/api/schedules/routes.ts): list, read, create, pause,
 * resume, trigger and delete. Shapes are the server's own (type-only imports).
 */
import type {
  CreateScheduleRequest,
  ScheduleDeleted,
  ScheduleDetail,
  ScheduleSummary,
  ScheduleTriggered,
} from '../../../src/api/contract.js';
import { ApiError, api, seg } from './client';

export type { CreateScheduleRequest, ScheduleDetail, ScheduleSummary };
export type OverlapPolicy = ScheduleDetail['overlap'];
export const OVERLAP_POLICIES: readonly OverlapPolicy[] = ['skip', 'buffer-one', 'allow-all'];

export async function listScheduleSummaries(signal?: AbortSignal): Promise<ScheduleSummary[]> {
  const body = await api<{ schedules: ScheduleSummary[] }>('GET', '/schedules', undefined, signal);
  return body.schedules;
}

export function getSchedule(name: string, signal?: AbortSignal): Promise<ScheduleDetail> {
  return api<ScheduleDetail>('GET', `/schedules/${seg(name)}`, undefined, signal);
}

/**
 * Every schedule with its details (overlap, recent runs): the listing names them, one read each
 * adds the rest. One deleted between the two reads (404) is left out rather than failing all.
 */
export async function listSchedules(signal?: AbortSignal): Promise<ScheduleDetail[]> {
  const summaries = await listScheduleSummaries(signal);
  const details = await Promise.all(
    summaries.map((summary) =>
      getSchedule(summary.name, signal).catch((error: unknown) => {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }),
    ),
  );
  return details.filter((detail): detail is ScheduleDetail => detail !== null);
}

export function createSchedule(body: CreateScheduleRequest): Promise<ScheduleDetail> {
  return api<ScheduleDetail>('POST', '/schedules', body);
}

export function pauseSchedule(name: string): Promise<ScheduleDetail> {
  return api<ScheduleDetail>('POST', `/schedules/${seg(name)}/pause`, {});
}

export function resumeSchedule(name: string): Promise<ScheduleDetail> {
  return api<ScheduleDetail>('POST', `/schedules/${seg(name)}/resume`);
}

/** A run now, under the schedule's overlap policy (202); the run shows in a moment. */
export function triggerSchedule(name: string): Promise<ScheduleTriggered> {
  return api<ScheduleTriggered>('POST', `/schedules/${seg(name)}/trigger`);
}

export function deleteSchedule(name: string): Promise<ScheduleDeleted> {
  return api<ScheduleDeleted>('DELETE', `/schedules/${seg(name)}`);
}

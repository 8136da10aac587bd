/** The typed client's schedules: one method per route of src/api/schedules. */
import type {
  CreateScheduleRequest,
  ScheduleDeleted,
  ScheduleDetail,
  ScheduleSummary,
  ScheduleTriggered,
} from '../api/contract.js';
import type { HttpTransport } from './http-transport.js';

export interface ScheduleMethods {
  /** Exactly one of `cron` and `every`; runs run as the caller. */
  create(request: CreateScheduleRequest): Promise<ScheduleDetail>;
  list(): Promise<ScheduleSummary[]>;
  /** Timing, next runs, and recent runs with their delegation ids and statuses. */
  get(name: string): Promise<ScheduleDetail>;
  pause(name: string, note?: string): Promise<ScheduleDetail>;
  resume(name: string): Promise<ScheduleDetail>;
  /** Runs it now under its overlap policy (with `skip`, nothing starts while a run is going). */
  trigger(name: string): Promise<ScheduleTriggered>;
  delete(name: string): Promise<ScheduleDeleted>;
}

export function scheduleMethods(http: HttpTransport): ScheduleMethods {
  const call = async <T>(method: string, path: string, body?: unknown) =>
    (await http.json<T>(method, path, body)).body;
  const at = (name: string) => `/schedules/${encodeURIComponent(name)}`;
  return {
    create: (request) => call('POST', '/schedules', request),
    list: async () => (await call<{ schedules: ScheduleSummary[] }>('GET', '/schedules')).schedules,
    get: (name) => call('GET', at(name)),
    pause: (name, note) => call('POST', `${at(name)}/pause`, note === undefined ? {} : { note }),
    resume: (name) => call('POST', `${at(name)}/resume`),
    trigger: (name) => call('POST', `${at(name)}/trigger`),
    delete: (name) => call('DELETE', at(name)),
  };
}

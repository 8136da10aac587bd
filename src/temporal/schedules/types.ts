/**
 * Schedules: recurring delegations on Temporal Schedules. Each run is an ordinary
 * delegation of deputy's `delegation` workflow, started with the input and start options a
 * normal start uses, plus the `DeputySchedule` search attribute naming its schedule.
 */
import type { Caller } from '../../shared/caller.js';
import type { DelegationOptions, DelegationStatus } from '../../shared/delegation.js';

/**
 * What a run does while the previous one still runs (or is parked on a card): `skip` it (the
 * default), keep one `buffer-one` to start when the previous finishes, or `allow-all` at once.
 */
export const OVERLAP_POLICIES = ['skip', 'buffer-one', 'allow-all'] as const;
export type OverlapPolicy = (typeof OVERLAP_POLICIES)[number];
export const DEFAULT_OVERLAP: OverlapPolicy = 'skip';

/**
 * How late a run may still start after the server was down when it was due. One minute: a run
 * missed during a longer outage is skipped, never replayed once per missed time.
 */
export const CATCHUP_WINDOW_MS = 60_000;

/** When a schedule runs: a cron expression or a fixed interval, never both. */
export interface ScheduleTiming {
  /** Five-field cron, `0 9 * * 1-5`. */
  cron?: string;
  /** An interval as durations are written (`1h`, `30m`). */
  every?: string;
  /** IANA time zone the cron is read in; default UTC. */
  timezone?: string;
}

export interface CreateScheduleRequest extends ScheduleTiming {
  name: string;
  agent: string;
  /** Already masked (start-requests.ts): it lands in the schedule's action. */
  task: string;
  /** Who created it: each run runs as this caller. */
  caller: Caller;
  /** unattended, cardTimeout, maxTokens: every run gets them. */
  options: DelegationOptions;
  /** The session the runs' cards go to; default `default`. */
  session?: string;
  overlap?: OverlapPolicy;
}

export interface ScheduleSummary {
  name: string;
  agent: string;
  /** The task's first line. */
  task: string;
  session: string;
  cron: string | null;
  every: string | null;
  timezone: string;
  paused: boolean;
  /** The user who created it (runs run as them); null without auth. */
  createdBy: string | null;
  nextRunAt: string | null;
}

export interface ScheduleRun {
  delegationId: string;
  workflowId: string;
  status: DelegationStatus;
  startedAt: string;
}

export interface ScheduleDetail extends ScheduleSummary {
  overlap: OverlapPolicy;
  catchupWindowMs: number;
  unattended: boolean;
  cardTimeout: string | null;
  maxTokens: number | null;
  /** The next few times it runs (none while paused). */
  nextRuns: string[];
  /** Its latest runs, newest first, with their delegation ids and statuses. */
  recentRuns: ScheduleRun[];
  createdAt: string;
}

export interface TriggerOutcome {
  name: string;
  /** `skip`: a run still going means this one is skipped, as a scheduled one would be. */
  overlap: OverlapPolicy;
}

export interface Schedules {
  create(request: CreateScheduleRequest): Promise<ScheduleDetail>;
  list(): Promise<ScheduleSummary[]>;
  get(name: string): Promise<ScheduleDetail>;
  pause(name: string, note?: string): Promise<ScheduleDetail>;
  resume(name: string): Promise<ScheduleDetail>;
  /** Runs it now, under its overlap policy. */
  trigger(name: string): Promise<TriggerOutcome>;
  delete(name: string): Promise<{ name: string; deleted: true }>;
  /** The user who created it, for the rights of pause, resume, trigger and delete. */
  owner(name: string): Promise<string | null>;
}

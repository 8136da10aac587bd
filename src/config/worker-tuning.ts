/**
 * The `worker:` section of `.subagents/config.yaml`: how much one worker process holds and runs
 * at once, and how long its running tools get on SIGTERM. Each key has an environment override
 * `DEPUTY_WORKER_<UPPER_SNAKE>` (`DEPUTY_WORKER_MAX_CACHED_WORKFLOWS=500`), which wins over the
 * file. Read once when the worker starts: a change needs a restart of the worker.
 *
 * The defaults come from bench/capacity.ts (figures in docs/operations.md, "Worker tuning and
 * capacity"). This module imports nothing of src/config/config.ts, which builds its schema from this
 * one (no import cycle).
 */
import type { WorkerOptions } from '@temporalio/worker';
import { z } from 'zod';

export const WORKER_TUNING_DEFAULTS = {
  /**
   * Workflows kept in memory between tasks (sticky cache). Measured (bench/capacity.ts, one
   * worker process, 10 000 delegations parked on cards): RSS rises about 0.35 MiB per cached
   * delegation until the cache is full, then about 17 KiB per parked delegation out of it: 286
   * MiB idle, 640 MiB at 1 000 parked, 786 MiB at 10 000. Temporal's own default grows with the
   * heap limit (about 2 300 on a 4 GiB heap), which by the same slopes would put such a worker
   * near 1.2 GiB, and made its size depend on the machine. 1 000 keeps it well under 1 GiB; a
   * delegation out of the cache replays its short history (about 6.5 KB) when it resumes.
   */
  maxCachedWorkflows: 1000,
  /**
   * Workflow tasks run at once. Temporal's 40: a delegation's workflow task is short (the model
   * and tools are activities), so more only queues on the one workflow thread.
   */
  maxConcurrentWorkflowTaskExecutions: 40,
  /**
   * Threads running workflow code: Temporal's 1 (with its reused V8 context). On 2 cores, 2
   * measured slower (bench/step-latency.ts: 15.3 ms a step against 11.6, and 5.5 ms of wall per
   * step 50 at once against 4.6): the server, the activities and a second workflow thread then
   * contend for the same cores. More threads pay where cores are free; each holds its own copy of
   * the workflow bundle.
   */
  workflowThreadPoolSize: 1,
  /** Activities (model turns, tools) run at once: Temporal's 100; mostly waiting on I/O. */
  maxConcurrentActivityTaskExecutions: 100,
  /** Reads run as local activities (at most 3 s each); Temporal's 100 was not the limit measured. */
  maxConcurrentLocalActivityExecutions: 100,
  /**
   * How long a task waits on this worker's sticky queue before Temporal gives it to any worker
   * (which replays). Temporal's 10 s. It is most of what a SIGKILLed worker costs: its cached
   * delegations wait this long before the restarted one takes them (bench/capacity.ts: 100 resumed
   * in 2.59x the warm time with 10 s, 1.86x with 3 s in one smaller run; a replay alone cost
   * 1.35x). Kept at 10 s until more runs confirm 3 s; lower it where restarts matter.
   */
  stickyQueueScheduleToStartTimeoutSeconds: 10,
  /**
   * On SIGTERM, running tools get this long to finish before they are cancelled. Temporal's
   * default is 0 (cancelled at once); 30 s lets a `bash` or an MCP call in flight end normally
   * during a rolling restart, within Kubernetes' default 30 s termination grace.
   */
  shutdownGraceSeconds: 30,
} as const;

export const WorkerTuningSchema = z
  .object({
    maxCachedWorkflows: z
      .number()
      .int()
      .min(0)
      .refine((value) => value !== 1, 'must be 0 (no cache) or at least 2')
      .default(WORKER_TUNING_DEFAULTS.maxCachedWorkflows),
    maxConcurrentWorkflowTaskExecutions: z
      .number()
      .int()
      .min(2)
      .default(WORKER_TUNING_DEFAULTS.maxConcurrentWorkflowTaskExecutions),
    workflowThreadPoolSize: z
      .number()
      .int()
      .min(1)
      .max(64)
      .default(WORKER_TUNING_DEFAULTS.workflowThreadPoolSize),
    maxConcurrentActivityTaskExecutions: z
      .number()
      .int()
      .min(1)
      .default(WORKER_TUNING_DEFAULTS.maxConcurrentActivityTaskExecutions),
    maxConcurrentLocalActivityExecutions: z
      .number()
      .int()
      .min(1)
      .default(WORKER_TUNING_DEFAULTS.maxConcurrentLocalActivityExecutions),
    stickyQueueScheduleToStartTimeoutSeconds: z
      .number()
      .positive()
      .default(WORKER_TUNING_DEFAULTS.stickyQueueScheduleToStartTimeoutSeconds),
    shutdownGraceSeconds: z.number().min(0).default(WORKER_TUNING_DEFAULTS.shutdownGraceSeconds),
  })
  .strict();
export type WorkerTuning = z.infer<typeof WorkerTuningSchema>;
export type WorkerTuningKey = keyof WorkerTuning;

export const WORKER_TUNING_KEYS = Object.keys(WORKER_TUNING_DEFAULTS) as WorkerTuningKey[];

/** `maxCachedWorkflows` -> `DEPUTY_WORKER_MAX_CACHED_WORKFLOWS`. */
export function workerEnvName(key: WorkerTuningKey): string {
  return `DEPUTY_WORKER_${key.replace(/[A-Z]/g, (letter) => `_${letter}`).toUpperCase()}`;
}

export interface WorkerEnvOverrides {
  values: Partial<WorkerTuning>;
  /** One line per bad variable, naming it and the key; never its value. */
  problems: string[];
}

/** The `DEPUTY_WORKER_*` variables set (blank ones are unset), each validated like the file's key. */
export function workerEnvOverrides(env: NodeJS.ProcessEnv): WorkerEnvOverrides {
  const values: Partial<Record<WorkerTuningKey, number>> = {};
  const problems: string[] = [];
  for (const key of WORKER_TUNING_KEYS) {
    const name = workerEnvName(key);
    const text = env[name]?.trim();
    if (text === undefined || text === '') continue;
    // Number('') and Number(' ') are 0: blank was skipped above, so this is the written number.
    const parsed = WorkerTuningSchema.shape[key].safeParse(Number(text));
    if (parsed.success && Number.isFinite(parsed.data)) values[key] = parsed.data;
    else problems.push(`${name} (worker.${key}): ${reason(parsed)}`);
  }
  return { values, problems };
}

function reason(parsed: { success: boolean; error?: z.ZodError }): string {
  return parsed.error?.issues[0]?.message ?? 'not a number';
}

/**
 * Problems no single key shows: Temporal would quietly lower the workflow task slots to the
 * cache size, so a configuration that asks for more is said instead.
 */
export function workerTuningProblems(tuning: WorkerTuning): string[] {
  if (
    tuning.maxCachedWorkflows > 0 &&
    tuning.maxConcurrentWorkflowTaskExecutions > tuning.maxCachedWorkflows
  ) {
    return [
      `worker.maxConcurrentWorkflowTaskExecutions (${tuning.maxConcurrentWorkflowTaskExecutions}) may not exceed worker.maxCachedWorkflows (${tuning.maxCachedWorkflows}) unless the cache is off (0)`,
    ];
  }
  return [];
}

export type WorkerTuningOptions = Required<
  Pick<
    WorkerOptions,
    | 'maxCachedWorkflows'
    | 'maxConcurrentWorkflowTaskExecutions'
    | 'workflowThreadPoolSize'
    | 'maxConcurrentActivityTaskExecutions'
    | 'maxConcurrentLocalActivityExecutions'
    | 'stickyQueueScheduleToStartTimeout'
    | 'shutdownGraceTime'
  >
>;

/** The tuning as `Worker.create` options (durations in milliseconds). */
export function workerTuningOptions(tuning: WorkerTuning): WorkerTuningOptions {
  return {
    maxCachedWorkflows: tuning.maxCachedWorkflows,
    maxConcurrentWorkflowTaskExecutions: tuning.maxConcurrentWorkflowTaskExecutions,
    workflowThreadPoolSize: tuning.workflowThreadPoolSize,
    maxConcurrentActivityTaskExecutions: tuning.maxConcurrentActivityTaskExecutions,
    maxConcurrentLocalActivityExecutions: tuning.maxConcurrentLocalActivityExecutions,
    stickyQueueScheduleToStartTimeout: Math.round(
      tuning.stickyQueueScheduleToStartTimeoutSeconds * 1000,
    ),
    shutdownGraceTime: Math.round(tuning.shutdownGraceSeconds * 1000),
  };
}

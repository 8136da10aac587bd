/**
 * `schedules:` in `.subagents/config.yaml`: how often a schedule may run. A schedule's runs are
 * full delegations (a model call or more each, as its creator), so any caller who may start one
 * could otherwise have the server start one a second, forever. The check is
 * src/temporal/schedules/min-interval.ts.
 */
import { z } from 'zod';
import { DurationSchema } from './duration.js';

/** The minimum when the file says nothing: a run a minute, as `* * * * *` fires. */
export const DEFAULT_SCHEDULE_MIN_INTERVAL = '1m';

export const SchedulesConfigSchema = z
  .object({
    /**
     * The shortest time allowed between two runs of one schedule, for every caller (the CLI
     * and a server without auth included). Default `1m`.
     */
    minInterval: DurationSchema.default(DEFAULT_SCHEDULE_MIN_INTERVAL),
    /**
     * A role's own minimum, lower or higher (`admin: 10s`): a caller holding some of these roles
     * gets the lowest of theirs instead of `minInterval`. Default none.
     */
    minIntervalByRole: z.record(z.string().min(1), DurationSchema).default({}),
  })
  .strict();
export type SchedulesConfig = z.infer<typeof SchedulesConfigSchema>;

/**
 * Schedules' requests and answers, as zod schemas: the same schemas validate requests
 * and feed the OpenAPI document. They follow the facade's contract (src/temporal/schedules/types.ts).
 */
import { z } from 'zod';
import { DurationSchema } from '../../config/duration.js';
import { SCHEDULE_NAME_PATTERN } from '../../temporal/schedules/names.js';
import { OVERLAP_POLICIES } from '../../temporal/schedules/types.js';
import {
  AgentNameSchema,
  Count,
  DelegationStatusSchema,
  IdSchema,
  MAX_TASK_BYTES,
  Timestamp,
  utf8Text,
} from '../http/fields.js';
import { component } from '../openapi/parts.js';

export const ScheduleNameSchema = z
  .string()
  .regex(
    SCHEDULE_NAME_PATTERN,
    "1-40 letters, digits, '_' or '-', starting with a letter or digit",
  );

const OverlapSchema = z
  .enum(OVERLAP_POLICIES)
  .describe(
    'what a run does while the previous one still runs or is parked: `skip` (default), `buffer-one` (start once the previous finishes), `allow-all`',
  );

export const CreateScheduleBodySchema = z
  .object({
    name: ScheduleNameSchema,
    agent: AgentNameSchema,
    task: utf8Text('task', MAX_TASK_BYTES).trim().min(1, 'the task is empty'),
    cron: z
      .string()
      .min(1)
      .max(200)
      .optional()
      .describe('five-field cron, read in `timezone` (e.g. `0 9 * * 1-5`); exclusive with `every`'),
    every: DurationSchema.optional().describe(
      'a fixed interval (`1h`, `30m`); exclusive with `cron`',
    ),
    timezone: z.string().min(1).max(100).optional().describe('IANA time zone; default UTC'),
    session: IdSchema.optional().describe("the session the runs' cards go to; default `default`"),
    unattended: z.boolean().optional().describe('no human will answer: every `ask` becomes `deny`'),
    cardTimeout: DurationSchema.optional().describe("how long each run's approval cards wait"),
    maxTokens: z.number().int().positive().optional().describe('token budget of each run'),
    overlap: OverlapSchema.optional(),
  })
  .strict();

export const PauseScheduleBodySchema = z
  .object({ note: z.string().max(500).optional().describe('why, shown in the Temporal UI') })
  .strict();

const scheduleFields = {
  name: z.string(),
  agent: z.string(),
  task: z.string().describe("the task's first line"),
  session: z.string(),
  cron: z.string().nullable(),
  every: z.string().nullable(),
  timezone: z.string(),
  paused: z.boolean(),
  createdBy: z.string().nullable().describe('who created it; its runs run as them'),
  nextRunAt: Timestamp.nullable(),
};

export const ScheduleSummarySchema = component('ScheduleSummary', z.object(scheduleFields));

export const ScheduleListSchema = component(
  'ScheduleList',
  z.object({ schedules: z.array(ScheduleSummarySchema) }),
);

export const ScheduleDetailSchema = component(
  'ScheduleDetail',
  z.object({
    ...scheduleFields,
    overlap: z.enum(OVERLAP_POLICIES),
    catchupWindowMs: Count,
    unattended: z.boolean(),
    cardTimeout: z.string().nullable(),
    maxTokens: z.number().int().nullable(),
    nextRuns: z.array(Timestamp),
    recentRuns: z.array(
      z.object({
        delegationId: z.string(),
        workflowId: z.string(),
        status: DelegationStatusSchema,
        startedAt: Timestamp,
      }),
    ),
    createdAt: Timestamp,
  }),
);

export const ScheduleTriggeredSchema = component(
  'ScheduleTriggered',
  z.object({ name: z.string(), overlap: z.enum(OVERLAP_POLICIES) }),
);

export const ScheduleDeletedSchema = component(
  'ScheduleDeleted',
  z.object({ name: z.string(), deleted: z.literal(true) }),
);

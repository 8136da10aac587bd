/** The OpenAPI path items of the schedule routes (routes.ts), merged by api/openapi/document.ts. */
import { SCHEDULE_NAME_PATTERN } from '../../temporal/schedules/names.js';
import { z } from 'zod';
import { bodyErrors, commonErrors, errorAnswer } from '../openapi/answers.js';
import { jsonResponse, pathParameter, requestBody, type PathItems } from '../openapi/parts.js';
import {
  CreateScheduleBodySchema,
  PauseScheduleBodySchema,
  ScheduleDeletedSchema,
  ScheduleDetailSchema,
  ScheduleListSchema,
  ScheduleTriggeredSchema,
} from './schemas.js';

const nameParameter = pathParameter(
  'name',
  z.string().regex(SCHEDULE_NAME_PATTERN),
  'Schedule name',
);
const unknownSchedule = errorAnswer('Unknown schedule');
const creatorOrAdmin =
  'With auth: only the user who created the schedule or an `admin` (else 403).';

export const schedulePaths: PathItems = {
  '/schedules': {
    post: {
      summary: 'Create a schedule: a delegation that recurs on a cron or an interval',
      description:
        'A Temporal Schedule (id `deputy/<name>`) whose runs are ordinary delegations of `agent` ' +
        'with `task`, run as the caller, carrying the `DeputySchedule` search attribute; a ' +
        "run's delegation id is `<name>-<run time, UTC>` (`nightly-20261202T090000Z`). Exactly one " +
        'of `cron` and `every`. Overlap default `skip`: a run due while the previous one still ' +
        'runs or is parked is skipped. A run missed by more than one minute (server down) is ' +
        'skipped, not replayed. A cron Temporal cannot read is a 422 quoting its reason.',
      requestBody: requestBody(CreateScheduleBodySchema),
      responses: {
        '201': jsonResponse(ScheduleDetailSchema, 'Created'),
        '404': errorAnswer('Unknown agent'),
        '409': errorAnswer('A schedule with this name exists'),
        ...commonErrors,
        ...bodyErrors,
      },
    },
    get: {
      summary: "List deputy's schedules, by name",
      responses: { '200': jsonResponse(ScheduleListSchema, 'Schedules'), ...commonErrors },
    },
  },
  '/schedules/{name}': {
    get: {
      summary: 'A schedule: its timing, next runs, recent runs (delegation ids and statuses)',
      parameters: [nameParameter],
      responses: {
        '200': jsonResponse(ScheduleDetailSchema, 'The schedule'),
        '404': unknownSchedule,
        ...commonErrors,
      },
    },
    delete: {
      summary: 'Delete a schedule; runs already started go on',
      description: creatorOrAdmin,
      parameters: [nameParameter],
      responses: {
        '200': jsonResponse(ScheduleDeletedSchema, 'Deleted'),
        '404': unknownSchedule,
        ...commonErrors,
      },
    },
  },
  '/schedules/{name}/pause': {
    post: {
      summary: 'Pause a schedule: no run starts until it is resumed',
      description: creatorOrAdmin,
      parameters: [nameParameter],
      requestBody: requestBody(PauseScheduleBodySchema),
      responses: {
        '200': jsonResponse(ScheduleDetailSchema, 'Paused'),
        '404': unknownSchedule,
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
  '/schedules/{name}/resume': {
    post: {
      summary: 'Resume a paused schedule',
      description: creatorOrAdmin,
      parameters: [nameParameter],
      responses: {
        '200': jsonResponse(ScheduleDetailSchema, 'Resumed'),
        '404': unknownSchedule,
        ...commonErrors,
      },
    },
  },
  '/schedules/{name}/trigger': {
    post: {
      summary: 'Run a schedule now, under its overlap policy',
      description:
        'With `skip` (the default) nothing starts while a run still runs or is parked. ' +
        creatorOrAdmin,
      parameters: [nameParameter],
      responses: {
        '202': jsonResponse(
          ScheduleTriggeredSchema,
          'Asked; the run shows in GET /schedules/{name}',
        ),
        '404': unknownSchedule,
        ...commonErrors,
      },
    },
  },
};

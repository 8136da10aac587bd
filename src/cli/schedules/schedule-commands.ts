/**
 * `deputy schedule create|list|show|pause|resume|trigger|delete`: recurring
 * delegations on Temporal Schedules. Like `delegate`, the commands talk to Temporal directly;
 * a schedule's runs are ordinary delegations (`deputy list --schedule <name>`, `deputy status`).
 */
import { Option, type Command } from 'commander';
import { DeputyError } from '../../errors.js';
import { secretMaskerFor } from '../../secrets/masker.js';
import { ANONYMOUS_CALLER } from '../../shared/caller.js';
import {
  OVERLAP_POLICIES,
  type OverlapPolicy,
  type Schedules,
} from '../../temporal/schedules/types.js';
import { scheduleCreation } from '../../temporal/schedules/create-request.js';
import { loadRegistry } from '../agents-commands.js';
import { withSchedules } from '../context.js';
import type { Run } from '../exit-codes.js';
import { answer } from '../answer.js';
import { parsePositiveInteger } from '../option-parsers.js';
import { scheduleLines, scheduleTable } from './schedule-lines.js';

interface CreateOptions {
  agent: string;
  task: string;
  cron?: string;
  every?: string;
  timezone?: string;
  session?: string;
  unattended?: boolean;
  cardTimeout?: string;
  maxTokens?: number;
  overlap?: OverlapPolicy;
  json?: boolean;
}

// eslint-disable-next-line max-lines-per-function -- a register* table: one entry per command, each short.
export function registerScheduleCommands(
  program: Command,
  run: (command: Command, body: Run) => Promise<void>,
): void {
  const schedule = program
    .command('schedule')
    .description('recurring delegations on Temporal Schedules; each run is an ordinary delegation');

  schedule
    .command('create')
    .description('create a schedule: --cron or --every, not both')
    .argument('<name>', "the schedule's name (letters, digits, '_', '-'; at most 40)")
    .requiredOption('--agent <agent>', 'agent each run delegates to')
    .requiredOption('--task <task>', 'what the agent should do on each run')
    .option('--cron <expression>', 'five-field cron, e.g. "0 9 * * 1-5"')
    .option('--every <duration>', 'a fixed interval, e.g. 1h, 30m')
    .option('--timezone <zone>', 'IANA time zone the cron is read in (default UTC)')
    .option('--session <session>', "session the runs' approval cards go to (default: default)")
    .option('--unattended', 'no human will answer: every approval becomes a denial')
    .option('--card-timeout <duration>', "how long each run's approval cards wait (30m, 2h)")
    .option('--max-tokens <count>', 'token budget of each run', parsePositiveInteger)
    .addOption(
      new Option('--overlap <policy>', 'a run due while the previous one still runs or is parked')
        .choices(OVERLAP_POLICIES)
        .default('skip'),
    )
    .option('--json', 'machine-readable output')
    .action(async (name: string, options: CreateOptions, command: Command) =>
      run(command, (io) =>
        withSchedules(command, async (schedules, config) => {
          const registry = await loadRegistry(command);
          // As the API's start: an unknown agent is refused now, not in each run's first step.
          if (registry.get(options.agent) === undefined) {
            throw new DeputyError('not-found', `no agent named '${options.agent}'`);
          }
          const created = await schedules.create(
            scheduleCreation(
              name,
              { ...options, caller: ANONYMOUS_CALLER },
              secretMaskerFor(config),
              config.schedules,
            ),
          );
          return answer(io, options.json, created, scheduleLines);
        }),
      ),
    );

  schedule
    .command('list')
    .description('schedules, by name')
    .option('--json', 'machine-readable output')
    .action(async (options: { json?: boolean }, command: Command) =>
      run(command, (io) =>
        withSchedules(command, async (schedules) => {
          return answer(io, options.json, await schedules.list(), scheduleTable);
        }),
      ),
    );

  const one = <T>(
    verb: string,
    description: string,
    act: (schedules: Schedules, name: string) => Promise<T>,
    say: (value: T, name: string) => string[],
  ) =>
    schedule
      .command(verb)
      .description(description)
      .argument('<name>', 'schedule name')
      .option('--json', 'machine-readable output')
      .action(async (name: string, options: { json?: boolean }, command: Command) =>
        run(command, (io) =>
          withSchedules(command, async (schedules) =>
            answer(io, options.json, await act(schedules, name), (value) => say(value, name)),
          ),
        ),
      );

  one(
    'show',
    'a schedule: timing, next runs, recent runs with their delegation ids and statuses',
    (schedules, name) => schedules.get(name),
    scheduleLines,
  );
  one(
    'pause',
    'pause a schedule: no run starts until it is resumed',
    (schedules, name) => schedules.pause(name),
    (_, name) => [`schedule ${name} paused`],
  );
  one(
    'resume',
    'resume a paused schedule',
    (schedules, name) => schedules.resume(name),
    (_, name) => [`schedule ${name} resumed`],
  );
  one(
    'trigger',
    'run a schedule now, under its overlap policy',
    (schedules, name) => schedules.trigger(name),
    ({ overlap }, name) => [
      overlap === 'skip'
        ? `schedule ${name} triggered (skipped if a run still runs or is parked): deputy schedule show ${name}`
        : `schedule ${name} triggered: deputy schedule show ${name}`,
    ],
  );
  one(
    'delete',
    'delete a schedule; runs already started go on',
    (schedules, name) => schedules.delete(name),
    (_, name) => [`schedule ${name} deleted`],
  );
}

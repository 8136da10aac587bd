/** How `deputy schedule` prints schedules: a table for the list, lines for one. */
import type { ScheduleDetail, ScheduleSummary } from '../../temporal/schedules/types.js';
import { table } from '../format.js';

const at = (time: string | null) => (time === null ? '-' : time.replace('T', ' ').slice(0, 19));
const timing = (row: ScheduleSummary) =>
  row.cron === null ? `every ${row.every ?? '?'}` : `cron "${row.cron}" ${row.timezone}`;

export function scheduleTable(rows: ScheduleSummary[]): string[] {
  if (rows.length === 0) return ['no schedules'];
  const header = ['NAME', 'AGENT', 'WHEN', 'STATE', 'NEXT RUN (UTC)', 'TASK'];
  const cells = rows.map((row) => [
    row.name,
    row.agent,
    timing(row),
    row.paused ? 'paused' : 'active',
    at(row.nextRunAt),
    row.task.length > 60 ? `${row.task.slice(0, 59)}…` : row.task,
  ]);
  return table([header, ...cells]);
}

export function scheduleLines(schedule: ScheduleDetail): string[] {
  const options = [
    schedule.unattended ? 'unattended' : null,
    schedule.cardTimeout === null ? null : `card timeout ${schedule.cardTimeout}`,
    schedule.maxTokens === null ? null : `max tokens ${schedule.maxTokens}`,
  ].filter((option) => option !== null);
  return [
    `schedule ${schedule.name}: ${schedule.paused ? 'paused' : 'active'}`,
    `  agent:    ${schedule.agent} (session ${schedule.session})`,
    `  task:     ${schedule.task}`,
    `  when:     ${timing(schedule)}`,
    `  overlap:  ${schedule.overlap}; a run missed by more than ${schedule.catchupWindowMs / 1000}s is skipped`,
    ...(options.length === 0 ? [] : [`  options:  ${options.join(', ')}`]),
    `  created:  ${at(schedule.createdAt)}${schedule.createdBy === null ? '' : ` by ${schedule.createdBy}`}`,
    `  next:     ${schedule.nextRuns.length === 0 ? '-' : `${schedule.nextRuns.map(at).join(', ')} (UTC)`}`,
    ...(schedule.recentRuns.length === 0
      ? ['  runs:     none yet']
      : [
          '  runs:',
          ...table(
            schedule.recentRuns.map((run) => [run.delegationId, run.status, at(run.startedAt)]),
          ).map((line) => `    ${line}`),
        ]),
  ];
}

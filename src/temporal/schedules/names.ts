/**
 * Schedule names. A name enters the schedule id, the runs' workflow ids, their delegation ids
 * (`<name>-20261202T090000Z`, at most 64 characters) and visibility queries, so it is held to a
 * small alphabet and to 40 characters.
 */
import { DeputyError } from '../../errors.js';
import { SCHEDULE_ATTRIBUTE } from '../../shared/workflow-contract/search-attributes.js';
import { quote } from '../delegations/ids.js';

export const SCHEDULE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/** Temporal's id of the schedule named `name`: deputy's schedules share a prefix in the UI. */
export function scheduleIdOf(name: string): string {
  return `deputy/${name}`;
}

/** The name of a schedule id deputy made; null for anybody else's schedule. */
export function nameOfScheduleId(scheduleId: string): string | null {
  const name = scheduleId.startsWith('deputy/') ? scheduleId.slice('deputy/'.length) : null;
  return name !== null && SCHEDULE_NAME_PATTERN.test(name) ? name : null;
}

export function isValidScheduleName(name: string): boolean {
  return SCHEDULE_NAME_PATTERN.test(name);
}

export function assertValidScheduleName(name: string): void {
  if (isValidScheduleName(name)) return;
  const message = `schedule name '${name.slice(0, 80)}' is not valid: use 1-40 letters, digits, '_' or '-', starting with a letter or digit`;
  throw new DeputyError('invalid', message, { issues: [{ path: 'name', message }] });
}

export function unknownSchedule(name: string): DeputyError {
  return new DeputyError('not-found', `no schedule named '${name.slice(0, 80)}'`);
}

/** Visibility clauses that narrow a listing to one schedule's runs (validated: it enters a query). */
export function scheduleClauses(schedule: string | undefined): string[] {
  if (schedule === undefined) return [];
  assertValidScheduleName(schedule);
  return [`${SCHEDULE_ATTRIBUTE.name} = ${quote(schedule)}`];
}

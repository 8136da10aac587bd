/**
 * Where a step's time goes, read from a closed workflow's history (server timestamps, so no
 * client polling in the figures): workflow tasks waiting for a worker and running in it,
 * activities waiting for a worker and running, and the payload bytes each event carries.
 */
import type { Client } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { eventMs } from './stats.js';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type Payloads = temporal.api.common.v1.IPayloads | null | undefined;

export interface Breakdown {
  /** WorkflowTaskScheduled → WorkflowTaskStarted: the task waits for a worker's poll. */
  workflowTaskWait: number[];
  /** WorkflowTaskStarted → WorkflowTaskCompleted: the activation in the worker, plus its reply. */
  workflowTaskRun: number[];
  /** ActivityTaskScheduled → ActivityTaskStarted: dispatch to a worker's poll. */
  activityWait: number[];
  /** ActivityTaskStarted → ActivityTaskCompleted, by activity type. */
  activityRun: Map<string, number[]>;
  /** ActivityTaskCompleted → the next ActivityTaskScheduled: the workflow's turnaround. */
  turnaround: number[];
  /**
   * Local activities (deputy runs read tools so): no task-queue trip and no events of their own,
   * only a MarkerRecorded in the workflow task that ran them; their time is inside that task's
   * activation. Counted here by type.
   */
  localActivities: Map<string, number>;
  /** Payload bytes by what carries them (`runTool input`, `callModel result`, `signal`...). */
  payloadBytes: Map<string, number[]>;
  /** First event to WorkflowExecutionCompleted. */
  total: number;
  /** Activities and local activities: the steps of the run(s). */
  activities: number;
  /** How many runs this covers (merge adds them up). */
  runs: number;
}

/** The activity type a local-activity marker records (core's marker `data` is JSON). */
function localActivityType(
  details: Record<string, temporal.api.common.v1.IPayloads> | null | undefined,
): string {
  const data = details?.data?.payloads?.[0]?.data;
  try {
    const parsed = JSON.parse(Buffer.from(data ?? []).toString('utf8')) as {
      activity_type?: string;
    };
    return parsed.activity_type ?? 'local activity';
  } catch {
    return 'local activity';
  }
}

export async function historyEvents(client: Client, workflowId: string): Promise<HistoryEvent[]> {
  return (await client.workflow.getHandle(workflowId).fetchHistory()).events ?? [];
}

function bytesOf(payloads: Payloads): number {
  let bytes = 0;
  for (const payload of payloads?.payloads ?? []) {
    bytes += payload.data?.length ?? 0;
    for (const value of Object.values(payload.metadata ?? {})) bytes += value.length;
  }
  return bytes;
}

function push<K>(map: Map<K, number[]>, key: K, value: number): void {
  const values = map.get(key);
  if (values) values.push(value);
  else map.set(key, [value]);
}

export function breakdown(events: HistoryEvent[]): Breakdown {
  const result: Breakdown = {
    workflowTaskWait: [],
    workflowTaskRun: [],
    activityWait: [],
    activityRun: new Map(),
    turnaround: [],
    localActivities: new Map(),
    payloadBytes: new Map(),
    total: Number.NaN,
    activities: 0,
    runs: 1,
  };
  const at = new Map<string, number>();
  const typeOf = new Map<string, string>();
  const activityStarted = new Map<string, number>();
  let lastActivityDone = Number.NaN;
  const firstAt = eventMs(events[0]?.eventTime);
  for (const event of events) {
    const id = String(event.eventId);
    const time = eventMs(event.eventTime);
    at.set(id, time);
    const started = event.workflowExecutionStartedEventAttributes;
    if (started) push(result.payloadBytes, 'workflow input', bytesOf(started.input));
    const wftStarted = event.workflowTaskStartedEventAttributes;
    if (wftStarted) {
      result.workflowTaskWait.push(time - (at.get(String(wftStarted.scheduledEventId)) ?? time));
    }
    const wftDone = event.workflowTaskCompletedEventAttributes;
    if (wftDone)
      result.workflowTaskRun.push(time - (at.get(String(wftDone.startedEventId)) ?? time));
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled) {
      const type = scheduled.activityType?.name ?? '?';
      typeOf.set(id, type);
      push(result.payloadBytes, `${type} input`, bytesOf(scheduled.input));
      if (!Number.isNaN(lastActivityDone)) result.turnaround.push(time - lastActivityDone);
    }
    const actStarted = event.activityTaskStartedEventAttributes;
    if (actStarted) {
      const scheduledId = String(actStarted.scheduledEventId);
      activityStarted.set(scheduledId, time);
      result.activityWait.push(time - (at.get(scheduledId) ?? time));
    }
    const actDone = event.activityTaskCompletedEventAttributes;
    if (actDone) {
      const scheduledId = String(actDone.scheduledEventId);
      const type = typeOf.get(scheduledId) ?? '?';
      push(result.activityRun, type, time - (activityStarted.get(scheduledId) ?? time));
      push(result.payloadBytes, `${type} result`, bytesOf(actDone.result));
      result.activities += 1;
      lastActivityDone = time;
    }
    const marker = event.markerRecordedEventAttributes;
    if (marker?.markerName === 'core_local_activity') {
      const type = localActivityType(marker.details);
      result.localActivities.set(type, (result.localActivities.get(type) ?? 0) + 1);
      push(result.payloadBytes, `${type} (local) result`, bytesOf(marker.details?.result));
      result.activities += 1;
    }
    const signaled = event.workflowExecutionSignaledEventAttributes;
    if (signaled) push(result.payloadBytes, 'signal input', bytesOf(signaled.input));
    const completed = event.workflowExecutionCompletedEventAttributes;
    if (completed) {
      push(result.payloadBytes, 'workflow result', bytesOf(completed.result));
      result.total = time - firstAt;
    }
  }
  return result;
}

/** Several runs' breakdowns as one: every sample of every run together. */
export function merge(all: Breakdown[]): Breakdown {
  const merged = { ...breakdown([]), runs: 0 };
  for (const one of all) {
    merged.workflowTaskWait.push(...one.workflowTaskWait);
    merged.workflowTaskRun.push(...one.workflowTaskRun);
    merged.activityWait.push(...one.activityWait);
    merged.turnaround.push(...one.turnaround);
    for (const [type, values] of one.activityRun)
      for (const v of values) push(merged.activityRun, type, v);
    for (const [key, values] of one.payloadBytes)
      for (const v of values) push(merged.payloadBytes, key, v);
    for (const [type, count] of one.localActivities) {
      merged.localActivities.set(type, (merged.localActivities.get(type) ?? 0) + count);
    }
    merged.activities += one.activities;
    merged.runs += one.runs;
  }
  return merged;
}

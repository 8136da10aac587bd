/**
 * How many bytes a workflow's history takes, encoded as the server stores and sends it, in all
 * and by event type: what a delegation costs in storage and in every replay of it.
 */
import proto from '@temporalio/proto';

const { temporal } = proto;

type History = proto.temporal.api.history.v1.IHistory;
const { History, HistoryEvent } = temporal.api.history.v1;

export interface HistorySize {
  bytes: number;
  events: number;
  /** Bytes by event type (`ACTIVITY_TASK_SCHEDULED`, ...), largest first. */
  byType: Array<{ type: string; bytes: number; count: number }>;
}

export function historySize(history: History): HistorySize {
  const events = history.events ?? [];
  const byType = new Map<string, { bytes: number; count: number }>();
  for (const event of events) {
    const type = temporal.api.enums.v1.EventType[event.eventType ?? 0] ?? 'UNKNOWN';
    const entry = byType.get(type) ?? { bytes: 0, count: 0 };
    entry.bytes += HistoryEvent.encode(event).finish().length;
    entry.count += 1;
    byType.set(type, entry);
  }
  return {
    bytes: History.encode(history).finish().length,
    events: events.length,
    byType: [...byType.entries()]
      .map(([type, entry]) => ({ type: type.replace(/^EVENT_TYPE_/, ''), ...entry }))
      .sort((a, b) => b.bytes - a.bytes),
  };
}

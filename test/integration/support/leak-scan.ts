/**
 * Collecting everything deputy let out, to scan it for planted secrets: answers and event
 * streams over real HTTP, the process's stderr and stdout (the worker's and Temporal runtime's
 * log lines), and full workflow histories with every payload decoded. A secret counts as leaked
 * in its plain form and in base64 (whatever its alignment inside a longer encoded payload).
 */
import type { Client } from '@temporalio/client';

/**
 * The stretches of base64 that encode `secret` at each of the three byte alignments: a secret
 * inside a longer base64 text contains one of them.
 */
export function base64Forms(secret: string): string[] {
  const bytes = Buffer.byteLength(secret, 'utf8');
  return [0, 1, 2].map((shift) => {
    const encoded = Buffer.from(`${'\0'.repeat(shift)}${secret}`, 'utf8').toString('base64');
    return encoded.slice(Math.ceil((shift * 8) / 6), Math.floor(((shift + bytes) * 8) / 6));
  });
}

/** Which of `secrets` occur in `text`, plainly or base64-encoded. */
export function leakedIn(text: string, secrets: readonly string[]): string[] {
  return secrets.filter(
    (secret) => text.includes(secret) || base64Forms(secret).some((form) => text.includes(form)),
  );
}

/** Copies everything written to stdout and stderr from now on (still passing it through). */
export function captureOutput(): { text(): string; restore(): void } {
  const chunks: string[] = [];
  const streams = [process.stdout, process.stderr];
  const originals = streams.map((stream) => stream.write);
  streams.forEach((stream, index) => {
    const original = originals[index]!;
    stream.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
      chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
      return original.call(stream, chunk, ...rest);
    }) as typeof stream.write;
  });
  return {
    text: () => chunks.join(''),
    restore() {
      streams.forEach((stream, index) => {
        stream.write = originals[index]!;
      });
    },
  };
}

/**
 * The full history as text: every string, and every payload both decoded (UTF-8) and as the
 * base64 a JSON export of the history would show.
 */
export async function historyText(client: Client, workflowId: string): Promise<string> {
  const parts: string[] = [];
  const collect = (value: unknown, seen: Set<object>): void => {
    if (typeof value === 'string') parts.push(value);
    else if (value instanceof Uint8Array) {
      parts.push(Buffer.from(value).toString('utf8'), Buffer.from(value).toString('base64'));
    } else if (typeof value === 'object' && value !== null && !seen.has(value)) {
      seen.add(value);
      for (const item of Object.values(value)) collect(item, seen);
    }
  };
  collect(await client.workflow.getHandle(workflowId).fetchHistory(), new Set());
  return parts.join('\n');
}

export { readEventStream } from '../../support/event-stream.js';

/** The `resolveAgent` activity's result in a history: the capability snapshot the run used. */
export async function resolvedSnapshot(
  client: Client,
  workflowId: string,
): Promise<{ tools: Array<{ name: string }>; callerRoles: string[] } & Record<string, unknown>> {
  const { events } = await client.workflow.getHandle(workflowId).fetchHistory();
  const list = events ?? [];
  const scheduled = list.find(
    (event) => event.activityTaskScheduledEventAttributes?.activityType?.name === 'resolveAgent',
  );
  if (scheduled === undefined) throw new Error(`no resolveAgent activity in ${workflowId}`);
  const completed = list.find(
    (event) =>
      String(event.activityTaskCompletedEventAttributes?.scheduledEventId ?? '') ===
      String(scheduled.eventId ?? ''),
  );
  const payload = completed?.activityTaskCompletedEventAttributes?.result?.payloads?.[0];
  if (payload?.data == null) throw new Error(`resolveAgent of ${workflowId} has no result`);
  const result = JSON.parse(Buffer.from(payload.data).toString('utf8')) as Record<string, unknown>;
  // The activity answers the snapshot itself or wraps it; accept both shapes.
  return (result.snapshot ?? result) as Awaited<ReturnType<typeof resolvedSnapshot>>;
}

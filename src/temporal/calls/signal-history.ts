/**
 * The signals a run was sent, read back from its history (newest page first): what Temporal
 * stored, whether or not a worker has seen it yet. Card decisions read their waiting and racing
 * copies here, and a signal whose answer timed out looks for itself before it is sent again.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { idempotentRpc } from './rpc.js';

/** Events per page, read newest first; a parked run's tail is a handful of events. */
const PAGE_SIZE = 64;
/** A run continues as new long before this many events; a bound, not a budget. */
const MAX_EVENTS = 20_000;

/**
 * The first argument of every `signalName` signal run `runId` was sent, oldest first; with
 * `unappliedOnly`, only those stored after the last completed workflow task. An argument this
 * client cannot decode is left out.
 */
export async function signalArgsInHistory(
  handle: WorkflowHandle,
  runId: string,
  signalName: string,
  { unappliedOnly }: { unappliedOnly: boolean },
): Promise<unknown[]> {
  const { client } = handle;
  const newestFirst: unknown[] = [];
  let nextPageToken: Uint8Array | undefined;
  let read = 0;
  do {
    const page = await idempotentRpc(client, () =>
      client.workflowService.getWorkflowExecutionHistoryReverse({
        namespace: client.options.namespace,
        execution: { workflowId: handle.workflowId, runId },
        maximumPageSize: PAGE_SIZE,
        ...(nextPageToken === undefined ? {} : { nextPageToken }),
      }),
    );
    for (const event of page.history?.events ?? []) {
      if (unappliedOnly && event.workflowTaskCompletedEventAttributes) return newestFirst.reverse();
      const signal = event.workflowExecutionSignaledEventAttributes;
      if (signal?.signalName !== signalName) continue;
      const arg = await decode(handle, signal.input?.payloads?.[0]);
      if (arg !== null) newestFirst.push(arg);
    }
    read += page.history?.events?.length ?? 0;
    nextPageToken = page.nextPageToken?.length ? page.nextPageToken : undefined;
  } while (nextPageToken !== undefined && read < MAX_EVENTS);
  return newestFirst.reverse();
}

/** The signal's argument through the client's own converter (and codecs, should any be set). */
async function decode(
  handle: WorkflowHandle,
  payload: Payload | null | undefined,
): Promise<unknown> {
  if (payload == null) return null;
  const { payloadConverter, payloadCodecs } = handle.client.options.loadedDataConverter;
  try {
    let payloads = [payload];
    // Codecs encode in order, so they decode in reverse.
    for (const codec of [...payloadCodecs].reverse()) payloads = await codec.decode(payloads);
    return payloadConverter.fromPayload<unknown>(payloads[0]!) ?? null;
  } catch {
    // Not an argument this client can read: leave it to the workflow, which logs what it ignores.
    return null;
  }
}

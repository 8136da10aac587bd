/**
 * Card decisions Temporal has stored that the workflow has not seen yet: `decideCard` signals
 * recorded after the run's last completed workflow task. Signals that arrive while a task runs
 * are written after its completion, so everything before that event was delivered to the
 * workflow code (and shows in the memo), everything after it was not. While no worker runs,
 * this is how a second decision on the same card is refused instead of silently ignored later.
 */
import type { WorkflowHandle } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import type { CardDecision } from '../../shared/delegation.js';
import { decideCardSignal } from '../../shared/messages.js';
import { idempotentRpc } from './rpc.js';

/** Events per page, read newest first; a parked run's tail is a handful of events. */
const PAGE_SIZE = 64;
/** A run continues as new long before this many events (RUN-9); a bound, not a budget. */
const MAX_EVENTS = 20_000;

/** Unapplied decisions of run `runId`, oldest first (the order the workflow will apply them). */
export function unappliedDecisions(handle: WorkflowHandle, runId: string): Promise<CardDecision[]> {
  return decisionsInHistory(handle, runId, { unappliedOnly: true });
}

/**
 * Every decision run `runId` was sent, oldest first. The first one for a card that was pending
 * is the one the workflow applied (or will apply): later ones find it decided.
 */
export function allDecisions(handle: WorkflowHandle, runId: string): Promise<CardDecision[]> {
  return decisionsInHistory(handle, runId, { unappliedOnly: false });
}

async function decisionsInHistory(
  handle: WorkflowHandle,
  runId: string,
  { unappliedOnly }: { unappliedOnly: boolean },
): Promise<CardDecision[]> {
  const { client } = handle;
  const newestFirst: CardDecision[] = [];
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
      if (signal?.signalName !== decideCardSignal.name) continue;
      const decision = await decode(handle, signal.input?.payloads?.[0]);
      if (decision !== null) newestFirst.push(decision);
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
): Promise<CardDecision | null> {
  if (payload == null) return null;
  const { payloadConverter, payloadCodecs } = handle.client.options.loadedDataConverter;
  try {
    let payloads = [payload];
    // Codecs encode in order, so they decode in reverse.
    for (const codec of [...payloadCodecs].reverse()) payloads = await codec.decode(payloads);
    const decision = payloadConverter.fromPayload<CardDecision>(payloads[0]!);
    return typeof decision?.cardId === 'string' ? decision : null;
  } catch {
    // Not a decision this client can read: leave it to the workflow, which logs what it ignores.
    return null;
  }
}

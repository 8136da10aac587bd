/**
 * `GET /delegations/:id/events` as Server-Sent Events. The workflow is the only source: the
 * stream polls the events query with the last sequence number it sent, so a reconnecting
 * client (Last-Event-ID) resumes where it left off and nothing lives in this process.
 */
import type { Context } from 'hono';
import { streamSSE, type SSEStreamingApi } from 'hono/streaming';
import type { ApprovalCard, DelegationEvent, DelegationState } from '../../shared/delegation.js';
import { DeputyError } from '../../errors.js';
import type { SecretMasker } from '../../secrets/masker.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import type { Logger } from './errors.js';

/**
 * Where a stream resumes: after the SSE `Last-Event-ID` a reconnecting client sends, else after
 * the `after` query parameter, else from the start.
 */
export function resumeAfter(c: Context, after: number | undefined): number {
  const lastEventId = Number(c.req.header('Last-Event-ID'));
  return Number.isInteger(lastEventId) && lastEventId >= 0 ? lastEventId : (after ?? 0);
}

/** What the routes that answer with masked state and event streams need beside their facades. */
export interface StreamingRouteDeps {
  /** Masks the configured secrets in every answer and event (no secret crosses HTTP). */
  secrets: SecretMasker;
  logger: Logger;
  events?: EventStreamOptions;
  agentNames?: () => string[];
}

export interface EventStreamOptions {
  /** Poll interval of the events query, milliseconds. Default 300. */
  pollMs?: number;
  /** A comment line is sent after this much silence so proxies keep the stream. Default 15 000. */
  keepAliveMs?: number;
  /** Masks the configured secrets in every event (the routes always pass the app's). */
  secrets?: SecretMasker;
}

/** What one stream replays and follows, besides the options. */
export interface StreamSource {
  /**
   * The cards pending at attach, replayed first. Default: the workflow's own; a session's
   * stream adds its children's (sessions.cards), which opened on their own workflows.
   */
  pendingCards?: () => Promise<ApprovalCard[]>;
}

/** Unanswered events queries on a finished delegation before its final state ends the stream. */
const FINISHED_RETRIES = 3;

export async function delegationEventStream(
  c: Context,
  delegations: Delegations,
  delegationId: string,
  afterSeq: number,
  logger: Logger,
  options: EventStreamOptions & StreamSource = {},
): Promise<Response> {
  const pollMs = options.pollMs ?? 300;
  const keepAliveMs = options.keepAliveMs ?? 15_000;
  const mask = options.secrets?.value ?? (<T>(value: T): T => value);
  // Resolve before the stream opens, so an unknown id is a plain 404, not an empty stream.
  const initial = await delegations.get(delegationId);

  // Every failure is caught inside the callback: given an error, Hono's own handler would follow
  // ours with `event: error` carrying the raw message, unmasked, to the client.
  return streamSSE(c, async (stream) => {
    try {
      await pump(stream);
    } catch (error) {
      logger.error(`event stream of ${delegationId} failed`, error);
      await stream
        .writeSSE({ event: 'error', data: JSON.stringify({ error: 'internal' }) })
        .catch(() => undefined);
    }
  });

  async function pump(stream: SSEStreamingApi): Promise<void> {
    let last = afterSeq;
    let quietSince = Date.now();
    let first = true;
    let unansweredSinceFinished = 0;
    while (!stream.aborted) {
      let batch: DelegationEvent[];
      try {
        batch = await delegations.events(delegationId, last);
      } catch (error) {
        if (error instanceof DeputyError && error.kind === 'not-found') return;
        // The workflow cannot answer (no worker, a busy one, or it closed without answering): if
        // it is finished, say so from its final state, but only after asking again: the final
        // state has no events, so ending on the first unanswered query (a worker slow under
        // load) would drop the last model turns from a stream that could have had them.
        const state = await delegations.get(delegationId).catch(() => null);
        if (state?.result != null && ++unansweredSinceFinished >= FINISHED_RETRIES) {
          await send(stream, mask(syntheticFinished(state, last + 1)));
          return;
        }
        batch = [];
      }
      if (first) {
        const pending = (await options.pendingCards?.()) ?? initial.pendingCards;
        await replayPendingCards(stream, mask(pending), batch);
        first = false;
      }
      for (const event of batch) {
        // Events are read from the workflow, whose data activities already masked; this catches
        // what came from elsewhere (a task a caller typed) on its way out of the process.
        await send(stream, mask(event));
        last = Math.max(last, event.seq);
        if (event.type === 'finished') return;
      }
      if (batch.length > 0) quietSince = Date.now();
      else if (Date.now() - quietSince >= keepAliveMs) {
        await stream.write(': keep-alive\n\n');
        quietSince = Date.now();
      }
      await stream.sleep(pollMs);
    }
  }
}

/**
 * Cards still pending whose `card-opened` event is before the resume point would otherwise
 * never reach this client (a card is never lost because nobody was listening).
 */
async function replayPendingCards(
  stream: SSEStreamingApi,
  pendingCards: ApprovalCard[],
  batch: DelegationEvent[],
): Promise<void> {
  const inBatch = new Set(
    batch.flatMap((event) => (event.type === 'card-opened' ? [event.card.id] : [])),
  );
  for (const card of pendingCards) {
    if (!inBatch.has(card.id)) await send(stream, replayedCard(card));
  }
}

function replayedCard(card: ApprovalCard) {
  return { seq: 0, at: card.openedAt, type: 'card-opened' as const, card, replayed: true };
}

function syntheticFinished(state: DelegationState, seq: number): DelegationEvent {
  // `result` is checked non-null by the caller.
  return { seq, at: new Date().toISOString(), type: 'finished', result: state.result! };
}

async function send(
  stream: SSEStreamingApi,
  event: DelegationEvent | ReturnType<typeof replayedCard>,
): Promise<void> {
  // A replayed card carries no `id:` so the client's Last-Event-ID does not move backwards.
  await stream.writeSSE({
    event: event.type,
    data: JSON.stringify(event),
    ...('replayed' in event ? {} : { id: String(event.seq) }),
  });
}

/**
 * A deputy event stream (`/delegations/:id/events`, `/sessions/:id/events`) as an async
 * iterator that survives the connection: when the stream breaks (the API restarted, a proxy cut
 * it), it reconnects with `Last-Event-ID` and goes on after the last event it yielded, so no event
 * is lost or repeated. Cards the server replays on attach are yielded once each, however often
 * it reconnects. It ends after the `finished` event, or when `signal` aborts.
 */
import type { DelegationEvent } from '../shared/delegation.js';
import { DeputyClientError } from './client-error.js';
import type { HttpTransport } from './http-transport.js';

/** An event as the stream sends it; a card replayed on attach carries `replayed: true`. */
export type StreamEvent = DelegationEvent & { replayed?: boolean };

export interface EventsOptions {
  /** Start after this sequence number (default 0: from the beginning). */
  after?: number;
  /** Stops the iteration (the iterator then just ends). */
  signal?: AbortSignal;
  /** Reconnection attempts in a row before giving up with the last error. Default 30. */
  retries?: number;
  /** Milliseconds between reconnection attempts. Default 500. */
  retryDelayMs?: number;
}

export async function* followEvents(
  http: HttpTransport,
  path: string,
  options: EventsOptions = {},
): AsyncGenerator<StreamEvent, void, undefined> {
  let last = options.after ?? 0;
  const replayedCards = new Set<string>();
  const retries = options.retries ?? 30;
  const delayMs = options.retryDelayMs ?? 500;
  let failures = 0;
  for (;;) {
    if (options.signal?.aborted) return;
    const abort = new AbortController();
    const onAbort = () => abort.abort();
    options.signal?.addEventListener('abort', onAbort, { once: true });
    try {
      const response = await http.stream(path, { 'last-event-id': String(last) }, abort.signal);
      let heard = false;
      for await (const event of parseStream(response, abort.signal)) {
        heard = true;
        failures = 0;
        if (event.type === 'card-opened') {
          // A card is yielded once: as it opened, or replayed on attach, never both.
          if (replayedCards.has(event.card.id)) continue;
          replayedCards.add(event.card.id);
        }
        if (event.replayed !== true) last = Math.max(last, event.seq);
        yield event;
        if (event.type === 'finished' || options.signal?.aborted) return;
      }
      // Ended without `finished` (the server went away): reconnect, but not for ever.
      if (!heard && ++failures > retries) {
        throw new DeputyClientError(
          `the event stream ${path} keeps ending without events`,
          'unreachable',
          0,
        );
      }
    } catch (error) {
      if (options.signal?.aborted) return;
      // A refusal (404, 403, ...) will not heal by retrying; a broken connection may.
      if (error instanceof DeputyClientError && error.status !== 0 && error.status !== 503) {
        throw error;
      }
      failures += 1;
      if (failures > retries) throw error;
    } finally {
      options.signal?.removeEventListener('abort', onAbort);
      abort.abort();
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
  }
}

/** The `data` of each SSE block, parsed. Comment lines (keep-alives) are skipped. */
async function* parseStream(response: Response, signal: AbortSignal): AsyncGenerator<StreamEvent> {
  if (response.body === null) return;
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  // A stream served in-process (the local client) does not end with the request's signal.
  const cancel = () => void reader.cancel().catch(() => undefined);
  signal.addEventListener('abort', cancel, { once: true });
  try {
    yield* blocks(reader);
  } finally {
    signal.removeEventListener('abort', cancel);
    cancel();
  }
}

async function* blocks(reader: ReadableStreamDefaultReader<string>): AsyncGenerator<StreamEvent> {
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = block
        .split('\n')
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      if (data === '') continue;
      const parsed = JSON.parse(data) as Partial<StreamEvent>;
      // The server's own `error` event (`{error: 'internal'}`): the stream broke on its side.
      if (typeof parsed.type !== 'string')
        throw new Error(`the event stream failed: ${data.slice(0, 200)}`);
      yield parsed as StreamEvent;
    }
  }
}

/**
 * Server-Sent Events over fetch, not EventSource: EventSource cannot send the Authorization
 * header. Reconnects after a drop with Last-Event-ID, as EventSource would, until aborted.
 */
import { createParser, type EventSourceMessage } from 'eventsource-parser';
import { authHeaders } from './client';

export interface StreamHandlers {
  onEvent(event: { type: string; data: unknown; id?: string }): void;
  /** Connection state for the page: true while a stream is open. */
  onConnection?(open: boolean, problem?: string): void;
  /** Reopen a stream the server ended (default false: a finished delegation's stream ends). */
  reconnectOnEnd?: boolean;
  /** The server refused the stream for good (a 4xx but 429): its status and its message. */
  onRefused?(status: number, message: string): void;
}

export function followStream(path: string, handlers: StreamHandlers, signal: AbortSignal): void {
  let lastEventId: string | undefined;
  const connect = async (): Promise<void> => {
    while (!signal.aborted) {
      try {
        const response = await fetch(path, {
          headers: {
            accept: 'text/event-stream',
            ...authHeaders(),
            ...(lastEventId === undefined ? {} : { 'last-event-id': lastEventId }),
          },
          signal,
        });
        if (!response.ok || response.body === null) {
          const text = await response.text().catch(() => '');
          handlers.onConnection?.(false, `HTTP ${response.status} ${text.slice(0, 200)}`);
          // 4xx other than 429 will not get better by asking again.
          if (response.status >= 400 && response.status < 500 && response.status !== 429) {
            handlers.onRefused?.(response.status, messageIn(text) ?? `HTTP ${response.status}`);
            return;
          }
        } else {
          handlers.onConnection?.(true);
          await readEvents(response.body, (message) => {
            if (message.id !== undefined) lastEventId = message.id;
            handlers.onEvent({
              type: message.event ?? 'message',
              data: parseData(message.data),
              ...(message.id === undefined ? {} : { id: message.id }),
            });
          });
          handlers.onConnection?.(false, 'the stream ended');
          // A stream the server ended on purpose (a finished delegation) is not reopened.
          if (handlers.reconnectOnEnd !== true) return;
        }
      } catch (error) {
        if (signal.aborted) return;
        handlers.onConnection?.(false, (error as Error).message);
      }
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  void connect();
}

/** Each event of a Server-Sent Events body, as it arrives, until the body ends. */
export async function readEvents(
  body: ReadableStream<BufferSource>,
  onMessage: (message: EventSourceMessage) => void,
): Promise<void> {
  const parser = createParser({ onEvent: onMessage });
  const reader = body.pipeThrough(new TextDecoderStream()).getReader();
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    parser.feed(value);
  }
}

/** The `message` of an API error body, if the text is one. */
function messageIn(text: string): string | null {
  const parsed = parseData(text);
  if (parsed === null || typeof parsed !== 'object' || !('message' in parsed)) return null;
  return typeof parsed.message === 'string' ? parsed.message : null;
}

function parseData(data: string): unknown {
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

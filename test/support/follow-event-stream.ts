/**
 * Follows a Server-Sent Events answer that does not end by itself (the approvals inbox): parses it
 * with readEventStream as it arrives, and `close()` hangs up as a client would (the server sees its
 * stream cancelled) and returns the raw text read so far, comment lines included.
 */
import { readEventStream } from './event-stream.js';

export interface SeenEvent<Data = Record<string, unknown>> {
  name: string;
  data: Data;
  /** When it was read (epoch milliseconds). */
  receivedAt: number;
}

export function followEventStream<Data = Record<string, unknown>>(response: Response) {
  const events: SeenEvent<Data>[] = [];
  let hangUp!: () => void;
  // Terminating this readable side ends the read below normally and cancels the answer's body.
  const cut = new TransformStream<Uint8Array, Uint8Array>({
    start(controller) {
      hangUp = () => controller.terminate();
    },
  });
  const raw = readEventStream<Data>(new Response(response.body!.pipeThrough(cut)), (data, name) => {
    events.push({ name, data, receivedAt: Date.now() });
  });
  return {
    events,
    /** The events named `name`, in order. */
    named: (name: string) => events.filter((event) => event.name === name),
    async close(): Promise<string> {
      hangUp();
      return raw;
    },
  };
}

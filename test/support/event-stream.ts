/**
 * Reads a Server-Sent Events answer to its end (the delegation and generation streams), calling
 * `onEvent` with each event's parsed `data` and its `event:` name (`message` without one) as it
 * arrives. Returns the raw text, for tests that scan what left the process.
 */
export async function readEventStream<Data = unknown>(
  response: Response,
  onEvent: (data: Data, name: string) => Promise<void> | void = () => {},
): Promise<string> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let raw = '';
  let buffer = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return raw;
    raw += value;
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = /^data: (.*)$/m.exec(block)?.[1];
      const name = /^event: (.*)$/m.exec(block)?.[1] ?? 'message';
      if (data) await onEvent(JSON.parse(data) as Data, name);
    }
  }
}

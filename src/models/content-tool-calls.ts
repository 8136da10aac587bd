/**
 * Tool calls a model wrote as JSON text in its answer instead of as structured tool calls. Small
 * local models do this when their server's chat template does not turn the JSON into
 * `tool_calls` (Qwen2.5 under llama.cpp's default template answers with a fenced JSON object).
 * Read only for catalog entries that opt in (`toolCallsInContent: true`), because on any other
 * model a JSON answer is an answer.
 *
 * Accepted, and nothing looser: the whole answer is one call object or an array of them, bare or
 * in one code fence; or `<tool_call>...</tool_call>` blocks (Qwen's and Hermes' markup), whose
 * surrounding text stays the turn's text. A call object is `{"name": ..., "arguments": ...}`
 * (`parameters` is read as `arguments`, Llama 3.1's spelling). Every name must be one of the
 * agent's tools: an answer that merely looks like a call to something else stays text.
 */

/** One call read from the text; `arguments` is still raw (an object, a JSON string, or absent). */
export interface TextToolCall {
  name: string;
  arguments: unknown;
}

export interface TextToolCalls {
  /** The answer's text without the calls ('' when the calls were the whole answer). */
  text: string;
  calls: TextToolCall[];
}

const FENCE = /^```[a-zA-Z]*\s*\n([\s\S]*?)\n?```$/;
const TAGGED = /<tool_call>\s*([\s\S]*?)\s*<\/tool_call>/g;

/** The calls in `text`, or null when it holds none (then it is an ordinary answer). */
export function toolCallsInText(
  text: string,
  toolNames: ReadonlySet<string>,
): TextToolCalls | null {
  const trimmed = text.trim();
  if (trimmed.includes('<tool_call>')) return taggedCalls(trimmed, toolNames);
  const body = FENCE.exec(trimmed)?.[1] ?? trimmed;
  const calls = callsOf(parseJson(body.trim()), toolNames);
  return calls === null ? null : { text: '', calls };
}

function taggedCalls(text: string, toolNames: ReadonlySet<string>): TextToolCalls | null {
  const calls: TextToolCall[] = [];
  for (const match of text.matchAll(TAGGED)) {
    const found = callsOf(parseJson(match[1] ?? ''), toolNames);
    if (found === null) return null;
    calls.push(...found);
  }
  if (calls.length === 0) return null;
  return { text: text.replace(TAGGED, '').trim(), calls };
}

/** The calls a parsed value holds, or null unless every item is a call to a known tool. */
function callsOf(value: unknown, toolNames: ReadonlySet<string>): TextToolCall[] | null {
  const items = Array.isArray(value) ? value : [value];
  if (items.length === 0) return null;
  const calls: TextToolCall[] = [];
  for (const item of items) {
    if (item === null || typeof item !== 'object' || Array.isArray(item)) return null;
    const record = item as Record<string, unknown>;
    const { name } = record;
    if (typeof name !== 'string' || !toolNames.has(name)) return null;
    calls.push({ name, arguments: record.arguments ?? record.parameters });
  }
  return calls;
}

function parseJson(text: string): unknown {
  if (!text.startsWith('{') && !text.startsWith('[')) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * What both adapters do with an answer once its wire form is read: turn raw tool calls into
 * calls plus the reasons some cannot run, and say plainly when the answer was cut at its output
 * limit (`finish_reason: length`, `stop_reason: max_tokens`).
 */
import { randomBytes } from 'node:crypto';
import type { ModelRequest, ModelResponse, ToolCallRequest } from '../shared/model-contract.js';
import { toolCallsInText } from './content-tool-calls.js';
import { ModelCallError } from './model-adapter.js';
import { readArguments } from './read-arguments.js';

/** How an adapter reads an answer beyond its wire form. */
export interface ReadingOptions {
  /** The `max_tokens` sent, named when an answer is cut at it. */
  maxTokens?: number;
  /** Read calls written as JSON text, to these tools only (`toolCallsInContent`). */
  textToolNames?: ReadonlySet<string>;
}

/** A tool call as the wire carried it: arguments not yet read. */
export interface RawToolCall {
  id: string;
  name: string;
  arguments: unknown;
}

/** What both adapters' options say about reading an answer to `request`. */
export function readingFor(
  options: { maxTokens?: number | undefined; toolCallsInContent?: boolean | undefined },
  request: ModelRequest,
): ReadingOptions {
  return {
    ...(options.maxTokens === undefined ? {} : { maxTokens: options.maxTokens }),
    ...(options.toolCallsInContent === true
      ? { textToolNames: new Set(request.tools.map((tool) => tool.name)) }
      : {}),
  };
}

/** An answer's parts as the wire carried them. */
export interface WireAnswer {
  text: string;
  calls: RawToolCall[];
  /** It stopped at its output limit (`finish_reason: length`, `stop_reason: max_tokens`). */
  cut: boolean;
}

/**
 * The text and calls of an answer: calls written as text read when the entry opts in; a cut
 * answer failed if it asks for tools, else marked; unreadable arguments in `invalidCalls`.
 */
export function readAnswer(
  answer: WireAnswer,
  label: string,
  reading: ReadingOptions,
): Pick<ModelResponse, 'text' | 'toolCalls' | 'invalidCalls'> {
  let { text } = answer;
  const raw = [...answer.calls];
  if (raw.length === 0 && reading.textToolNames !== undefined) {
    const written = toolCallsInText(text, reading.textToolNames);
    if (written !== null) {
      text = written.text;
      raw.push(...written.calls.map((call) => ({ ...call, id: textCallId() })));
    }
  }
  if (answer.cut && raw.length > 0) throw cutToolCallError(label, reading.maxTokens);
  const { toolCalls, invalidCalls } = readCalls(raw);
  return {
    text: answer.cut ? text + cutAnswerNote(reading.maxTokens) : text,
    toolCalls,
    ...(Object.keys(invalidCalls).length === 0 ? {} : { invalidCalls }),
  };
}

/** The calls, and why those that cannot run cannot (by call id). */
function readCalls(raw: readonly RawToolCall[]): {
  toolCalls: ToolCallRequest[];
  invalidCalls: Record<string, string>;
} {
  const toolCalls: ToolCallRequest[] = [];
  const invalidCalls: Record<string, string> = {};
  for (const call of raw) {
    const read = readArguments(call.arguments);
    toolCalls.push({ id: call.id, name: call.name, arguments: read.arguments });
    if (read.invalid !== undefined) invalidCalls[call.id] = read.invalid;
  }
  return { toolCalls, invalidCalls };
}

/** An id for a call read from text: unique, so its result pairs with it in later turns too. */
function textCallId(): string {
  return `call_${randomBytes(6).toString('hex')}`;
}

function limitName(maxTokens: number | undefined): string {
  return maxTokens === undefined
    ? "the server's output limit"
    : `its output limit (maxTokens ${maxTokens})`;
}

/**
 * A tool call cut short may look whole (a `write` whose content stops mid-file still parses) and
 * the calls after it are missing: none is run. Not retried: the same request is cut again.
 */
function cutToolCallError(label: string, maxTokens: number | undefined): ModelCallError {
  return new ModelCallError(
    `model ${label}: the answer was cut at ${limitName(maxTokens)} while it was asking for tools; ` +
      `nothing was run. Raise maxTokens in the model's catalog entry (models.catalog)`,
    { retryable: false },
  );
}

/** Appended to an answer cut short, so whoever reads it knows it is not the whole answer. */
function cutAnswerNote(maxTokens: number | undefined): string {
  return `\n\n[deputy: this answer was cut at ${limitName(maxTokens)}; raise maxTokens in the model's catalog entry for longer answers]`;
}

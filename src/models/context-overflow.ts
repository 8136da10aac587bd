/**
 * Recognizes a provider's "the conversation no longer fits the model's context window" refusal,
 * so it fails once with the limit named instead of as an anonymous 400. deputy does not trim a
 * transcript to make it fit (which turns to drop is the caller's decision, and dropping a tool
 * result the model relied on changes what it does): retrying the same request cannot help, so
 * the failure is never retried.
 *
 * The wire forms seen: OpenAI and vLLM (`code: context_length_exceeded`, "maximum context length
 * is 8192 tokens ... resulted in 9000 tokens"), llama.cpp's server (`type:
 * exceed_context_size_error` with `n_ctx` and `n_prompt_tokens`), Anthropic ("prompt is too long:
 * 210000 tokens > 200000 maximum").
 */

export interface ContextOverflow {
  /** The model's context window in tokens, when the provider said. */
  limit?: number;
  /** How many tokens the request needed, when the provider said. */
  requested?: number;
}

const OVERFLOW_TYPES = new Set(['context_length_exceeded', 'exceed_context_size_error']);
const OVERFLOW_WORDS =
  /context[ _](length|window|size)|maximum context|prompt is too long|exceeds the (available )?context/i;
const LIMIT_PATTERNS = [
  /maximum context length is (\d+)/i,
  /context (?:size|window|length) \((\d+) tokens?\)/i,
  /context window of (\d+)/i,
  /\d+ tokens > (\d+) maximum/i,
];
const REQUESTED_PATTERNS = [
  /resulted in (\d+) tokens/i,
  /you requested (\d+) tokens/i,
  /request \((\d+) tokens?\)/i,
  /(\d+) tokens > \d+ maximum/i,
];

/**
 * The overflow a refusal describes, or null when it is some other failure. `body` is what the SDK
 * parsed from the answer (OpenAI's SDK: the `error` object; Anthropic's: the whole body).
 */
export function contextOverflowOf(
  status: number | undefined,
  body: unknown,
  message: string,
): ContextOverflow | null {
  if (status === undefined || status < 400 || status >= 500) return null;
  const error = innerError(body);
  const named = [error.type, error.code].some(
    (value) => typeof value === 'string' && OVERFLOW_TYPES.has(value),
  );
  const text = `${typeof error.message === 'string' ? error.message : ''} ${message}`;
  if (!named && !OVERFLOW_WORDS.test(text)) return null;
  const limit = numberField(error.n_ctx) ?? firstNumber(LIMIT_PATTERNS, text);
  const requested = numberField(error.n_prompt_tokens) ?? firstNumber(REQUESTED_PATTERNS, text);
  return {
    ...(limit === undefined ? {} : { limit }),
    ...(requested === undefined ? {} : { requested }),
  };
}

/** What the user reads: the limit and the size when known, and what to do. */
export function describeContextOverflow(overflow: ContextOverflow): string {
  const window =
    overflow.limit === undefined
      ? "the model's context window"
      : `the model's context window of ${overflow.limit} tokens`;
  const size = overflow.requested === undefined ? '' : ` (it needs ${overflow.requested})`;
  return (
    `the conversation no longer fits ${window}${size}; deputy does not trim a transcript, so ` +
    "retrying cannot help: give the agent a narrower task, lower the entry's maxTokens, or " +
    'use a model (or a server setting) with a larger context'
  );
}

function innerError(body: unknown): Record<string, unknown> {
  if (body === null || typeof body !== 'object') return {};
  const record = body as Record<string, unknown>;
  const inner = record.error;
  return inner !== null && typeof inner === 'object' ? (inner as Record<string, unknown>) : record;
}

function numberField(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

function firstNumber(patterns: RegExp[], text: string): number | undefined {
  for (const pattern of patterns) {
    const match = pattern.exec(text);
    if (match?.[1] !== undefined) return Number(match[1]);
  }
  return undefined;
}

/** Provider answers as real servers shape them, for tests that serve them on loopback. */

/** An OpenAI chat completion with one choice. */
export function chatCompletion(
  message: Record<string, unknown>,
  finishReason = 'stop',
): Record<string, unknown> {
  return {
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 1764489610,
    model: 'qwen2.5-coder',
    choices: [
      { index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason },
    ],
    usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
  };
}

/** An Anthropic Messages answer. */
export function anthropicMessage(
  content: unknown[],
  stopReason = 'end_turn',
): Record<string, unknown> {
  return {
    id: 'msg_1',
    type: 'message',
    role: 'assistant',
    model: 'qwen2.5-coder',
    content,
    stop_reason: stopReason,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}

/** llama.cpp's server when the prompt does not fit its context (HTTP 400). */
export const LLAMA_CPP_OVERFLOW = {
  error: {
    code: 400,
    message: 'the request exceeds the available context size, try increasing it',
    type: 'exceed_context_size_error',
    n_prompt_tokens: 5120,
    n_ctx: 4096,
  },
};

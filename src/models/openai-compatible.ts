/**
 * Adapter for any OpenAI-compatible chat-completions endpoint: OpenAI itself, Ollama, vLLM,
 * llama.cpp server, LM Studio... Non-streaming: the activity needs the whole answer anyway, and
 * a single request is what Temporal retries.
 */
import type {
  ChatCompletion,
  ChatCompletionCreateParamsNonStreaming,
  ChatCompletionMessageParam,
  ChatCompletionTool,
} from 'openai/resources/chat/completions';
import type { ModelRequest, ModelResponse, ToolCallRequest } from '../shared/model-contract.js';
import type { ToolSchema } from '../shared/tools/tool-contract.js';
import { ModelCallError } from './model-adapter.js';
import type { ModelAdapter, ModelCallOptions } from './model-adapter.js';
import { callProvider } from './provider-errors.js';

/**
 * Sent when no key is configured: local servers ignore the header, and an explicit value stops
 * the SDK from silently picking up `OPENAI_API_KEY` from the environment.
 */
const NO_API_KEY = 'no-api-key';

export interface OpenAiCompatibleOptions {
  /** Provider-side model name, e.g. `gpt-4o-mini`, `llama3.1`. */
  model: string;
  /** Endpoint base URL including `/v1`. Default: OpenAI's public API. */
  baseUrl?: string;
  /**
   * Returns the API key, called on every request so a rotated key is picked up without a worker
   * restart. May throw (e.g. `ModelConfigError` for a missing variable). Absent or returning
   * undefined: no key (local servers).
   */
  apiKey?: () => string | undefined;
  /** Shown in errors and `ModelResponse.modelLabel`. Default `openai-compatible:<model>`. */
  label?: string;
  /** `max_tokens` for the completion. Default: not sent (the server decides). */
  maxTokens?: number;
  /** Per-request timeout in milliseconds. Default 600000 (the SDK's). */
  timeoutMs?: number;
}

export function createOpenAiCompatibleModel(options: OpenAiCompatibleOptions): ModelAdapter {
  const label = options.label ?? `openai-compatible:${options.model}`;
  return {
    label,
    async complete(request: ModelRequest, callOptions: ModelCallOptions): Promise<ModelResponse> {
      const apiKey = options.apiKey?.();
      // Loaded on the first call: a CLI command that never calls a model never loads the SDK.
      const { default: OpenAI } = await import('openai');
      const client = new OpenAI({
        apiKey: apiKey ?? NO_API_KEY,
        ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
        // Temporal retries the activity with its own policy and backoff; SDK retries inside one
        // attempt would multiply attempts and hide failures from history.
        maxRetries: 0,
        // Keep OPENAI_ORG_ID / OPENAI_PROJECT from the environment out of third-party servers.
        organization: null,
        project: null,
        ...(options.timeoutMs === undefined ? {} : { timeout: options.timeoutMs }),
      });
      const body = toChatCompletionRequest(options.model, request, options.maxTokens);
      const completion = await callProvider({
        label,
        apiKey,
        signal: callOptions.signal,
        send: (requestOptions) => client.chat.completions.create(body, requestOptions),
        apiErrorStatus: (error) =>
          error instanceof OpenAI.APIError && !(error instanceof OpenAI.APIUserAbortError)
            ? error.status
            : null,
      });
      return fromChatCompletion(completion, label);
    },
  };
}

/** The request body the SDK sends. Exported for tests and for debugging a provider. */
export function toChatCompletionRequest(
  model: string,
  request: ModelRequest,
  maxTokens?: number,
): ChatCompletionCreateParamsNonStreaming {
  const messages: ChatCompletionMessageParam[] = [];
  if (request.system !== '') {
    messages.push({ role: 'system', content: request.system });
  }
  for (const entry of request.transcript) {
    switch (entry.role) {
      case 'user':
        messages.push({ role: 'user', content: entry.content });
        break;
      case 'assistant':
        if (entry.toolCalls.length === 0) {
          messages.push({ role: 'assistant', content: entry.content });
        } else {
          messages.push({
            role: 'assistant',
            // OpenAI's documented shape for a tool-calling turn without text is `content: null`.
            content: entry.content === '' ? null : entry.content,
            tool_calls: entry.toolCalls.map((call) => ({
              id: call.id,
              type: 'function' as const,
              function: { name: call.name, arguments: JSON.stringify(call.arguments) },
            })),
          });
        }
        break;
      case 'tool':
        // The error flag has no field in this API; the runtime's failure text already says
        // `[tool '...' failed]`, which is what the model reads.
        messages.push({ role: 'tool', tool_call_id: entry.toolCallId, content: entry.content });
        break;
    }
  }
  return {
    model,
    messages,
    // OpenAI rejects an empty `tools` array, so a tool-less agent sends none.
    ...(request.tools.length === 0 ? {} : { tools: request.tools.map(toOpenAiTool) }),
    ...(maxTokens === undefined ? {} : { max_tokens: maxTokens }),
  };
}

function toOpenAiTool(tool: ToolSchema): ChatCompletionTool {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}

/**
 * Maps the first choice back. Tool call arguments that are not a JSON object are a
 * `ModelCallError` marked retryable: running a tool with guessed (empty) arguments could do
 * damage, and a fresh sample from the model usually produces valid JSON. Temporal's retry policy
 * bounds how often that is tried. An empty argument string means "no arguments" (some local
 * servers send that for parameterless tools).
 */
export function fromChatCompletion(completion: ChatCompletion, label: string): ModelResponse {
  const message = completion.choices[0]?.message;
  if (message === undefined) {
    throw new ModelCallError(`model ${label}: the response has no choices`, { retryable: true });
  }
  const toolCalls: ToolCallRequest[] = [];
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    if (call.type !== 'function') {
      throw new ModelCallError(
        `model ${label}: unsupported tool call type '${call.type}' (only function tools are sent)`,
        { retryable: false },
      );
    }
    toolCalls.push({
      // Some local servers omit ids; the transcript needs one to pair the result with the call.
      id: call.id === '' ? `call_${index}` : call.id,
      name: call.function.name,
      arguments: parseArguments(call.function.name, call.function.arguments, label),
    });
  }
  const { usage } = completion;
  return {
    text: message.content ?? '',
    toolCalls,
    modelLabel: label,
    // Local servers often send no usage: then there is none to report, not zero.
    ...(usage === undefined || usage === null
      ? {}
      : {
          usage: {
            inputTokens: usage.prompt_tokens,
            outputTokens: usage.completion_tokens,
            cachedInputTokens: usage.prompt_tokens_details?.cached_tokens ?? 0,
          },
        }),
  };
}

function parseArguments(toolName: string, text: string, label: string): Record<string, unknown> {
  if (text.trim() === '') {
    return {};
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    const excerpt = text.length > 200 ? `${text.slice(0, 200)}...` : text;
    throw new ModelCallError(
      `model ${label}: arguments of tool call '${toolName}' are not a JSON object: ${excerpt}`,
      { retryable: true },
    );
  }
  return parsed as Record<string, unknown>;
}

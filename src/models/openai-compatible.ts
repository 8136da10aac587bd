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
import type { ModelRequest, ModelResponse } from '../shared/model-contract.js';
import type { ToolSchema } from '../shared/tools/tool-contract.js';
import { readAnswer, readingFor, type RawToolCall, type ReadingOptions } from './answer-reading.js';
import { DEFAULT_MODEL_TIMEOUT_MS, ModelCallError } from './model-adapter.js';
import type { ModelAdapter, ModelCallOptions, ProviderModelOptions } from './model-adapter.js';
import { callProvider, endpointOf, sdkFailureOf } from './provider-errors.js';

/**
 * Sent when no key is configured: local servers ignore the header, and an explicit value stops
 * the SDK from silently picking up `OPENAI_API_KEY` from the environment.
 */
const NO_API_KEY = 'no-api-key';

/** Where the SDK sends requests without a `baseUrl`, named in messages. */
const OPENAI_BASE_URL = 'https://api.openai.com/v1';

export type OpenAiCompatibleOptions = ProviderModelOptions;

export function createOpenAiCompatibleModel(options: OpenAiCompatibleOptions): ModelAdapter {
  const label = options.label ?? `openai-compatible:${options.model}`;
  const endpoint = endpointOf(options.baseUrl ?? OPENAI_BASE_URL);
  const timeoutMs = options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS;
  return {
    label,
    provider: 'openai',
    model: options.model,
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
        timeout: timeoutMs,
      });
      const body = toChatCompletionRequest(options.model, request, options.maxTokens);
      const completion = await callProvider({
        label,
        endpoint,
        apiKey,
        signal: callOptions.signal,
        timeoutMs,
        send: (requestOptions) => client.chat.completions.create(body, requestOptions),
        sdkFailure: (error) => sdkFailureOf(error, OpenAI),
      });
      return fromChatCompletion(completion, label, readingFor(options, request));
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
 * Maps the first choice back. Arguments that are not a JSON object do not fail the call: the
 * call comes back with empty arguments and the reason in `invalidCalls`, so the workflow tells the
 * model instead of running the tool (a fresh sample usually gets the JSON right). Some local
 * servers omit call ids; the transcript needs one to pair a result with its call.
 */
export function fromChatCompletion(
  completion: ChatCompletion,
  label: string,
  reading: ReadingOptions = {},
): ModelResponse {
  const choice = completion.choices[0];
  if (choice?.message === undefined) {
    throw new ModelCallError(`model ${label}: the response has no choices`, { retryable: true });
  }
  const { message } = choice;
  const raw: RawToolCall[] = [];
  for (const [index, call] of (message.tool_calls ?? []).entries()) {
    if (call.type !== 'function') {
      throw new ModelCallError(
        `model ${label}: unsupported tool call type '${call.type}' (only function tools are sent)`,
        { retryable: false },
      );
    }
    const id = call.id === '' || call.id === undefined ? `call_${index}` : call.id;
    raw.push({ id, name: call.function.name, arguments: call.function.arguments });
  }
  const read = readAnswer(
    { text: message.content ?? '', calls: raw, cut: choice.finish_reason === 'length' },
    label,
    reading,
  );
  const { usage } = completion;
  return {
    ...read,
    modelLabel: label,
    ...(choice.finish_reason ? { finishReason: choice.finish_reason } : {}),
    ...(completion.model ? { responseModel: completion.model } : {}),
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

/**
 * Adapter for Anthropic's Messages API. Non-streaming, like the OpenAI-compatible adapter: one
 * request per activity attempt.
 */
import type {
  ContentBlockParam,
  Message,
  MessageCreateParamsNonStreaming,
  MessageParam,
  Tool,
} from '@anthropic-ai/sdk/resources/messages';
import type { ModelRequest, ModelResponse } from '../shared/model-contract.js';
import type { ToolSchema } from '../shared/tools/tool-contract.js';
import { readAnswer, readingFor, type RawToolCall, type ReadingOptions } from './answer-reading.js';
import { DEFAULT_MODEL_TIMEOUT_MS } from './model-adapter.js';
import type { ModelAdapter, ModelCallOptions, ProviderModelOptions } from './model-adapter.js';
import { callProvider, endpointOf, sdkFailureOf } from './provider-errors.js';

/** Anthropic requires `max_tokens`; enough for a tool-calling turn or a long answer. */
export const DEFAULT_ANTHROPIC_MAX_TOKENS = 4096;

/** Where the SDK sends requests without a `baseUrl`, named in messages. */
const ANTHROPIC_BASE_URL = 'https://api.anthropic.com';

/** Sent when no key is configured (see OpenAI's adapter): local servers ignore it. */
const NO_API_KEY = 'no-api-key';

export type AnthropicOptions = ProviderModelOptions;

export function createAnthropicModel(options: AnthropicOptions): ModelAdapter {
  const label = options.label ?? `anthropic:${options.model}`;
  const endpoint = endpointOf(options.baseUrl ?? ANTHROPIC_BASE_URL);
  const timeoutMs = options.timeoutMs ?? DEFAULT_MODEL_TIMEOUT_MS;
  const maxTokens = options.maxTokens ?? DEFAULT_ANTHROPIC_MAX_TOKENS;
  return {
    label,
    provider: 'anthropic',
    model: options.model,
    async complete(request: ModelRequest, callOptions: ModelCallOptions): Promise<ModelResponse> {
      const apiKey = options.apiKey?.();
      // Loaded on the first call: a CLI command that never calls a model never loads the SDK.
      const { default: Anthropic } = await import('@anthropic-ai/sdk');
      const client = new Anthropic({
        // Explicit, so the SDK never falls back to ANTHROPIC_API_KEY / ANTHROPIC_AUTH_TOKEN or
        // profiles on disk: the catalog's `apiKeyEnv` is the only source. Without a key a
        // placeholder is sent, which local servers ignore.
        apiKey: apiKey ?? NO_API_KEY,
        authToken: null,
        ...(options.baseUrl === undefined ? {} : { baseURL: options.baseUrl }),
        // Temporal retries the activity; SDK retries would multiply attempts.
        maxRetries: 0,
        timeout: timeoutMs,
      });
      const body = toMessagesRequest(options.model, request, maxTokens);
      const message = await callProvider({
        label,
        endpoint,
        apiKey,
        signal: callOptions.signal,
        timeoutMs,
        send: (requestOptions) => client.messages.create(body, requestOptions),
        sdkFailure: (error) => sdkFailureOf(error, Anthropic),
      });
      return fromMessage(message, label, readingFor({ ...options, maxTokens }, request));
    },
  };
}

/** The request body the SDK sends. Exported for tests and for debugging a provider. */
export function toMessagesRequest(
  model: string,
  request: ModelRequest,
  maxTokens: number = DEFAULT_ANTHROPIC_MAX_TOKENS,
): MessageCreateParamsNonStreaming {
  const messages: MessageParam[] = [];
  // Tool results of one assistant turn go back in ONE user message (Anthropic's rule for
  // parallel tool use), and a user message right after them joins that message as a text block.
  let openToolResults: ContentBlockParam[] | undefined;
  for (const entry of request.transcript) {
    switch (entry.role) {
      case 'assistant': {
        openToolResults = undefined;
        const content: ContentBlockParam[] = [];
        // Anthropic rejects empty text blocks.
        if (entry.content !== '') {
          content.push({ type: 'text', text: entry.content });
        }
        for (const call of entry.toolCalls) {
          content.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
        }
        // An assistant turn with neither text nor calls carries nothing the API would accept.
        if (content.length > 0) {
          messages.push({ role: 'assistant', content });
        }
        break;
      }
      case 'tool': {
        const block: ContentBlockParam = {
          type: 'tool_result',
          tool_use_id: entry.toolCallId,
          content: entry.content,
          ...(entry.isError ? { is_error: true } : {}),
        };
        if (openToolResults === undefined) {
          openToolResults = [block];
          messages.push({ role: 'user', content: openToolResults });
        } else {
          openToolResults.push(block);
        }
        break;
      }
      case 'user':
        if (openToolResults === undefined) {
          messages.push({ role: 'user', content: entry.content });
        } else {
          openToolResults.push({ type: 'text', text: entry.content });
          openToolResults = undefined;
        }
        break;
    }
  }
  return {
    model,
    max_tokens: maxTokens,
    messages,
    ...(request.system === '' ? {} : { system: request.system }),
    ...(request.tools.length === 0 ? {} : { tools: request.tools.map(toAnthropicTool) }),
  };
}

function toAnthropicTool(tool: ToolSchema): Tool {
  return {
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema as Tool['input_schema'],
  };
}

/**
 * Text blocks are concatenated; `tool_use` blocks become tool calls (an input that is not an
 * object is an invalid call, as in fromChatCompletion); other blocks are ignored.
 */
export function fromMessage(
  message: Message,
  label: string,
  reading: ReadingOptions = {},
): ModelResponse {
  const texts: string[] = [];
  const raw: RawToolCall[] = [];
  for (const block of message.content) {
    if (block.type === 'text') {
      texts.push(block.text);
    } else if (block.type === 'tool_use') {
      raw.push({ id: block.id, name: block.name, arguments: block.input });
    }
  }
  const read = readAnswer(
    { text: texts.join(''), calls: raw, cut: message.stop_reason === 'max_tokens' },
    label,
    reading,
  );
  const { usage } = message;
  const cached = usage.cache_read_input_tokens ?? 0;
  return {
    ...read,
    modelLabel: label,
    ...(message.stop_reason ? { finishReason: message.stop_reason } : {}),
    ...(message.model ? { responseModel: message.model } : {}),
    // Anthropic counts cache reads and writes apart from `input_tokens`; deputy's input is all.
    usage: {
      inputTokens: usage.input_tokens + cached + (usage.cache_creation_input_tokens ?? 0),
      outputTokens: usage.output_tokens,
      cachedInputTokens: cached,
    },
  };
}

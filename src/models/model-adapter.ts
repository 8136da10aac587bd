/**
 * The one seam between the runtime and any language model (MOD). The model-call activity holds a
 * `ModelAdapter`; everything provider-specific (SDKs, keys, wire formats) lives behind it.
 */
import { MAX_MODEL_TIMEOUT_SECONDS } from '../config/schema.js';
import type { ModelRequest, ModelResponse } from '../shared/model-contract.js';

/**
 * How long one provider request may take unless its entry says (`timeoutSeconds`): under the
 * model-call activity's 10-minute limit, so a hung server ends with the adapter's message naming
 * the endpoint, not with an anonymous activity timeout.
 */
export const DEFAULT_MODEL_TIMEOUT_MS = MAX_MODEL_TIMEOUT_SECONDS * 1000;

/** Options for one model call. */
export interface ModelCallOptions {
  /** Cancels the HTTP request when the activity is cancelled or times out. */
  signal?: AbortSignal;
}

export interface ModelAdapter {
  /** Human-readable label shown in logs, status and `ModelResponse.modelLabel`. */
  readonly label: string;
  /**
   * Who serves it and what it asks for, as OpenTelemetry's GenAI conventions name them
   * (`gen_ai.provider.name`, `gen_ai.request.model`): `anthropic`, `openai` (any OpenAI-compatible
   * server) or `deputy.scripted`; the provider's model id, or the scripted model's script.
   */
  readonly provider: string;
  readonly model: string;
  /**
   * The model's context window in tokens (a delegation compacts its transcript past
   * 75 % of it); absent: unknown, and only the transcript's size bounds trigger a compaction.
   */
  readonly contextTokens?: number;
  complete(request: ModelRequest, options: ModelCallOptions): Promise<ModelResponse>;
}

/** What a provider adapter (anthropic.ts, openai-compatible.ts) is made from. */
export interface ProviderModelOptions {
  /** Provider-side model name, e.g. `claude-sonnet-4-5`, `gpt-4o-mini`, `llama3.1`. */
  model: string;
  /**
   * API base URL: Anthropic's without `/v1`, an OpenAI-compatible one including it. Default: the
   * provider's public API.
   */
  baseUrl?: string;
  /**
   * Returns the API key, called on every request so a rotated key is picked up without a worker
   * restart. May throw (e.g. `ModelConfigError` for a missing variable). Absent or returning
   * undefined: no key (a local server or a proxy that holds the key itself).
   */
  apiKey?: () => string | undefined;
  /** Shown in errors and `ModelResponse.modelLabel`. Default `<provider>:<model>`. */
  label?: string;
  /** `max_tokens` per answer. Default: 4096 for Anthropic (required there), else not sent. */
  maxTokens?: number;
  /**
   * Per-request timeout in milliseconds. Default DEFAULT_MODEL_TIMEOUT_MS. Always passed
   * explicitly, which also stops Anthropic's SDK from refusing large `maxTokens` on a
   * non-streaming call.
   */
  timeoutMs?: number;
  /** Read tool calls written as JSON text in the answer (content-tool-calls.ts). Default false. */
  toolCallsInContent?: boolean;
}

/**
 * The model handle cannot be turned into an adapter: unknown handle, missing catalog entry,
 * missing API key variable, bad scripted path. Never retryable: retrying will not fix config.
 */
export class ModelConfigError extends Error {
  override readonly name = 'ModelConfigError';
}

/** Options for `ModelCallError`. */
export interface ModelCallErrorOptions {
  /**
   * True when the same request may succeed later (rate limit, 5xx, connection failure, timeout);
   * false when it never will (bad request, authentication, unknown model).
   */
  retryable: boolean;
  /** HTTP status from the provider, when there was one. */
  status?: number;
  /** How long the provider asked to wait before the next try (`retry-after`), milliseconds. */
  retryAfterMs?: number;
  cause?: unknown;
}

/** The provider failed to answer. The message never contains an API key. */
export class ModelCallError extends Error {
  override readonly name = 'ModelCallError';
  readonly retryable: boolean;
  readonly status: number | undefined;
  readonly retryAfterMs: number | undefined;

  constructor(message: string, options: ModelCallErrorOptions) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.retryable = options.retryable;
    this.status = options.status;
    this.retryAfterMs = options.retryAfterMs;
  }
}

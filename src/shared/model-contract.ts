import type { ToolSchema } from './tools/tool-contract.js';

/** A tool call the model asked for. `arguments` is the parsed JSON object. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/**
 * A large tool result kept out of workflow history: the transcript holds a preview and
 * this reference; the model-call activity reads the full text back from the blob store.
 */
export interface BlobRef {
  sha256: string;
  /** Length of the full text, in characters. */
  chars: number;
}

/** One entry of the conversation a model call sees. */
export type TranscriptEntry =
  | {
      role: 'user';
      content: string;
      /** Set on the entry that replaced older rounds (src/shared/compaction.ts). */
      compacted?: { rounds: number; by: 'summary' | 'truncation' };
    }
  | { role: 'assistant'; content: string; toolCalls: ToolCallRequest[] }
  | {
      role: 'tool';
      toolCallId: string;
      toolName: string;
      /** The result, or only its preview when `blob` is set. */
      content: string;
      isError: boolean;
      blob?: BlobRef;
    };

export interface ModelRequest {
  system: string;
  transcript: TranscriptEntry[];
  tools: ToolSchema[];
}

export interface ModelResponse {
  text: string;
  toolCalls: ToolCallRequest[];
  /** Who answered, e.g. `openai/gpt-4o` or `scripted:scripts/demo.yaml (scripted model)`. */
  modelLabel: string;
  /** Tokens of this call as the provider counted them; absent when it reported none. */
  usage?: TokenUsage;
  /** Why the model stopped, in the provider's words (`end_turn`, `tool_calls`, ...); absent: not said. */
  finishReason?: string;
  /** The model that answered, as the provider names it; absent: not said. */
  responseModel?: string;
  /**
   * Calls that cannot run as asked, by call id: why, in words for the model (arguments that are
   * not a JSON object, or that do not fit the tool's parameters). Such a call is answered with
   * this text as a failed tool result and never reaches policy or a tool; its `arguments` are
   * what could be read (`{}` when nothing could). Absent when every call is well-formed.
   */
  invalidCalls?: Record<string, string>;
}

/** One model call's tokens. */
export interface TokenUsage {
  /** Every input token, cached ones included. */
  inputTokens: number;
  outputTokens: number;
  /** Of `inputTokens`, those read from the provider's prompt cache. */
  cachedInputTokens: number;
}

/**
 * A per-call model (`Task`'s `model`, a fork's or a resumed run's) may name the catalog, an alias
 * or `default`, never a script: a script is a file, and only the definitions and the
 * configuration, which agents cannot change without a card, may choose which file answers as a
 * model. Null when the handle may be used.
 */
export function perCallModelProblem(handle: string): string | null {
  return handle.trim().startsWith('scripted:')
    ? `a scripted model cannot be chosen per call ('${handle.trim().slice(0, 80)}'): only an agent's definition or the configuration may name a script; use a catalog handle, an alias or 'default'`
    : null;
}

import type { ToolSchema } from './tools.js';

/** A tool call the model asked for. `arguments` is the parsed JSON object. */
export interface ToolCallRequest {
  id: string;
  name: string;
  arguments: Record<string, unknown>;
}

/** One entry of the conversation a model call sees. */
export type TranscriptEntry =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCallRequest[] }
  | { role: 'tool'; toolCallId: string; toolName: string; content: string; isError: boolean };

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
}

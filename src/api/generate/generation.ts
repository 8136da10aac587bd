/**
 * One plain-text generation on the workspace's default model: the instruction for each
 * kind, the request, and the answer cut into pieces for the stream. No tools: the model writes
 * text and can reach nothing.
 */
import type { DeputyConfig } from '../../config/schema.js';
import type { ModelAdapter } from '../../models/model-adapter.js';
import { createModelAdapter } from '../../models/select-model.js';
import type { ModelRequest } from '../../shared/model-contract.js';
import type { GenerationKind } from './schemas.js';

/** `started.kind`: a named kind, or `text` when the request named none. */
export type GenerationTarget = GenerationKind | 'text';

/**
 * The name the model is chosen under: `models.overrides.generate` picks another model for
 * generation than `models.default`, and model configuration errors name it.
 */
export const GENERATION_AGENT_NAME = 'generate';

const PLAIN = 'Answer in plain text: no Markdown code fences, no preamble, no closing remarks.';

const INSTRUCTIONS: Readonly<Record<GenerationTarget, string>> = {
  description: [
    'You write the description of a subagent: the one paragraph a parent agent reads to decide',
    'whether to hand it a task. The user says what the subagent should do. Write one paragraph of',
    'at most three sentences: what it does, when to use it, and what it will not do. Write it in',
    'the third person, without a heading and without its name.',
    PLAIN,
  ].join(' '),
  systemPrompt: [
    'You write the system prompt of a subagent: the instructions it reads before every task. The',
    'user says what the subagent should do. Address the subagent as "you". Say its role, how to',
    'approach a task step by step, what to check before answering, what it must not do, and what',
    'its final answer should contain. Be concrete and brief; do not invent tools or files.',
    PLAIN,
  ].join(' '),
  text: PLAIN,
};

/** The model request for one generation: the kind's instruction, the prompt, no tools. */
export function generationRequest(target: GenerationTarget, prompt: string): ModelRequest {
  return {
    system: INSTRUCTIONS[target],
    transcript: [{ role: 'user', content: prompt }],
    tools: [],
  };
}

/** The workspace's default model (or `models.overrides.generate`). Throws `ModelConfigError`. */
export function workspaceModel(config: DeputyConfig): ModelAdapter {
  return createModelAdapter({
    handle: 'default',
    agentName: GENERATION_AGENT_NAME,
    level: 'builtin',
    config,
    baseDirectory: config.workspace,
  });
}

/** Pieces of about this many characters; cut after whitespace so no word is split. */
const PIECE_CHARS = 40;

/**
 * `text` in pieces of about 40 characters that join back to exactly `text`. A piece ends after
 * the whitespace that follows a word, so a long word is one piece of its own.
 */
export function textPieces(text: string, size = PIECE_CHARS): string[] {
  const words = text.match(/^\s+|\S+\s*/g) ?? [];
  const pieces: string[] = [];
  let current = '';
  for (const word of words) {
    current += word;
    if (current.length >= size) {
      pieces.push(current);
      current = '';
    }
  }
  if (current !== '') pieces.push(current);
  return pieces;
}

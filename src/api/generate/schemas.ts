/**
 * Request and answer shapes of the text generation routes, as zod schemas next to their
 * types: the routes validate with them and the OpenAPI document is generated from them. The SSE
 * envelope follows qwen-code's workspace generation events (`v: 1`, `type`, `requestId`), so a
 * client written for qwen-code's daemon reads deputy's stream as it is.
 */
import { z } from 'zod';
import { utf8Text } from '../http/fields.js';

/**
 * Largest prompt, in UTF-8 bytes: 16 KiB. A prompt says what an agent should be; anything
 * longer is a document, and it goes to the provider (and its bill) twice on the compat route.
 */
export const MAX_PROMPT_BYTES = 16 * 1024;

export const PromptSchema = utf8Text('prompt', MAX_PROMPT_BYTES)
  .trim()
  .min(1, 'the prompt is empty')
  .describe(`not blank; at most ${MAX_PROMPT_BYTES} bytes (UTF-8)`);

/** What to write: an agent's one-paragraph `description`, or its `systemPrompt` (the body). */
export const GenerationKindSchema = z.enum(['description', 'systemPrompt']);
export type GenerationKind = z.infer<typeof GenerationKindSchema>;

export const GenerateBodySchema = z
  .object({
    prompt: PromptSchema,
    /**
     * Omitted: the prompt is answered as it is, in plain text. That is what qwen-code's SDK sends
     * (`{prompt}` with the instruction inside it); deputy's own clients name the kind.
     */
    kind: GenerationKindSchema.optional(),
  })
  .strict();
export type GenerateBody = z.infer<typeof GenerateBodySchema>;

/**
 * The compat route takes the agent's idea as `prompt`, or as `description`, the key qwen-code's
 * SDK sends (`generateWorkspaceAgent(description)`). Exactly one of them.
 */
export const GenerateAgentBodySchema = z
  .object({ prompt: PromptSchema.optional(), description: PromptSchema.optional() })
  .strict()
  .refine((body) => (body.prompt === undefined) !== (body.description === undefined), {
    message: "give the agent's idea as 'prompt' (or 'description'), exactly one of them",
    path: ['prompt'],
  });
export type GenerateAgentBody = z.infer<typeof GenerateAgentBodySchema>;

/** The answer of `POST /workspace/agents/generate`. */
export const GeneratedAgentSchema = z.object({
  /** Derived from the prompt (or the description): `^[a-z0-9][a-z0-9-]*$`, at most 64 characters. */
  name: z.string(),
  description: z.string(),
  systemPrompt: z.string(),
  /** The model that wrote both, e.g. `scripted:scripts/gen.yaml (scripted model)`. */
  model: z.string(),
});
export type GeneratedAgent = z.infer<typeof GeneratedAgentSchema>;

const envelope = { v: z.literal(1), requestId: z.string() };

/**
 * One event of the `POST /workspace/generate` stream; its SSE `event:` field repeats `type`.
 * `modelSource` is always `main` (deputy has one default model per workspace); it is there
 * because qwen-code's clients refuse `started` and `done` events without it.
 */
export const GenerationEventSchema = z.discriminatedUnion('type', [
  z.object({
    ...envelope,
    type: z.literal('started'),
    model: z.string(),
    modelSource: z.literal('main'),
    kind: z.enum(['description', 'systemPrompt', 'text']),
  }),
  z.object({
    ...envelope,
    type: z.literal('delta'),
    /** 0, 1, 2, ... in the order the pieces are sent. */
    seq: z.number().int().min(0),
    /** Never empty; the pieces joined are the whole text. */
    text: z.string().min(1),
  }),
  z.object({
    ...envelope,
    type: z.literal('done'),
    model: z.string(),
    modelSource: z.literal('main'),
  }),
  z.object({
    ...envelope,
    type: z.literal('error'),
    code: z.enum(['model_error', 'invalid_config', 'internal']),
    message: z.string(),
  }),
]);
export type GenerationEvent = z.infer<typeof GenerationEventSchema>;

/** The stream's envelope in words, for the OpenAPI document and anyone reading the schemas. */
export const GENERATION_SSE_ENVELOPE = [
  'Server-Sent Events, `content-type: text/event-stream`. Each event has `event: <type>` and one',
  "`data:` line holding a JSON object with `v: 1`, the same `type` and the stream's `requestId`;",
  'there is no `id:` (a generation cannot be resumed: send the request again).',
  '`started` {model, modelSource: "main", kind} comes first; then `delta` {seq, text} pieces',
  '(seq 0, 1, 2, ...; text never empty; joined they are the whole answer, plain text); then',
  'exactly one terminal event: `done` {model, modelSource: "main"} or',
  '`error` {code: model_error | invalid_config | internal, message}, after which the stream ends.',
  'Comment lines (`: keep-alive`) may come while the model works. Configured secrets are',
  'masked in every event. Closing the connection cancels the model call.',
].join(' ');

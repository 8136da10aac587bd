/**
 * Request and response shapes of the delegation API, as zod schemas next to their types. The
 * same schemas validate requests and feed the OpenAPI document (src/api/openapi.ts).
 */
import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../definitions/names.js';
import { DurationSchema } from '../definitions/schema.js';
import { DELEGATION_STATUSES } from '../shared/delegation.js';
import { AGENT_NAME_PATTERN, ID_PATTERN } from '../temporal/delegations/ids.js';

const IdSchema = z
  .string()
  .regex(ID_PATTERN, "1-64 letters, digits, '_' or '-', starting with a letter or digit");

/**
 * Largest task, in UTF-8 bytes: 64 KiB. A task travels in the workflow input, the first prompt
 * and every continue-as-new; far larger ones belong in a workspace file the task names.
 */
export const MAX_TASK_BYTES = 64 * 1024;

const AgentNameSchema = z
  .string()
  .max(MAX_NAME_LENGTH, `at most ${MAX_NAME_LENGTH} characters`)
  .regex(AGENT_NAME_PATTERN, 'an agent name: lowercase letters, digits, -');

/**
 * A string of at most `limit` UTF-8 bytes (what travels in history and payloads is bytes, not
 * characters); the issue says how long it was. The one length rule for tasks, prompts and bodies.
 */
export function utf8Text(label: string, limit: number): z.ZodString {
  return z.string().check((ctx) => {
    const bytes = Buffer.byteLength(ctx.value, 'utf8');
    if (bytes > limit) {
      ctx.issues.push({
        code: 'custom',
        input: ctx.value,
        message: `the ${label} is ${bytes} bytes; the limit is ${limit} bytes (UTF-8)`,
      });
    }
  });
}

const TaskSchema = utf8Text('task', MAX_TASK_BYTES)
  .trim()
  .min(1, 'the task is empty')
  .describe(`not blank; at most ${MAX_TASK_BYTES} bytes (UTF-8)`);

export const StartDelegationBodySchema = z
  .object({
    agent: AgentNameSchema,
    task: TaskSchema,
    /** Parent session the cards are forwarded to; `default` when omitted. */
    session: IdSchema.optional(),
    /** Chosen by the caller for idempotent starts; generated when omitted. */
    delegationId: IdSchema.optional(),
    /** Return at once even with `?wait=true`. */
    background: z.boolean().optional(),
    /** No human will answer: every `ask` becomes `deny` (POL-3). */
    unattended: z.boolean().optional(),
    /** How long its cards wait (`30m`), over the definition's and the workspace's. */
    maxTokens: z
      .number()
      .int()
      .positive()
      .optional()
      .describe("token budget (input + output), over the definition's `maxTokens`"),
    cardTimeout: DurationSchema.optional().describe(
      "how long this delegation's approval cards wait (`90s`, `30m`, `2h`) before they are settled",
    ),
  })
  .strict();
export const ForkDelegationBodySchema = z
  .object({
    /** The last round of the original the fork keeps. */
    fromRound: z.number().int().positive(),
    agent: AgentNameSchema.optional(),
    model: z.string().min(1).max(200).optional(),
    session: IdSchema.optional(),
    delegationId: IdSchema.optional(),
  })
  .strict();
export type ForkDelegationBody = z.infer<typeof ForkDelegationBodySchema>;

export type StartDelegationBody = z.infer<typeof StartDelegationBodySchema>;

export const StartDelegationQuerySchema = z.object({
  wait: z.enum(['true', 'false']).optional(),
});

export const DelegationStatusSchema = z.enum(DELEGATION_STATUSES);

export const ListDelegationsQuerySchema = z
  .object({
    session: IdSchema.optional(),
    agent: AgentNameSchema.optional(),
    status: DelegationStatusSchema.optional(),
  })
  .strict();

export const EventsQuerySchema = z.object({
  /** Resume after this event sequence number (the SSE `Last-Event-ID` header wins). */
  after: z.coerce.number().int().min(0).optional(),
});

export const DecideCardBodySchema = z
  .object({
    decision: z.enum(['approve', 'deny']),
    /** Shown to the model on deny; recorded on approve. */
    reason: z.string().max(2000).optional(),
  })
  .strict();
export type DecideCardBody = z.infer<typeof DecideCardBodySchema>;

/** Largest user message to a session, like a task: it travels in history and every prompt. */
const MessageSchema = utf8Text('message', MAX_TASK_BYTES)
  .trim()
  .min(1, 'the message is empty')
  .describe(`not blank; at most ${MAX_TASK_BYTES} bytes (UTF-8)`);

export const StartSessionBodySchema = z
  .object({
    /** The main agent; the built-in `main` when omitted. */
    agent: AgentNameSchema.optional(),
    /** The first user message; without one the session waits for `POST /sessions/:id/messages`. */
    message: MessageSchema.optional(),
    /** Chosen by the caller; generated (`s-...`) when omitted. */
    sessionId: IdSchema.optional(),
    /** No human will answer: every `ask` of the session and its children becomes `deny`. */
    unattended: z.boolean().optional(),
  })
  .strict();

export const SendMessageBodySchema = z.object({ text: MessageSchema }).strict();

export const ListSessionsQuerySchema = z
  .object({
    agent: AgentNameSchema.optional(),
    status: DelegationStatusSchema.optional(),
  })
  .strict();

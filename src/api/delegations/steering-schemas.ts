/**
 * Steering and reviving delegations: the bodies of POST /delegations/{id}/messages and
 * POST /delegations/{id}/resume, the queued message, and a delegation's origin, as zod schemas
 * next to their types.
 */
import { z } from 'zod';
import {
  AgentNameSchema,
  Count,
  IdSchema,
  MAX_TASK_BYTES,
  Timestamp,
  utf8Text,
} from '../http/fields.js';
import { component } from '../openapi/parts.js';

const MessageTextSchema = utf8Text('text', MAX_TASK_BYTES)
  .refine((text) => text.trim() !== '', 'the message is empty')
  .describe(`not blank; at most ${MAX_TASK_BYTES} bytes (UTF-8), as a task`);

export const SendDelegationMessageBodySchema = z
  .object({
    text: MessageTextSchema,
    messageId: IdSchema.optional().describe(
      'names this send: a repeat with the same id (after a lost answer) is not queued twice',
    ),
  })
  .strict();
export type SendDelegationMessageBody = z.infer<typeof SendDelegationMessageBodySchema>;

export const ResumeDelegationBodySchema = z
  .object({
    text: MessageTextSchema,
    agent: AgentNameSchema.optional(),
    model: z.string().min(1).max(200).optional(),
    session: IdSchema.optional(),
    delegationId: IdSchema.optional(),
  })
  .strict();
export type ResumeDelegationBody = z.infer<typeof ResumeDelegationBodySchema>;

export const SteeringMessageSchema = component(
  'SteeringMessage',
  z.object({
    seq: Count.describe('1, 2, 3... in the order the delegation took them; delivered in order'),
    text: z.string(),
    from: z.string().nullable().describe('user id of the sender; null with auth off'),
    messageId: z.string().optional(),
    sentAt: Timestamp,
    deliveredAt: Timestamp.nullable().describe(
      'when it joined the transcript; null while it waits for the next round boundary',
    ),
    deliveredBeforeRound: Count.nullable().describe('the model round that first saw it'),
  }),
);

export const DelegationOriginSchema = component(
  'DelegationOrigin',
  z.object({
    delegationId: z.string().describe('the delegation it was forked or resumed from'),
    fromRound: Count.describe("the original's last round it kept"),
    resumed: z
      .literal(true)
      .optional()
      .describe('set when it was resumed with a new message (deputy resume), not forked'),
  }),
);

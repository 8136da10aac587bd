/**
 * Request and response shapes of the delegation API, as zod schemas next to their types. The
 * same schemas validate requests and feed the OpenAPI document (src/api/openapi.ts).
 */
import { z } from 'zod';
import { AGENT_NAME_PATTERN, ID_PATTERN } from '../temporal/delegations/ids.js';

const IdSchema = z
  .string()
  .regex(ID_PATTERN, "1-64 letters, digits, '_' or '-', starting with a letter or digit");

export const StartDelegationBodySchema = z
  .object({
    agent: z.string().regex(AGENT_NAME_PATTERN, 'an agent name: lowercase letters, digits, -'),
    task: z.string().trim().min(1, 'the task is empty'),
    /** Parent session the cards are forwarded to; `default` when omitted. */
    session: IdSchema.optional(),
    /** Chosen by the caller for idempotent starts; generated when omitted. */
    delegationId: IdSchema.optional(),
    /** Return at once even with `?wait=true`. */
    background: z.boolean().optional(),
    /** No human will answer: every `ask` becomes `deny` (POL-3). */
    unattended: z.boolean().optional(),
  })
  .strict();
export type StartDelegationBody = z.infer<typeof StartDelegationBodySchema>;

export const StartDelegationQuerySchema = z.object({
  wait: z.enum(['true', 'false']).optional(),
});

export const DelegationStatusSchema = z.enum([
  'running',
  'parked',
  'completed',
  'failed',
  'stopped',
]);

export const ListDelegationsQuerySchema = z
  .object({
    session: IdSchema.optional(),
    agent: z.string().regex(AGENT_NAME_PATTERN, 'an agent name').optional(),
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

export const ErrorBodySchema = z.object({
  error: z.string(),
  message: z.string().optional(),
  issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
});

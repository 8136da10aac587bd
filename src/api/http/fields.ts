/**
 * Fields the areas' request and answer schemas share: ids, agent names, byte-limited text, a
 * delegation's status, timestamps and counts. Each area's `schemas.ts` builds on them.
 */
import { z } from 'zod';
import { MAX_NAME_LENGTH } from '../../definitions/names.js';
import { DELEGATION_STATUSES } from '../../shared/delegation.js';

export { MAX_TASK_BYTES } from '../../shared/task-limit.js';
import { AGENT_NAME_PATTERN, ID_PATTERN } from '../../temporal/delegations/ids.js';

export const IdSchema = z
  .string()
  .regex(ID_PATTERN, "1-64 letters, digits, '_' or '-', starting with a letter or digit");

export const AgentNameSchema = z
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

export const DelegationStatusSchema = z.enum(DELEGATION_STATUSES);

export const EventsQuerySchema = z.object({
  /** Resume after this event sequence number (the SSE `Last-Event-ID` header wins). */
  after: z.coerce.number().int().min(0).optional(),
});

/** Timestamps as deputy writes them (`Date.prototype.toISOString`, UTC). */
export const Timestamp = z.iso.datetime();
export const Count = z.number().int().min(0);

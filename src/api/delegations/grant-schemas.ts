/** A grant as the API shows it: in a delegation's state and a revocation's answer. */
import { z } from 'zod';
import { Timestamp } from '../http/fields.js';
import { component } from '../openapi/parts.js';

const GrantScopeSchema = component(
  'GrantScope',
  z
    .discriminatedUnion('kind', [
      z.object({
        kind: z.literal('paths'),
        paths: z.array(z.string()).describe('the exact files and folders, absolute and resolved'),
      }),
      z.object({
        kind: z.literal('commands'),
        patterns: z
          .array(z.string())
          .describe('`Bash(<prefix>:*)` patterns, one per simple command of the approved one'),
      }),
      z.object({ kind: z.literal('mcp'), target: z.string().describe('`server/tool`') }),
    ])
    .describe('what later calls of the tool it covers (docs/policy.md, "Allow for the rest")'),
);

export const GrantSchema = component(
  'Grant',
  z.object({
    n: z.number().int().describe('its number in this delegation: 1, 2, ...; never reused'),
    tool: z.string().describe('the tool it allows, as the model calls it'),
    scope: GrantScopeSchema,
    cardId: z.string().describe('the card whose approval granted it'),
    grantedBy: z.string().nullable(),
    grantedAt: Timestamp,
    revoked: z
      .object({ at: Timestamp, by: z.string().nullable() })
      .optional()
      .describe('set once revoked: it covers nothing from then on'),
    for: z
      .literal('session')
      .optional()
      .describe(
        "'session' (allow: 'session'): it covers the session's own calls and every delegation it starts with Task; listed in the session's state",
      ),
    delegationId: z
      .string()
      .optional()
      .describe("a session grant given on a Task child's card: that child's delegation id"),
  }),
);

/**
 * Request and answer of `POST /workspace/agents/check` (check-routes.ts), the agent editor's
 * live validation, as zod schemas next to their types.
 */
import { z } from 'zod';
import { MAX_DEFINITION_BYTES } from '../../definitions/read/parse.js';
import { MAX_VALUE_DEPTH } from '../../definitions/read/yaml-read.js';
import { AgentDetailSchema, WritableLevelSchema } from './schemas.js';
import { utf8Text } from '../http/fields.js';

export const CheckAgentBodySchema = z
  .strictObject({
    source: utf8Text('source', MAX_DEFINITION_BYTES)
      .optional()
      .describe(
        `A whole agent file: YAML frontmatter between \`---\` lines, then the system prompt; at most ${MAX_DEFINITION_BYTES} bytes`,
      ),
    agent: z
      .record(z.string(), z.unknown())
      .superRefine((agent, ctx) => {
        // The fields are checked one by one later, as diagnostics; only a shape no definition
        // has (deeper than any field nests) is refused here, before anything walks it.
        if (nestedDeeperThan(agent, MAX_VALUE_DEPTH)) {
          ctx.addIssue({
            code: 'custom',
            message: `nested deeper than ${MAX_VALUE_DEPTH} levels; no definition field nests this deep`,
          });
        }
      })
      .optional()
      .describe(
        'The fields `POST /workspace/agents` takes (a create body), checked as it would be',
      ),
    level: WritableLevelSchema.optional().describe(
      "Where the agent would be saved: `user` (default) or `project`; a create body's own `scope`/`level` is used when this is absent",
    ),
  })
  .superRefine((body, ctx) => {
    if ((body.source === undefined) === (body.agent === undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: [],
        message:
          'send exactly one of `source` (the agent file as text) or `agent` (the fields POST /workspace/agents takes)',
      });
    }
  });
export type CheckAgentBody = z.infer<typeof CheckAgentBodySchema>;

export const CheckDiagnosticSchema = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  path: z.string().describe('Field path, e.g. `tools[1]`; `` for the file as a whole'),
  code: z.string().describe('Stable code, e.g. `tool.unknown`, `save.invalid`'),
  message: z.string(),
  line: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('With `source`: the 1-based line of the value the path names (or of the YAML error)'),
});
export type CheckDiagnostic = z.infer<typeof CheckDiagnosticSchema>;

export const AgentCheckSchema = z.object({
  v: z.literal(1),
  valid: z
    .boolean()
    .describe(
      'True when saving this definition would be accepted; warnings and resolution errors such as `tool.unknown` do not refuse a save',
    ),
  agent: AgentDetailSchema,
  diagnostics: z.array(CheckDiagnosticSchema),
});
export type AgentCheck = z.infer<typeof AgentCheckSchema>;

/** True when `value` holds arrays or objects nested more than `limit` deep (no recursion). */
function nestedDeeperThan(value: unknown, limit: number): boolean {
  const stack: Array<{ value: unknown; depth: number }> = [{ value, depth: 0 }];
  while (stack.length > 0) {
    const next = stack.pop()!;
    if (next.value === null || typeof next.value !== 'object') continue;
    if (next.depth > limit) return true;
    for (const inner of Object.values(next.value)) {
      stack.push({ value: inner, depth: next.depth + 1 });
    }
  }
  return false;
}

/**
 * Request and answer shapes of the agent authoring routes, as zod schemas next
 * to their types. They follow qwen-code's daemon workspace-agents API, so its SDK's
 * `DaemonClient` works unchanged: the list envelope `{v: 1, workspaceCwd, agents}`, `scope:
 * workspace | global` beside deputy's own level names, `{ok: true, agent}` answers. Field rules
 * are the definition schema's own (src/definitions/schema.ts): one rule for files and the API.
 */
import { z } from 'zod';
import {
  frontmatterShape,
  HOOK_EVENTS,
  NameSchema,
  PERMISSION_MODES,
} from '../../definitions/schema.js';
import { APPROVAL_MODES } from '../../shared/policy-contract.js';
import { utf8Text } from '../http/fields.js';
import { CARD_TIMEOUT_OUTCOMES } from '../../shared/capability-snapshot.js';
import { SandboxDeclarationSchema } from '../../config/sandbox-schema.js';

/** Largest system prompt accepted, in UTF-8 bytes: 256 KiB, as qwen-code's daemon. */
export const MAX_SYSTEM_PROMPT_BYTES = 256 * 1024;

/** qwen-code's scope names, and the deputy level each one means. */
export const SCOPE_LEVELS = { workspace: 'project', global: 'user' } as const;
export const ScopeSchema = z.enum(['workspace', 'global']);
export const WritableLevelSchema = z.enum(['project', 'user']);

const SystemPromptSchema = utf8Text('system prompt', MAX_SYSTEM_PROMPT_BYTES).describe(
  `The Markdown body, kept byte for byte; at most ${MAX_SYSTEM_PROMPT_BYTES} bytes`,
);

/**
 * qwen-code's legacy turn limit. Only `max_turns` is read (maxTurns wins when both are set);
 * `max_time_minutes` and other keys are refused rather than stored and ignored.
 */
export const RunConfigSchema = z.strictObject({ max_turns: z.number().int().positive() });

/**
 * `mcpServers` as deputy writes it (a list of configured names and inline servers) or as
 * qwen-code and Claude Code write it (`{name: {transport|type, command, ...}}`; `{}` names a
 * server configured for the workspace). Entries are checked one by one after normalizing.
 */
export const McpServersInputSchema = z
  .union([z.array(z.unknown()), z.record(z.string(), z.unknown())])
  .describe(
    'A list of configured server names and inline servers, or a record name -> server ({} = the workspace server of that name)',
  );

/** Fields a request may set, beside the frontmatter's own: where and what the body is. */
const requestOnlyShape = {
  systemPrompt: SystemPromptSchema,
  runConfig: RunConfigSchema,
  mcpServers: McpServersInputSchema,
};

const fieldShape = { ...frontmatterShape, ...requestOnlyShape };
type FieldShape = typeof fieldShape;
/** Every field name a create or update body may carry. */
export const AGENT_BODY_FIELDS = Object.keys(fieldShape) as Array<keyof FieldShape>;

export const CreateAgentBodySchema = z
  .object(fieldShape)
  .partial()
  .extend({
    name: NameSchema,
    description: frontmatterShape.description,
    systemPrompt: SystemPromptSchema,
    /** qwen-code: `workspace` = project level, `global` = user level. */
    scope: ScopeSchema.optional(),
    /** deputy's level names; default `project`. Must agree with `scope` when both are sent. */
    level: WritableLevelSchema.optional(),
  })
  .strict();
export type CreateAgentBody = z.infer<typeof CreateAgentBodySchema>;

/** Any subset of the fields; `null`, `[]` and `{}` clear one; the prompt is never null. */
export const UpdateAgentBodySchema = z.strictObject({
  ...(Object.fromEntries(
    Object.entries(frontmatterShape).map(([key, schema]) => [key, schema.nullable().optional()]),
  ) as {
    [K in keyof typeof frontmatterShape]: z.ZodOptional<
      z.ZodNullable<(typeof frontmatterShape)[K]>
    >;
  }),
  runConfig: RunConfigSchema.nullable().optional(),
  mcpServers: McpServersInputSchema.nullable().optional(),
  systemPrompt: SystemPromptSchema.optional(),
});
export type UpdateAgentBody = z.infer<typeof UpdateAgentBodySchema>;

export const DuplicateAgentBodySchema = z.strictObject({
  name: NameSchema.describe('The copy\u2019s name'),
  scope: ScopeSchema.optional(),
  /** Default `user`, where seed 004 puts customised built-ins. */
  level: WritableLevelSchema.optional(),
});
export type DuplicateAgentBody = z.infer<typeof DuplicateAgentBodySchema>;

/** `?scope=` (or `?level=`) picks the level when a name exists at several. */
export const AgentLevelQuerySchema = z.strictObject({
  scope: ScopeSchema.optional(),
  level: z.enum(['project', 'user', 'builtin', 'ecosystem']).optional(),
});

const DiagnosticSchema = z.object({
  severity: z.enum(['error', 'warning', 'info']),
  path: z.string(),
  code: z.string(),
  message: z.string(),
});

export const AgentSummarySchema = z.object({
  kind: z.literal('agent'),
  name: z.string(),
  description: z.string(),
  level: z.enum(['builtin', 'user', 'project', 'ecosystem']),
  isBuiltin: z.boolean(),
  readOnly: z.boolean(),
  readOnlyReason: z.string().optional(),
  /** False for a file whose name another level (or an earlier file) wins. */
  effective: z.boolean(),
  hasTools: z.boolean().describe('Derived: the definition declares a tools allowlist'),
  tools: z.array(z.string()).describe('[] = every tool the caller may use'),
  disallowedTools: z.array(z.string()),
  model: z.string(),
  approvalMode: z.enum(APPROVAL_MODES),
  permissionMode: z.enum(PERMISSION_MODES).nullable(),
  /** What the agent runs with: `approvalMode`, or what `permissionMode` maps to when it applies. */
  effectivePolicy: z.object({
    approvalMode: z.enum(APPROVAL_MODES),
    flags: z.object({
      readOnly: z.boolean().optional(),
      noHuman: z.boolean().optional(),
      protectInFullAccess: z.boolean().optional(),
    }),
  }),
  maxTurns: z.number().int(),
  maxTokens: z
    .number()
    .int()
    .optional()
    .describe('token budget: the delegation stops before a model call past it; absent: none'),
  runConfig: z.record(z.string(), z.unknown()).optional(),
  background: z.boolean(),
  cardTimeout: z
    .string()
    .optional()
    .describe("how long the agent's cards wait; absent: the workspace's"),
  cardReminder: z.string().optional().describe('a reminder this long before a card deadline'),
  cardTimeoutOutcome: z.enum(CARD_TIMEOUT_OUTCOMES).optional(),
  sandbox: SandboxDeclarationSchema.optional().describe(
    "what its bash calls may touch, as declared; absent: the workspace's `sandbox`, else off",
  ),
  color: z.string(),
  icon: z.string(),
  displayOrder: z.number().int(),
  skills: z.array(z.string()),
  knowledge: z.array(z.object({ name: z.string(), glob: z.string() })),
  memory: z.enum(['none', 'private', 'shared']),
  mcpServerNames: z.array(z.string()),
  hookEvents: z.array(z.enum(HOOK_EVENTS)),
  filePath: z.string(),
  contentHash: z.string(),
  diagnosticCount: z.object({
    total: z.number().int(),
    error: z.number().int(),
    warning: z.number().int(),
    info: z.number().int(),
  }),
});
export type AgentSummary = z.infer<typeof AgentSummarySchema>;

export const RevisionSchema = z.object({
  id: z.string(),
  name: z.string(),
  level: z.enum(['project', 'user']),
  createdAt: z.string(),
  contentHash: z.string(),
  size: z.number().int(),
});

/** `GET .../revisions/:rev`: a revision's text and the current file's, secrets `__redacted__`. */
export const RevisionTextSchema = z.object({
  revision: RevisionSchema,
  content: z.string(),
  current: z.string().nullable().describe("the file at the revision's level now; null: deleted"),
});

export const AgentDetailSchema = AgentSummarySchema.extend({
  systemPrompt: z.string(),
  /** name -> server; secrets (env values, headers, OAuth client secrets) as `__redacted__`. */
  mcpServers: z.record(z.string(), z.record(z.string(), z.unknown())),
  hooks: z.record(
    z.string(),
    z.array(
      z.object({
        command: z.string(),
        timeoutSeconds: z.number().optional(),
        format: z.literal('claude').optional(),
        matcher: z.string().optional(),
      }),
    ),
  ),
  diagnostics: z.array(DiagnosticSchema),
  revisions: z.array(RevisionSchema),
});
export type AgentDetail = z.infer<typeof AgentDetailSchema>;

export const AgentListSchema = z.object({
  v: z.literal(1),
  workspaceCwd: z.string(),
  agents: z.array(AgentSummarySchema),
  /** Problems that are not one agent's, e.g. an invalid workspace configuration file. */
  errors: z
    .array(z.object({ kind: z.string(), status: z.literal('error'), error: z.string() }))
    .optional(),
});

export const AgentMutationSchema = z.object({
  ok: z.literal(true),
  agent: AgentDetailSchema,
  changed: z.boolean().optional(),
});

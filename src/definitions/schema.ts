/**
 * The strict frontmatter schema used when saving through the API. The same
 * schema publishes the JSON Schema of the API, and its pieces validate values on tolerant load.
 */
import { isAbsolute } from 'node:path';
import { z } from 'zod';
import { CARD_TIMEOUT_OUTCOMES } from '../shared/capability-snapshot.js';
import { DurationSchema } from '../config/duration.js';
import {
  APPROVAL_MODES,
  PERMISSION_MODES,
  type PermissionMode,
} from '../shared/policy-contract.js';
import { formatPath } from './read/issue-path.js';
import { MAX_NAME_LENGTH, NAME_PATTERN } from './names.js';
import { SandboxDeclarationSchema } from '../config/sandbox-schema.js';

/** More skills than this is a save error and a load diagnostic. */
export const MAX_SKILLS = 16;
/** Events a hook may run at (the `hooks` field). */
export const HOOK_EVENTS = ['PreToolUse', 'PostToolUse', 'Stop'] as const;
export const MEMORY_MODES = ['none', 'private', 'shared'] as const;
/**
 * Claude Code's permission modes (one list, in src/shared/policy-contract.ts). Read, kept and
 * served like any field, and mapped onto the policy (src/policy/permission-mode.ts)
 * unless the file sets `approvalMode` too, which wins.
 */
export { PERMISSION_MODES, type PermissionMode };

export const NameSchema = z
  .string()
  .max(MAX_NAME_LENGTH)
  .regex(NAME_PATTERN, 'must match ^[a-z0-9][a-z0-9-]*$ (lower-case letters, digits and hyphens)');

const NonBlank = z.string().regex(/\S/, 'must not be empty');

export const ToolSpecSchema = NonBlank.describe(
  'Provider, Provider:Tool, Tool, mcp:server or mcp:server:tool (CAP-1)',
);

/** A workspace-relative glob; absolute globs and `..` segments are refused. */
export const KnowledgeGlobSchema = NonBlank.refine(
  (glob) => !isAbsolute(glob) && !/^[A-Za-z]:/.test(glob),
  {
    message: 'must be relative to the workspace',
  },
).refine((glob) => !glob.split(/[\\/]/).includes('..'), {
  message: 'must not leave the workspace (no ".." segment)',
});

export const KnowledgeSourceSchema = z.strictObject({
  name: NonBlank,
  glob: KnowledgeGlobSchema,
});

const StringRecord = z.record(z.string(), z.string());

/**
 * OAuth client credentials of an http server. Declared and validated here; the secret is
 * answered as `__redacted__` by the API. Connecting with it is the MCP gateway's (not yet).
 */
export const McpOAuthSchema = z.strictObject({
  clientId: NonBlank,
  clientSecret: z.string().optional(),
  tokenUrl: z.url().optional(),
  scopes: z.array(NonBlank).optional(),
});

/** An inline MCP server: name and transport required; http needs endpoint; stdio needs command. */
export const InlineMcpServerSchema = z
  .strictObject({
    name: NonBlank,
    transport: z.enum(['stdio', 'http']),
    command: NonBlank.optional(),
    args: z.array(z.string()).optional(),
    env: StringRecord.optional(),
    endpoint: z.url().optional(),
    headers: StringRecord.optional(),
    toolTimeoutSeconds: z.number().min(0).optional(),
    auth: z.literal('bearer').optional(),
    oauth: McpOAuthSchema.optional(),
    approve: z.array(NonBlank).optional(),
  })
  .superRefine((server, ctx) => {
    const wrongFields =
      server.transport === 'stdio'
        ? (['endpoint', 'headers', 'auth', 'oauth'] as const)
        : (['command', 'args', 'env'] as const);
    if (server.transport === 'http' && server.endpoint === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['endpoint'],
        message: 'an http server needs an endpoint',
      });
    }
    if (server.transport === 'stdio' && server.command === undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['command'],
        message: 'a stdio server needs a command',
      });
    }
    for (const field of wrongFields) {
      if (server[field] !== undefined) {
        const message =
          field === 'auth'
            ? '`auth: bearer` is only allowed on http servers'
            : field === 'oauth'
              ? '`oauth` is only allowed on http servers'
              : `'${field}' does not apply to a ${server.transport} server`;
        ctx.addIssue({ code: 'custom', path: [field], message });
      }
    }
  });

export const McpServerEntrySchema = z.union([NonBlank, InlineMcpServerSchema]);

export const HookCommandSchema = z.strictObject({
  command: NonBlank,
  timeoutSeconds: z.number().positive().optional(),
  // A hook read from Claude Code's form, as the API shows it (definition.ts HookCommand).
  format: z.literal('claude').optional(),
  matcher: z.string().optional(),
});

export const HooksSchema = z.partialRecord(z.enum(HOOK_EVENTS), z.array(HookCommandSchema));

/** Every frontmatter field with its save-time rule, in the key order new files use. */
export const frontmatterShape = {
  name: NameSchema,
  description: z
    .string({
      error: (issue) =>
        issue.input === undefined ? 'required: a non-empty description' : 'must be a string',
    })
    .regex(/\S/, 'must not be empty')
    .describe('Required non-empty on save; inlined into the parent Task tool'),
  model: NonBlank.describe('`default`, a catalog handle `provider/model`, or `scripted:<path>`'),
  tools: z
    .array(ToolSpecSchema)
    .describe('Allowlist; omitted or [] = every tool the caller may use'),
  disallowedTools: z.array(ToolSpecSchema),
  skills: z.array(NonBlank).max(MAX_SKILLS, `at most ${MAX_SKILLS} skills`),
  mcpServers: z.array(McpServerEntrySchema),
  knowledge: z.array(KnowledgeSourceSchema),
  memory: z.enum(MEMORY_MODES),
  maxTurns: z.number().int().positive(),
  /**
   * qwen-code's legacy form of the turn limit (read and written; maxTurns wins). Other
   * keys a hand-written file has are kept; the API refuses them on the way in.
   */
  runConfig: z.looseObject({ max_turns: z.number().int().positive().optional() }),
  maxTokens: z
    .number()
    .int()
    .positive()
    .describe('Token budget (input + output) of a delegation; it stops before the call past it'),
  approvalMode: z.enum(APPROVAL_MODES),
  permissionMode: z
    .enum(PERMISSION_MODES)
    .describe("Claude Code's permission mode: mapped onto the policy unless approvalMode is set"),
  background: z.boolean(),
  cardTimeout: DurationSchema.describe(
    'How long an approval card waits for a decision (`90s`, `30m`, `2h`) before it is settled',
  ),
  cardReminder: DurationSchema.describe("A reminder this long before a card's deadline"),
  cardTimeoutOutcome: z
    .enum(CARD_TIMEOUT_OUTCOMES)
    .describe('What a card becomes when its deadline passes; `deny` by default'),
  hooks: HooksSchema,
  sandbox: SandboxDeclarationSchema,
  color: NonBlank,
  icon: NonBlank,
  displayOrder: z.number().int(),
} as const;

export type FrontmatterField = keyof typeof frontmatterShape;
export const FRONTMATTER_FIELDS = Object.keys(frontmatterShape) as FrontmatterField[];

const READ_TOOL_SPECS = new Set(['read', 'filesystem', 'filesystem:read']);

/** True when a declared `tools` list cannot reach the `read` tool (knowledge sources need it). */
export function toolsLackRead(tools: readonly string[] | null | undefined): boolean {
  if (tools === null || tools === undefined || tools.length === 0) return false;
  return !tools.some((spec) => READ_TOOL_SPECS.has(spec.trim().toLowerCase()));
}

type FrontmatterShape = typeof frontmatterShape;
type RequiredField = 'name' | 'description';
type Optionalized = { [K in RequiredField]: FrontmatterShape[K] } & {
  [K in Exclude<FrontmatterField, RequiredField>]: z.ZodOptional<FrontmatterShape[K]>;
};

function optionalShape(): Optionalized {
  const shape: Record<string, z.ZodType> = {};
  for (const field of FRONTMATTER_FIELDS) {
    const required = field === 'name' || field === 'description';
    shape[field] = required ? frontmatterShape[field] : frontmatterShape[field].optional();
  }
  return shape as Optionalized;
}

function crossFieldChecks(
  value: {
    tools?: string[] | undefined;
    knowledge?: unknown[] | undefined;
    mcpServers?: unknown[] | undefined;
  },
  ctx: z.RefinementCtx,
): void {
  if ((value.knowledge?.length ?? 0) > 0 && toolsLackRead(value.tools)) {
    ctx.addIssue({
      code: 'custom',
      path: ['knowledge'],
      message: 'knowledge sources need the read tool: add `read` (or `FileSystem`) to tools',
    });
  }
  const seen = new Set<string>();
  value.mcpServers?.forEach((entry, index) => {
    const name = typeof entry === 'string' ? entry : (entry as { name: string }).name;
    if (seen.has(name)) {
      ctx.addIssue({
        code: 'custom',
        path: ['mcpServers', index],
        message: `server '${name}' is declared twice`,
      });
    }
    seen.add(name);
  });
}

/** The frontmatter accepted by create: `name` and `description` required, no unknown keys. */
export const AgentFrontmatterSchema = z.strictObject(optionalShape()).superRefine(crossFieldChecks);
export type AgentFrontmatter = z.infer<typeof AgentFrontmatterSchema>;

/** Same rules, but keys deputy does not know are let through (they are kept by write-back). */
const LooseFrontmatterSchema = z.object(optionalShape()).superRefine(crossFieldChecks);

/**
 * The body of an update: any subset of the fields; `null`, `[]` and `{}` clear a field.
 * Unknown keys are refused so a typo is a 422, not a silently ignored field.
 */
export const AgentFrontmatterChangesSchema = z.strictObject(
  Object.fromEntries(
    FRONTMATTER_FIELDS.map((field) => [field, frontmatterShape[field].nullable().optional()]),
  ) as { [K in FrontmatterField]: z.ZodOptional<z.ZodNullable<FrontmatterShape[K]>> },
);
export type AgentFrontmatterChanges = z.infer<typeof AgentFrontmatterChangesSchema>;

export interface ValidationIssue {
  path: string;
  message: string;
}

export type ValidationResult<T> = { ok: true; value: T } | { ok: false; issues: ValidationIssue[] };

export interface ValidateOptions {
  /** Let keys deputy does not know through (updating a file that already has some). Default false. */
  allowUnknownKeys?: boolean;
}

/** Strict save validation: every problem is listed; nothing is coerced. */
export function validateForSave(
  frontmatter: unknown,
  options: ValidateOptions = {},
): ValidationResult<AgentFrontmatter> {
  const schema =
    options.allowUnknownKeys === true ? LooseFrontmatterSchema : AgentFrontmatterSchema;
  const result = schema.safeParse(frontmatter);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: toIssues(result.error) };
}

/** Validates the body of an update before it is merged into the file. */
export function validateChanges(changes: unknown): ValidationResult<AgentFrontmatterChanges> {
  const result = AgentFrontmatterChangesSchema.safeParse(changes);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, issues: toIssues(result.error) };
}

export function toIssues(error: z.ZodError): ValidationIssue[] {
  return flattenIssues(error.issues, []);
}

/**
 * A failed union (an `mcpServers` entry is a name or an inline server) reports the branch that
 * matched the value's type, so the path points at the wrong field rather than at the entry.
 */
function flattenIssues(
  issues: readonly z.core.$ZodIssue[],
  prefix: PropertyKey[],
): ValidationIssue[] {
  return issues.flatMap((issue): ValidationIssue[] => {
    const path = [...prefix, ...issue.path];
    if (issue.code === 'unrecognized_keys') {
      return [
        {
          path: formatPath([...path, ...(issue.keys.length === 1 ? issue.keys : [])]),
          message: `unknown field${issue.keys.length === 1 ? '' : 's'}: ${issue.keys.join(', ')}`,
        },
      ];
    }
    if (issue.code === 'invalid_union') {
      const branch = issue.errors.find(
        (branchIssues) =>
          !branchIssues.some((inner) => inner.code === 'invalid_type' && inner.path.length === 0),
      );
      if (branch !== undefined) return flattenIssues(branch, path);
    }
    return [{ path: formatPath(path), message: issue.message }];
  });
}

/** JSON Schema (draft 2020-12) of the frontmatter accepted on create, for the API's OpenAPI document. */
export function frontmatterJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(AgentFrontmatterSchema, { io: 'input' }) as Record<string, unknown>;
}

/** JSON Schema of an update body: every field optional and nullable. */
export function frontmatterChangesJsonSchema(): Record<string, unknown> {
  return z.toJSONSchema(AgentFrontmatterChangesSchema, { io: 'input' }) as Record<string, unknown>;
}

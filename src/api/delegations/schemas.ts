/**
 * Delegations' requests and answers, as zod schemas next to their types: the same schemas
 * validate requests and feed the OpenAPI document. They follow the facade's contract
 * (src/shared/delegation.ts, src/temporal/delegations/types.ts) plus what each route wraps around
 * it (links, status, message); test/api/openapi.test.ts parses real answers with them.
 * A registered schema is used as it is at every place that refers to it: `.describe()` on it
 * would make a copy without the component's name, and the document would inline the copy
 * instead of referring to the component (src/api/openapi/parts.ts).
 */
import { z } from 'zod';
import { DurationSchema } from '../../config/duration.js';
import { ApprovalCardSchema } from '../cards/schemas.js';
import {
  AgentNameSchema,
  Count,
  DelegationStatusSchema,
  IdSchema,
  MAX_TASK_BYTES,
  Timestamp,
  utf8Text,
} from '../http/fields.js';
import { component } from '../openapi/parts.js';
import { SCHEDULE_NAME_PATTERN } from '../../temporal/schedules/names.js';
import { DelegationOriginSchema, SteeringMessageSchema } from './steering-schemas.js';
import { GrantSchema } from './grant-schemas.js';
import { APPROVAL_MODES, PERMISSION_MODES } from '../../shared/policy-contract.js';

/**
 * A caller's own permission mode, as Claude Code names them: the run's
 * ceiling. Shared by POST /delegations and POST /sessions.
 */
export const CallerModeSchema = z
  .enum(PERMISSION_MODES)
  .describe(
    "the caller's own permission mode, as Claude Code names it: the delegation runs at the lower (stricter) of the agent's policy and this mode, never wider than either; omitted: the agent's own",
  );

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
    /** No human will answer: every `ask` becomes `deny`. */
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
    callerMode: CallerModeSchema.optional(),
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

export const ListDelegationsQuerySchema = z
  .object({
    session: IdSchema.optional(),
    agent: AgentNameSchema.optional(),
    status: DelegationStatusSchema.optional(),
    /** Only the runs of this schedule (DeputySchedule, src/temporal/schedules). */
    schedule: z.string().regex(SCHEDULE_NAME_PATTERN).optional(),
  })
  .strict();

export const DelegationStatus = component('DelegationStatus', DelegationStatusSchema);

/** A tool call that did not run because policy or a human said no. */
export const DeniedCallSchema = component(
  'DeniedCall',
  z.object({
    tool: z.string(),
    by: z
      .enum(['policy', 'human', 'deadline'])
      .describe(
        '`policy`: decide() or an unknown tool; `human`: a card was denied; `deadline`: its card expired',
      ),
    reason: z.string(),
  }),
);

export const DeniedCallsSchema = z.array(DeniedCallSchema);

export const UsageSchema = component(
  'Usage',
  z.object({
    inputTokens: Count.describe('every input token, cached ones included'),
    outputTokens: Count,
    cachedInputTokens: Count.describe('of the input, read from the provider prompt cache'),
    modelCalls: Count,
    modelCallsWithoutUsage: Count.describe(
      'calls whose provider reported no usage: not in the token counts',
    ),
  }),
);

export const DelegationResultSchema = component(
  'DelegationResult',
  z.object({
    status: z.enum(['completed', 'failed', 'stopped']),
    text: z
      .string()
      .describe('Final answer, or the partial result when stopped or cut by `maxTurns`'),
    notice: z
      .string()
      .nullable()
      .describe('Visible notice when the run ended early (`maxTurns`, stop, model failure)'),
    roundsUsed: Count,
    deniedCalls: DeniedCallsSchema.describe(
      'Calls denied during the run: a completed run with denials did not do all it was asked',
    ),
    usage: UsageSchema.optional().describe('tokens of its model calls'),
  }),
);

const PolicyFlagsSchema = z
  .object({
    readOnly: z.boolean().optional().describe('plan: every change is denied'),
    noHuman: z.boolean().optional().describe('dontAsk: what would ask is denied at once'),
    protectInFullAccess: z
      .boolean()
      .optional()
      .describe('bypassPermissions: protected writes still ask under full-access'),
  })
  .describe('the flags decide() honours with the approval mode; {} when none');

export const PermissionSchema = component(
  'Permission',
  z.object({
    approvalMode: z
      .enum(APPROVAL_MODES)
      .describe("what its policy decides with: the lower of the agent's own and the caller's mode"),
    policyFlags: PolicyFlagsSchema,
    callerMode: z
      .enum(PERMISSION_MODES)
      .nullable()
      .describe('the permission mode its caller stated; null when none'),
    agent: z
      .object({ approvalMode: z.enum(APPROVAL_MODES), policyFlags: PolicyFlagsSchema })
      .describe("what the agent runs with by itself, before the caller's ceiling"),
    capped: z
      .boolean()
      .describe("the caller's mode made it stricter than the agent alone would have run"),
  }),
);

export const SandboxSchema = component(
  'Sandbox',
  z.object({
    readOnly: z.array(z.string()).describe('paths it may read besides the system folders'),
    readWrite: z.array(z.string()).describe('paths it may read and write; the workspace first'),
    env: z.array(z.string()).describe("the worker's environment variables passed in, by name"),
    limits: z.object({
      cpuSeconds: z.number().int().optional(),
      memoryMiB: z.number().int().optional(),
      processes: z.number().int().optional(),
    }),
  }),
);

export const DelegationStateSchema = component(
  'DelegationState',
  z.object({
    delegationId: z.string(),
    workflowId: z.string(),
    agent: z.string(),
    session: z.string(),
    status: DelegationStatus,
    roundsUsed: Count,
    maxTurns: Count.describe(
      '0 when no worker could be asked (the state is rebuilt from visibility)',
    ),
    model: z.string().nullable(),
    definitionHash: z
      .string()
      .nullable()
      .describe('sha256 of the definition file this run resolved'),
    pendingCards: z.array(ApprovalCardSchema),
    decidedCards: z.array(ApprovalCardSchema),
    transcriptSummary: z.array(z.string()).describe('one short line per transcript entry'),
    deniedCalls: DeniedCallsSchema.describe(
      'Calls denied so far, in order (the most recent 100 after a continue-as-new)',
    ),
    usage: UsageSchema.optional().describe(
      "tokens so far (a session's include its finished children's); absent when rebuilt from visibility",
    ),
    permission: PermissionSchema.optional().describe(
      "the approval mode and flags it runs with, the permission mode its caller stated and the agent's own; absent before the agent is resolved and when rebuilt from visibility",
    ),
    sandbox: SandboxSchema.nullable()
      .optional()
      .describe(
        'what its bash calls may touch (no network); null: the sandbox is off; absent before the agent is resolved and when rebuilt from visibility',
      ),
    messages: z
      .array(SteeringMessageSchema)
      .optional()
      .describe(
        'messages sent to it while it ran (POST /delegations/{id}/messages), in order, delivered or waiting; absent when none was sent',
      ),
    origin: DelegationOriginSchema.optional(),
    partial: z
      .string()
      .optional()
      .describe(
        'present only when no worker answered and the state was rebuilt from visibility: why. Decided cards, transcript, usage, grants and messages are then unknown, not empty; ask again for the whole state',
      ),
    grants: z
      .array(GrantSchema)
      .optional()
      .describe(
        'what a person allowed for the rest of it (`allow: delegation` on a card), revoked ones included; absent when none',
      ),
    result: DelegationResultSchema.nullable(),
    toolQueue: z
      .string()
      .nullable()
      .optional()
      .describe(
        'the workspace tool queue its model calls, tools and hooks run on (a worker configured with that `temporal.workspaceId` runs them); null when they run on the shared task queue',
      ),
    modelRetry: z
      .object({
        attempt: Count.describe('the attempt running or scheduled next'),
        maximumAttempts: Count.describe("the retry policy's limit; 0 when unlimited"),
        lastFailure: z
          .string()
          .describe('why the last attempt failed: the provider, the status, the attempt'),
        nextAttemptAt: z
          .string()
          .nullable()
          .describe('when the next attempt starts (ISO 8601); null while one runs'),
      })
      .nullable()
      .optional()
      .describe(
        'its model call failed and is being retried (a provider 5xx, 429, timeout or dropped connection); null when none is',
      ),
    withheld: z
      .object({
        message: z.string().describe('who may read it in full'),
        fields: z
          .array(z.string())
          .describe(
            'the fields emptied (`transcriptSummary`, `deniedCalls`, `result.text`, ...) or, for `pendingCards` and `decidedCards`, kept to the cards of `read`-class tools',
          ),
      })
      .optional()
      .describe(
        "With auth, for a caller who is neither an `admin` nor the user who started it: the answer is a summary without the transcript's content",
      ),
  }),
);

export const DelegationSummarySchema = component(
  'DelegationSummary',
  z.object({
    delegationId: z.string(),
    workflowId: z.string(),
    agent: z.string().nullable(),
    session: z.string().nullable(),
    status: DelegationStatus,
    pendingCards: Count.describe('how many approval cards wait on a human'),
    tokens: Count.nullable().describe(
      'input + output tokens as of its last status change; null before its first model call',
    ),
    task: z.string().nullable().describe('first line of the task'),
    startedAt: Timestamp,
    closedAt: Timestamp.nullable(),
    origin: DelegationOriginSchema.optional(),
  }),
);

export const DelegationListSchema = component(
  'DelegationList',
  z.object({ delegations: z.array(DelegationSummarySchema) }),
);

/** What every answer to `POST /delegations` says about the delegation it started. */
const started = {
  delegationId: z.string(),
  workflowId: z.string(),
  session: z.string(),
  agent: z.string(),
  links: component(
    'DelegationLinks',
    z.object({ self: z.string(), events: z.string(), cards: z.string() }),
  ),
};

export const DelegationStartedSchema = component(
  'DelegationStarted',
  z.object({
    ...started,
    status: DelegationStatus,
    result: DelegationResultSchema.nullable(),
  }),
);

export const DelegationStartedUnsettledSchema = component(
  'DelegationStartedUnsettled',
  z.object({
    ...started,
    status: DelegationStatus,
    result: DelegationResultSchema.nullable(),
    state: DelegationStateSchema,
    message: z
      .string()
      .optional()
      .describe('when it is not parked: why it does not move (no worker polls its task queue)'),
  }),
);

export const StopOutcomeSchema = component(
  'StopOutcome',
  z.union([
    z.object({ stopped: z.literal(true) }),
    z.object({ alreadyFinished: z.literal(true), status: DelegationStatus }),
  ]),
);

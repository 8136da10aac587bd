/**
 * What the routes answer, as zod schemas (API-8), each a named component of the OpenAPI
 * document. They follow the facade's contract (src/shared/delegation.ts,
 * src/temporal/delegations/types.ts) plus what each route wraps around it (links, status,
 * message). test/api/openapi.test.ts parses real answers of the routes with the documented
 * schema, and a field a route adds or drops fails there.
 *
 * A registered schema is used as it is at every place that refers to it: `.describe()` on it
 * would make a copy without the component's name, and the document would inline the copy
 * instead of referring to the component.
 */
import { z } from 'zod';
import { MAX_BODY_BYTES } from './body-limit.js';
import { component, jsonResponse, type OpenApiResponse } from './openapi-parts.js';
import { DelegationStatusSchema } from './schemas.js';

/** The body of every refusal, as src/api/errors.ts writes it. */
export const ErrorSchema = component(
  'Error',
  z.object({
    error: z.string().describe('stable snake_case code: `not_found`, `invalid_request`, ...'),
    code: z
      .string()
      .optional()
      .describe("the same code, under the name qwen-code's SDK reads (absent from a 500)"),
    message: z.string().optional(),
    issues: z
      .array(z.object({ path: z.string(), message: z.string() }))
      .optional()
      .describe('with `invalid_request`: what is wrong, by field (at most 20)'),
  }),
);

export const DelegationStatus = component('DelegationStatus', DelegationStatusSchema);

/** Timestamps as deputy writes them (`Date.prototype.toISOString`, UTC). */
const Timestamp = z.iso.datetime();
const Count = z.number().int().min(0);
const DecidedBy = z.string().nullable().describe('user id of who decided; null without auth');
const DecisionId = z
  .string()
  .optional()
  .describe('the deciding request; absent when a stop settled the card');

const Expired = z
  .literal(true)
  .optional()
  .describe('settled by its deadline (`decidedBy` is `deadline`), not by a person');

export const CardStateSchema = component(
  'CardState',
  z.discriminatedUnion('status', [
    z.object({ status: z.literal('pending') }),
    z.object({
      status: z.literal('approved'),
      reason: z.string().nullable(),
      decidedAt: Timestamp,
      decidedBy: DecidedBy,
      decisionId: DecisionId,
      expired: Expired,
    }),
    z.object({
      status: z.literal('denied'),
      reason: z.string(),
      decidedAt: Timestamp,
      decidedBy: DecidedBy,
      decisionId: DecisionId,
      expired: Expired,
    }),
  ]),
);

export const ApprovalCardSchema = component(
  'ApprovalCard',
  z.object({
    id: z.string().describe('`<delegationId>.<n>`'),
    delegationId: z.string(),
    workflowId: z.string(),
    session: z.string(),
    agent: z.string(),
    tool: z.string(),
    arguments: z
      .record(z.string(), z.unknown())
      .describe('secret-looking values replaced by `__redacted__`'),
    reason: z.string(),
    openedAt: Timestamp,
    deadline: Timestamp.optional().describe(
      'when it is settled without a decision (`cardTimeout`); absent: it waits for one',
    ),
    remindAt: Timestamp.optional().describe('when its reminder fires; absent: no reminder'),
    remindedAt: Timestamp.optional().describe('when the reminder fired'),
    state: CardStateSchema,
  }),
);

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
    result: DelegationResultSchema.nullable(),
    toolQueue: z
      .string()
      .nullable()
      .optional()
      .describe(
        'the workspace tool queue its model calls, tools and hooks run on (a worker configured with that `temporal.workspaceId` runs them); null when they run on the shared task queue',
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
  }),
);

export const DelegationListSchema = component(
  'DelegationList',
  z.object({ delegations: z.array(DelegationSummarySchema) }),
);

export const SessionCardsSchema = component(
  'SessionCards',
  z.object({ session: z.string(), cards: z.array(ApprovalCardSchema) }),
);

/** `GET /cards`, and the `snapshot` event of `GET /cards/events`: the pending cards, oldest first. */
export const CardListSchema = component(
  'CardList',
  z.object({ cards: z.array(ApprovalCardSchema) }),
);

/** `card-opened` of `GET /cards/events`: a card that joined the pending set. */
export const CardOpenedEventSchema = component(
  'CardOpenedEvent',
  z.object({ card: ApprovalCardSchema }),
);

/** How a card that left the pending set was settled, when its delegation could tell. */
export const CardOutcomeSchema = component(
  'CardOutcome',
  z.object({
    decision: z.enum(['approve', 'deny']),
    decidedBy: DecidedBy,
    reason: z.string().nullable(),
    decidedAt: Timestamp,
    expired: Expired,
  }),
);

/** `card-closed` of `GET /cards/events`: a card that left the pending set. */
export const CardClosedEventSchema = component(
  'CardClosedEvent',
  z.object({
    cardId: z.string(),
    delegationId: z.string(),
    outcome: CardOutcomeSchema.optional(),
  }),
);

/** `card-outcome` of `GET /cards/events`: how a card closed without an outcome was settled. */
export const CardOutcomeEventSchema = component(
  'CardOutcomeEvent',
  z.object({
    cardId: z.string(),
    delegationId: z.string(),
    outcome: CardOutcomeSchema,
  }),
);

const AuthFlag = z.boolean().describe('whether routes need a bearer token');

/** An invalid edit of the file does not make the API unready: the last good one keeps serving. */
export const ConfigStatusSchema = component(
  'ConfigStatus',
  z
    .discriminatedUnion('ok', [
      z.object({ ok: z.literal(true) }),
      z.object({
        ok: z.literal(false),
        message: z
          .string()
          .describe(
            'What is wrong with the file on disk, safe to print (field paths, never values)',
          ),
        since: Timestamp.describe('When the invalid version was first seen'),
      }),
    ])
    .describe('Whether `.subagents/config.yaml` on disk is the configuration in use'),
);

/** A `.mcp.json` that is not JSON is not fatal either: its servers are off until it is fixed. */
export const McpJsonStatusSchema = component(
  'McpJsonStatus',
  z
    .discriminatedUnion('ok', [
      z.object({ ok: z.literal(true) }),
      z.object({
        ok: z.literal(false),
        message: z.string().describe('The file and the position of the error, never its content'),
      }),
    ])
    .describe(
      'Whether `.mcp.json` (absent counts as fine) is read; while not, none of its servers is',
    ),
);

export const HealthReadySchema = component(
  'HealthReady',
  z.object({
    ok: z.literal(true),
    auth: AuthFlag,
    temporal: z.literal('reachable'),
    config: ConfigStatusSchema,
    mcpJson: McpJsonStatusSchema,
  }),
);

export const HealthUnavailableSchema = component(
  'HealthUnavailable',
  z.object({
    ok: z.literal(false),
    auth: AuthFlag,
    temporal: z.literal('unreachable'),
    config: ConfigStatusSchema,
    mcpJson: McpJsonStatusSchema,
    message: z.string(),
  }),
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

export const CardDecisionSchema = component(
  'CardDecision',
  z.object({
    cardId: z.string(),
    decision: z.enum(['approve', 'deny']),
    reason: z.string().optional().describe('Shown to the model on deny; recorded on approve'),
    decidedBy: z.string().optional(),
  }),
);

export const CardDecisionRecordedSchema = component(
  'CardDecisionRecorded',
  z.object({
    status: z.literal('recorded'),
    card: ApprovalCardSchema,
    decision: CardDecisionSchema,
    message: z.string(),
    links: z.object({ delegation: z.string(), events: z.string() }),
  }),
);

export const OpenApiDocumentSchema = component(
  'OpenApiDocument',
  z.looseObject({ openapi: z.literal('3.1.0'), paths: z.record(z.string(), z.unknown()) }),
);

/** A route's own error status, e.g. `errorAnswer('Unknown delegation')` for its 404. */
export const errorAnswer = (description: string): OpenApiResponse =>
  jsonResponse(ErrorSchema, description);

/** What any route may answer besides its own statuses: the door, validation, Temporal down. */
export const commonErrors: Record<string, OpenApiResponse> = {
  '401': errorAnswer('Missing or invalid bearer token (when auth is configured)'),
  '403': errorAnswer(
    '`forbidden`: a request from a foreign web origin (`Origin`, `Sec-Fetch-Site: cross-site`), or, with auth, a caller without the right (see the route)',
  ),
  '421': errorAnswer(
    '`misdirected_request`: the `Host` is not a loopback name or one in DEPUTY_ALLOWED_HOSTS',
  ),
  '422': errorAnswer('Invalid request: `{"error":"invalid_request","issues":[{path,message}]}`'),
  '500': errorAnswer('Internal error; details are logged, never returned'),
  '503': errorAnswer(
    '`unavailable`: Temporal is not reachable (answered within about 2 s, 4 s when it holds the connection); try again once it is',
  ),
};

/**
 * The 403 of a route that reads a whole transcript (an event stream): with auth, only its owner or
 * an admin may (src/api/transcript-view.ts). Put after `...commonErrors`, which it replaces.
 */
export const transcriptRefused = (what: string): OpenApiResponse =>
  errorAnswer(
    `\`forbidden\`: with auth, a caller who is neither an \`admin\` nor the user who started the ${what} (its transcript, tool results and messages are theirs); or a request from a foreign web origin`,
  );

/** What a route that takes a body adds: its size and its type are checked first. */
export const bodyErrors: Record<string, OpenApiResponse> = {
  '400': errorAnswer('`invalid_json`: the body is not JSON'),
  '413': errorAnswer(`\`payload_too_large\`: the body is over ${MAX_BODY_BYTES} bytes`),
  '415': errorAnswer('`unsupported_media_type`: a body that is not `application/json`'),
};

export const SessionTaskSchema = component(
  'SessionTask',
  z.object({
    taskId: z.string().describe("the child's delegation id (Task's task_id)"),
    workflowId: z.string(),
    agent: z.string(),
    description: z.string(),
    background: z.boolean(),
    status: DelegationStatus,
    roundsUsed: Count,
    pendingCards: Count,
    lastText: z
      .string()
      .describe('its latest answer so far (clipped); its final text once finished'),
    result: DelegationResultSchema.nullable(),
    startedAt: Timestamp,
  }),
);

export const SessionStateSchema = component(
  'SessionState',
  DelegationStateSchema.extend({
    kind: z.literal('session'),
    tasks: z
      .array(SessionTaskSchema)
      .describe('every delegation its Task started (empty when no worker could be asked)'),
    queuedMessages: Count.describe('messages received and not yet taken up'),
  }),
);

const SessionLinks = component(
  'SessionLinks',
  z.object({
    self: z.string(),
    events: z.string(),
    cards: z.string(),
    messages: z.string(),
    delegations: z.string(),
  }),
);

export const SessionStartedSchema = component(
  'SessionStarted',
  z.object({
    sessionId: z.string(),
    workflowId: z.string(),
    agent: z.string(),
    status: z.literal('running'),
    links: SessionLinks,
  }),
);

export const SessionSummarySchema = component(
  'SessionSummary',
  z.object({
    sessionId: z.string(),
    workflowId: z.string(),
    agent: z.string().nullable(),
    status: DelegationStatus,
    pendingCards: Count.describe(
      "the session's own pending cards (its children's are on their rows)",
    ),
    firstMessage: z.string().nullable(),
    startedAt: Timestamp,
    closedAt: Timestamp.nullable(),
  }),
);

export const SessionListSchema = component(
  'SessionList',
  z.object({ sessions: z.array(SessionSummarySchema) }),
);

export const MessageAcceptedSchema = component(
  'MessageAccepted',
  z.object({ accepted: z.literal(true), sessionId: z.string(), links: SessionLinks }),
);

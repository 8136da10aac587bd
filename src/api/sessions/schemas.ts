/**
 * Sessions' requests and answers, as zod schemas: a session's state is a
 * delegation's plus its tasks and queued messages.
 * A registered schema is used as it is at every place that refers to it: `.describe()` on it
 * would make a copy without the component's name, and the document would inline the copy
 * instead of referring to the component (src/api/openapi/parts.ts).
 */
import { z } from 'zod';
import {
  CallerModeSchema,
  DelegationResultSchema,
  DelegationStateSchema,
  DelegationStatus,
} from '../delegations/schemas.js';
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
    callerMode: CallerModeSchema.optional().describe(
      "the caller's own permission mode, as Claude Code names it: the main agent and every delegate its Task starts run at the lower (stricter) of their own policy and this mode; omitted: their own",
    ),
  })
  .strict();

export const SendMessageBodySchema = z.object({ text: MessageSchema }).strict();

export const ListSessionsQuerySchema = z
  .object({
    agent: AgentNameSchema.optional(),
    status: DelegationStatusSchema.optional(),
  })
  .strict();

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

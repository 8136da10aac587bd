/**
 * Cards' requests and answers, as zod schemas: the approval card and its state,
 * the inbox list and its events, a recorded decision. The decision body every door takes is
 * src/asks/decision-body.ts.
 * A registered schema is used as it is at every place that refers to it: `.describe()` on it
 * would make a copy without the component's name, and the document would inline the copy
 * instead of referring to the component (src/api/openapi/parts.ts).
 */
import { z } from 'zod';
import { Timestamp } from '../http/fields.js';
import { component } from '../openapi/parts.js';
import {
  DecisionKindSchema as DecisionKind,
  RICH_DECISION_FIELDS,
} from '../../asks/decision-body.js';

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
      editedArguments: z
        .record(z.string(), z.unknown())
        .optional()
        .describe('the arguments the call ran with instead of the card’s, secrets redacted'),
      grant: z
        .number()
        .int()
        .optional()
        .describe('the number of the grant this approval recorded (`allow: delegation`)'),
    }),
    z.object({
      status: z.literal('denied'),
      reason: z.string(),
      decidedAt: Timestamp,
      decidedBy: DecidedBy,
      decisionId: DecisionId,
      expired: Expired,
    }),
    z.object({
      status: z.literal('answered'),
      answer: z.string().describe("a person's text, given to the model in the tool's place"),
      reason: z.null(),
      decidedAt: Timestamp,
      decidedBy: DecidedBy,
      decisionId: DecisionId,
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
    decision: DecisionKind,
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

export const CardDecisionSchema = component(
  'CardDecision',
  z.object({
    cardId: z.string(),
    decision: DecisionKind,
    reason: z.string().optional().describe('Shown to the model on deny; recorded on approve'),
    decidedBy: z.string().optional(),
    ...RICH_DECISION_FIELDS,
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

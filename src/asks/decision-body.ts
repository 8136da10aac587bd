/**
 * The body of a card decision, as every door takes it: approve, deny, or answer in the tool's
 * place, with a reason and the richer fields (a grant, edited arguments). The HTTP API publishes
 * it (`POST /cards/{id}`, each entry of `POST /cards/decisions`) and the MCP door's
 * `deputy_decide` takes the same fields beside a card id.
 */
import { z } from 'zod';
import {
  CARD_DECISION_KINDS,
  decisionShapeProblem,
  MAX_ANSWER_CHARS,
} from '../shared/cards/card-decision-shape.js';

export const DecisionKindSchema = z.enum(CARD_DECISION_KINDS);

/** A decision's richer fields (answer, allow, arguments), in a body and in a recorded one. */
export const RICH_DECISION_FIELDS = {
  answer: z
    .string()
    .max(MAX_ANSWER_CHARS)
    .optional()
    .describe("decision 'answer': the tool's result in its place; the tool does not run"),
  allow: z
    .enum(['delegation', 'session'])
    .optional()
    .describe(
      "decision 'approve': also allow later calls of the same scope without a card for the rest of this delegation, or with 'session' for the rest of its session: the session's own calls and every delegation it starts with Task (a grant; docs/policy.md). 'session' on a card of a delegation outside a session: 422",
    ),
  arguments: z
    .record(z.string(), z.unknown())
    .optional()
    .describe(
      "decision 'approve': run the call with these arguments instead; checked against the tool's schema and never wider than the card (docs/policy.md)",
    ),
};

/**
 * Every field of a decision, each checked on its own. The combinations (an answer only with
 * `answer`, a grant only with `approve`) are checked by DecideCardBodySchema, or, where a door
 * reports them as the facade words them, by `Delegations.decide`.
 */
export const DECISION_FIELDS = {
  decision: DecisionKindSchema,
  /** Shown to the model on deny; recorded on approve. */
  reason: z.string().max(2000).optional(),
  ...RICH_DECISION_FIELDS,
};

export const DecideCardBodySchema = z
  .object(DECISION_FIELDS)
  .strict()
  .superRefine((body, context) => {
    const problem = decisionShapeProblem(body);
    if (problem !== null) context.addIssue({ code: 'custom', message: problem });
  });
export type DecideCardBody = z.infer<typeof DecideCardBodySchema>;

/** `POST /cards/decisions`: several cards decided in one request, an answer per card. */
import { z } from 'zod';
import { component } from '../openapi/parts.js';
import { ApprovalCardSchema, CardDecisionRecordedSchema } from './schemas.js';

/** Most decisions in one request: a person's inbox, not a bulk import. */
export const MAX_BATCH_DECISIONS = 100;

export const DecideCardsBodySchema = z
  .object({
    decisions: z
      .array(
        z
          .object({ cardId: z.string().min(1).max(220) })
          .passthrough()
          .describe('a card id and the same fields as the body of POST /cards/{id}'),
      )
      .min(1)
      .max(MAX_BATCH_DECISIONS),
  })
  .strict();

export const CardDecisionResultSchema = component(
  'CardDecisionResult',
  z.object({
    cardId: z.string(),
    status: z
      .enum(['decided', 'recorded', 'refused'])
      .describe(
        '`decided`: applied (`card`); `recorded`: stored until a worker applies it (`recorded`); `refused`: not applied (`error`, `message`)',
      ),
    card: ApprovalCardSchema.optional(),
    recorded: CardDecisionRecordedSchema.optional(),
    error: z
      .string()
      .optional()
      .describe('why it was refused: not-found, conflict, forbidden, invalid, unavailable'),
    httpStatus: z
      .number()
      .int()
      .optional()
      .describe('the status POST /cards/{id} would have answered'),
    message: z.string().optional(),
  }),
);

export const CardDecisionResultsSchema = component(
  'CardDecisionResults',
  z.object({ results: z.array(CardDecisionResultSchema).describe('one per decision, in order') }),
);

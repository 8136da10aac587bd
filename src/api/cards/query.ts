/** The inbox's query (`GET /cards`, `GET /cards/events`), apart from schemas.ts, which the delegations' schemas import. */
import type { z } from 'zod';
import { ListDelegationsQuerySchema } from '../delegations/schemas.js';

/** `?session=<id>`: only that session's cards (its own and its delegations'). Other keys are 422. */
export const CardsQuerySchema = ListDelegationsQuerySchema.pick({ session: true });
export type CardsQuery = z.infer<typeof CardsQuerySchema>;

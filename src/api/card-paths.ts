/** The OpenAPI path items of the card routes (card-routes.ts), merged by openapi.ts. */
import { z } from 'zod';
import { jsonResponse, pathParameter, requestBody, type PathItems } from './openapi-parts.js';
import {
  ApprovalCardSchema,
  bodyErrors,
  CardDecisionRecordedSchema,
  commonErrors,
  errorAnswer,
  SessionCardsSchema,
} from './response-schemas.js';
import { DecideCardBodySchema } from './schemas.js';
import { sessionIdParameter } from './session-paths.js';

export const cardPaths: PathItems = {
  '/sessions/{id}/cards': {
    get: {
      summary: "Pending approval cards of a session's delegations",
      parameters: [sessionIdParameter],
      responses: {
        '200': jsonResponse(SessionCardsSchema, 'Pending cards, oldest first'),
        ...commonErrors,
      },
    },
  },
  '/cards/{id}': {
    post: {
      summary: 'Approve or deny a card',
      description:
        'With auth: an `admin` or the user who started the delegation may decide any of its ' +
        'cards; anyone else only a pending card of a read-class tool (else 403).',
      parameters: [pathParameter('id', z.string(), 'Card id: `<delegationId>.<n>`')],
      requestBody: requestBody(DecideCardBodySchema),
      responses: {
        '200': jsonResponse(ApprovalCardSchema, 'The decided card: a worker applied the decision'),
        '202': jsonResponse(
          CardDecisionRecordedSchema,
          'Recorded: stored by Temporal, applied when a worker runs the delegation (none does now, or none did within 3 s)',
        ),
        '404': errorAnswer('Unknown card'),
        '409': errorAnswer('Card already decided, or another decision on it is already recorded'),
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
};

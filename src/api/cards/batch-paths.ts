/** The OpenAPI path item of batch-routes.ts. */
import { jsonResponse, requestBody, type PathItems } from '../openapi/parts.js';
import { bodyErrors, commonErrors } from '../openapi/answers.js';
import { CardDecisionResultsSchema, DecideCardsBodySchema } from './batch-schemas.js';

export const batchDecisionPaths: PathItems = {
  '/cards/decisions': {
    post: {
      summary: 'Decide several pending cards in one request, each applied once',
      description:
        'Each entry is `{cardId, ...}` with the fields of the body of POST /cards/{id} ' +
        '(approve, deny, answer; reason, answer, allow, arguments). They are decided one after ' +
        'the other through the same path as POST /cards/{id} (same rights, same first-decision-' +
        'wins), and the answer has one result per entry, in order: `decided` with the card, ' +
        '`recorded` when no worker applied it yet, or `refused` with why and the status POST ' +
        '/cards/{id} would have answered. Never all-or-nothing: a refused entry leaves the ' +
        'others as they were decided. At most 100 entries.',
      requestBody: requestBody(DecideCardsBodySchema),
      responses: {
        '200': jsonResponse(CardDecisionResultsSchema, 'One result per decision, in order'),
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
};

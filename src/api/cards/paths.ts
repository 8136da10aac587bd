/** The OpenAPI path items of the card routes (routes.ts), merged by api/openapi/document.ts. */
import { z } from 'zod';
import { CardsQuerySchema } from './query.js';
import {
  jsonResponse,
  pathParameter,
  queryParameters,
  requestBody,
  textResponse,
  type PathItems,
} from '../openapi/parts.js';
import {
  ApprovalCardSchema,
  CardDecisionRecordedSchema,
  CardListSchema,
  SessionCardsSchema,
} from './schemas.js';
import { bodyErrors, commonErrors, errorAnswer } from '../openapi/answers.js';
import { DecideCardBodySchema } from '../../asks/decision-body.js';
import { sessionIdParameter } from '../sessions/paths.js';

const inboxQuery = queryParameters(CardsQuerySchema, {
  session: "Only this session's cards (its own and its delegations')",
});

const WHO_SEES_WHAT =
  'With auth: an `admin` sees every pending card; anyone else only the cards they may decide ' +
  '(those of delegations they started, and cards of `read`-class tools), as for `POST /cards/{id}`.';

export const cardPaths: PathItems = {
  '/cards': {
    get: {
      summary: 'Pending approval cards across all sessions and delegations (the approvals inbox)',
      description: WHO_SEES_WHAT,
      parameters: inboxQuery,
      responses: {
        '200': jsonResponse(CardListSchema, 'Pending cards, oldest first'),
        ...commonErrors,
      },
    },
  },
  '/cards/events': {
    get: {
      summary: 'The approvals inbox, live (Server-Sent Events)',
      description:
        'Event names and `data`: `snapshot` (component CardList: every pending card now; sent ' +
        'first, and again after an `error` once Temporal answers), `card-opened` (CardOpenedEvent), ' +
        '`card-closed` (CardClosedEvent: decided, expired, or its delegation stopped or ended; ' +
        '`outcome` when the delegation told within a second), `card-outcome` (CardOutcomeEvent: ' +
        'the outcome of a card closed without one, once its delegation answered), ' +
        '`error` (`{error: "unavailable" | "internal", ' +
        'message}`; the stream keeps trying). No `id:`: a reconnecting client gets a new snapshot. ' +
        `Same filter and visibility as \`GET /cards\`. ${WHO_SEES_WHAT}`,
      parameters: inboxQuery,
      responses: {
        '200': textResponse('Event stream', 'text/event-stream'),
        ...commonErrors,
      },
    },
  },
  '/sessions/{id}/cards': {
    get: {
      summary: "Pending approval cards of a session's delegations",
      description: WHO_SEES_WHAT,
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

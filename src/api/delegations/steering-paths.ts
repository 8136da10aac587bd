/** The OpenAPI path items of steering-routes.ts, merged into delegationPaths. */
import { jsonResponse, requestBody, type PathItems } from '../openapi/parts.js';
import { bodyErrors, commonErrors, errorAnswer } from '../openapi/answers.js';
import { delegationIdParameter } from './paths.js';
import { DelegationStartedSchema } from './schemas.js';
import {
  ResumeDelegationBodySchema,
  SendDelegationMessageBodySchema,
  SteeringMessageSchema,
} from './steering-schemas.js';

const unknownDelegation = errorAnswer('Unknown delegation');

export const steeringPaths: PathItems = {
  '/delegations/{id}/messages': {
    post: {
      summary: 'Send a running delegation a message; its model gets it at the next round boundary',
      description:
        'The message is queued by the delegation itself (a Temporal update whose validator ' +
        'refuses it once the delegation has finished or is finishing) and joins the transcript ' +
        'as a user message before the next model call: after the tool calls of the current round, ' +
        'and for a delegation parked on a card, once the card is decided. Several keep their ' +
        'order. It shows in the transcript, as a `message` event, and in `messages` of ' +
        'GET /delegations/{id}. A worker restart loses none. With auth: only the user who ' +
        'started the delegation or an `admin` (else 403).',
      parameters: [delegationIdParameter],
      requestBody: requestBody(SendDelegationMessageBodySchema),
      responses: {
        '202': jsonResponse(SteeringMessageSchema, 'Queued: delivered at the next round boundary'),
        '404': unknownDelegation,
        '409': errorAnswer('The delegation has finished: resume it instead'),
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
  '/delegations/{id}/resume': {
    post: {
      summary: 'Resume a finished delegation with a new message, as a new delegation',
      description:
        'A completed, failed or stopped delegation goes on as a new delegation whose transcript ' +
        "is the original's whole transcript, read from its history (no tool runs again; a tool " +
        'call whose result never reached the model is answered as not run), then `text` as a ' +
        'user message. It runs under `agent` (default the original one) and `model`, in the ' +
        "original's session unless `session` says otherwise, with a fresh `maxTurns`; linked by " +
        'the `DeputyForkedFrom` search attribute and `origin` (`resumed: true`) in its state and ' +
        'listing row. A running delegation is refused (409: send it a message instead). With ' +
        'auth: only the user who started the original or an `admin` (else 403).',
      parameters: [delegationIdParameter],
      requestBody: requestBody(ResumeDelegationBodySchema),
      responses: {
        '201': jsonResponse(DelegationStartedSchema, 'The resumed delegation started'),
        '404': unknownDelegation,
        '409': errorAnswer('The delegation still runs, or a delegation with the chosen id exists'),
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
};

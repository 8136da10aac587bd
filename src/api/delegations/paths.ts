/** The OpenAPI path items of the delegation routes (routes.ts), merged by api/openapi/document.ts. */
import { z } from 'zod';
import { ID_PATTERN } from '../../temporal/delegations/ids.js';
import {
  jsonResponse,
  pathParameter,
  queryParameters,
  requestBody,
  textResponse,
  type PathItems,
} from '../openapi/parts.js';
import {
  DelegationListSchema,
  DelegationStartedSchema,
  DelegationStartedUnsettledSchema,
  DelegationStateSchema,
  StopOutcomeSchema,
} from './schemas.js';
import { bodyErrors, commonErrors, errorAnswer, transcriptRefused } from '../openapi/answers.js';
import {
  ForkDelegationBodySchema,
  ListDelegationsQuerySchema,
  StartDelegationBodySchema,
  StartDelegationQuerySchema,
} from './schemas.js';
import { EventsQuerySchema } from '../http/fields.js';

/** An id that does not match is answered 404 without asking Temporal (api/http/path-ids.ts). */
export const delegationIdParameter = pathParameter(
  'id',
  z.string().regex(ID_PATTERN),
  'Delegation id',
);

const unknownDelegation = errorAnswer('Unknown delegation');

export const delegationPaths: PathItems = {
  '/delegations': {
    post: {
      summary: 'Start a delegation',
      parameters: queryParameters(StartDelegationQuerySchema, {
        wait: 'Wait for the result (ignored with `background`)',
      }),
      requestBody: requestBody(StartDelegationBodySchema),
      responses: {
        '201': jsonResponse(DelegationStartedSchema, 'Started (and, with `wait=true`, finished)'),
        '202': jsonResponse(
          DelegationStartedUnsettledSchema,
          'With `wait=true`: started, and parked on approval cards (`status: parked`, the cards in `state.pendingCards`), or no worker runs it (`status: running`, `message`)',
        ),
        '404': errorAnswer('Unknown agent'),
        '409': errorAnswer('A delegation with this id exists'),
        ...commonErrors,
        ...bodyErrors,
      },
    },
    get: {
      summary: 'List delegations, newest first',
      parameters: queryParameters(ListDelegationsQuerySchema, {
        session: 'Only this session',
        agent: 'Only this agent',
        status: 'Only this status',
        schedule: 'Only the runs of this schedule',
      }),
      responses: {
        '200': jsonResponse(DelegationListSchema, 'Delegations'),
        ...commonErrors,
      },
    },
  },
  '/delegations/{id}': {
    get: {
      summary: 'State, pending cards and result of a delegation',
      description:
        'With auth, a caller who is neither an `admin` nor the user who started it gets a ' +
        "summary: the same fields with the transcript's content emptied (`transcriptSummary`, " +
        '`deniedCalls`, `result.text`), only the cards of `read`-class tools, and `withheld` ' +
        'saying so.',
      parameters: [delegationIdParameter],
      responses: {
        '200': jsonResponse(DelegationStateSchema, 'The delegation'),
        '404': unknownDelegation,
        ...commonErrors,
      },
    },
  },
  '/delegations/{id}/events': {
    get: {
      summary: 'Live events (Server-Sent Events); pending cards are replayed on attach',
      description:
        'Event names: started, model-turn, tool-call, card-opened, card-decided, card-reminder, message, compacted, finished. ' +
        'Each `data` is the JSON event; `id` is its sequence number, so `Last-Event-ID` resumes. ' +
        'The stream ends after `finished`. With auth: only the user who started the delegation ' +
        'or an `admin` (else 403).',
      parameters: [
        delegationIdParameter,
        ...queryParameters(EventsQuerySchema, { after: 'Resume after this sequence number' }),
      ],
      responses: {
        '200': textResponse('Event stream', 'text/event-stream'),
        '404': unknownDelegation,
        ...commonErrors,
        '403': transcriptRefused('delegation'),
      },
    },
  },
  '/delegations/{id}/stop': {
    post: {
      summary: 'Stop a delegation (TaskStop); a finished one answers alreadyFinished',
      description:
        'With auth: only the user who started the delegation or an `admin` (else 403). ' +
        'An id that cannot exist (over 64 characters, outside the id alphabet) is 404.',
      parameters: [delegationIdParameter],
      responses: {
        '200': jsonResponse(StopOutcomeSchema, 'Stopped, or already finished'),
        '404': unknownDelegation,
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
  '/delegations/{id}/fork': {
    post: {
      summary: 'Fork a delegation from a round: a new one goes on from its transcript',
      description:
        "The new delegation's transcript is the original's up to and including round " +
        '`fromRound`, tool results included, read from its history: no tool of those rounds runs ' +
        'again. It goes on under `agent` (default the original one) and `model`, in the ' +
        "original's session unless `session` says otherwise, linked by the `DeputyForkedFrom` " +
        'search attribute and the `forkedFrom` memo. The original is untouched. With auth: only ' +
        'the user who started the original or an `admin` (else 403).',
      parameters: [delegationIdParameter],
      requestBody: requestBody(ForkDelegationBodySchema),
      responses: {
        '201': jsonResponse(DelegationStartedSchema, 'The fork started'),
        '404': unknownDelegation,
        '409': errorAnswer('A delegation with the chosen id exists'),
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
};

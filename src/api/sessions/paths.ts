/** The OpenAPI path items of the session routes (routes.ts), merged by api/openapi/document.ts. */
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
import { StopOutcomeSchema } from '../delegations/schemas.js';
import { bodyErrors, commonErrors, errorAnswer, transcriptRefused } from '../openapi/answers.js';
import {
  MessageAcceptedSchema,
  SessionListSchema,
  SessionStartedSchema,
  SessionStateSchema,
} from './schemas.js';
import { EventsQuerySchema } from '../http/fields.js';
import {
  ListSessionsQuerySchema,
  SendMessageBodySchema,
  StartSessionBodySchema,
} from './schemas.js';

export const sessionIdParameter = pathParameter('id', z.string().regex(ID_PATTERN), 'Session id');
const unknownSession = errorAnswer('Unknown session');
const ownerOnly = 'With auth: only the user who started the session or an `admin` (else 403).';

export const sessionPaths: PathItems = {
  '/sessions': {
    post: {
      summary: 'Start a session: a main agent that takes messages and delegates with Task',
      description:
        'Without `agent`, the built-in main agent `main` runs. The session is the workflow ' +
        '`session/<id>`; its children are `delegation/<id>/<childId>` with `DeputyParent` set.',
      requestBody: requestBody(StartSessionBodySchema),
      responses: {
        '201': jsonResponse(SessionStartedSchema, 'Started'),
        '404': errorAnswer('Unknown agent'),
        '409': errorAnswer('The id is taken by a session or delegation'),
        ...commonErrors,
        ...bodyErrors,
      },
    },
    get: {
      summary: 'List sessions, newest first',
      parameters: queryParameters(ListSessionsQuerySchema, {
        agent: 'Only this main agent',
        status: 'Only this status (`idle`: waiting for a message)',
      }),
      responses: {
        '200': jsonResponse(SessionListSchema, 'Sessions'),
        ...commonErrors,
      },
    },
  },
  '/sessions/{id}': {
    get: {
      summary: 'State of a session: status, transcript summary, its tasks and own cards',
      description:
        'With auth, a caller who is neither an `admin` nor the user who started it gets a ' +
        "summary: the transcript's content emptied (as for `GET /delegations/{id}`, and each " +
        "task's `lastText` and result text), only the cards of `read`-class tools, and `withheld`.",
      parameters: [sessionIdParameter],
      responses: {
        '200': jsonResponse(SessionStateSchema, 'The session'),
        '404': unknownSession,
        ...commonErrors,
      },
    },
  },
  '/sessions/{id}/messages': {
    post: {
      summary: 'Send the session a user message',
      description: `Stored durably at once (a signal) and taken up in order. ${ownerOnly}`,
      parameters: [sessionIdParameter],
      requestBody: requestBody(SendMessageBodySchema),
      responses: {
        '202': jsonResponse(MessageAcceptedSchema, 'Accepted'),
        '404': unknownSession,
        '409': errorAnswer('The session has ended'),
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
  '/sessions/{id}/events': {
    get: {
      summary: "Live events of the session and its children's cards (Server-Sent Events)",
      description:
        'Event names: started, message, model-turn, tool-call, task-started, task-finished, ' +
        "card-opened, card-decided, card-reminder (the session's own cards and its children's: the card names " +
        'its delegation and agent), reply, finished. On attach, every pending card of the ' +
        'session and its children is sent first (`replayed: true`). `Last-Event-ID` resumes. ' +
        ownerOnly,
      parameters: [
        sessionIdParameter,
        ...queryParameters(EventsQuerySchema, { after: 'Resume after this sequence number' }),
      ],
      responses: {
        '200': textResponse('Event stream', 'text/event-stream'),
        '404': unknownSession,
        ...commonErrors,
        '403': transcriptRefused('session'),
      },
    },
  },
  '/sessions/{id}/stop': {
    post: {
      summary: 'Stop a session: its children are stopped and all their cards denied',
      description: ownerOnly,
      parameters: [sessionIdParameter],
      responses: {
        '200': jsonResponse(StopOutcomeSchema, 'Stopped, or already finished'),
        '404': unknownSession,
        ...commonErrors,
        ...bodyErrors,
      },
    },
  },
};

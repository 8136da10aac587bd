/** Sessions: start, list, read, message, follow and stop a main agent's session. */
import type { Hono } from 'hono';
import { DeputyError } from '../../errors.js';
import { MAIN_AGENT } from '../../shared/session.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import type { Sessions } from '../../temporal/sessions/facade.js';
import { sessionStart } from '../../temporal/start-requests.js';
import { messageRequest } from '../../asks/follow-up-requests.js';
import type { AppEnv } from '../http/app-env.js';
import { assertKnownAgent } from '../http/known-agent.js';
import {
  delegationEventStream,
  resumeAfter,
  type StreamingRouteDeps,
} from '../http/event-stream.js';
import { sessionIdParam } from '../http/path-ids.js';
import { assertMayStop } from '../../rights/rights.js';
import { assertMayFollow, stateFor } from '../../rights/transcript-view.js';
import { EventsQuerySchema } from '../http/fields.js';
import {
  ListSessionsQuerySchema,
  SendMessageBodySchema,
  StartSessionBodySchema,
} from './schemas.js';
import { parseBody, parseQuery } from '../http/validation.js';

export function registerSessionRoutes(
  app: Hono<AppEnv>,
  deps: {
    /** Without it every session route answers 503 (the app was built without Temporal sessions). */
    sessions?: Sessions;
    delegations: Delegations;
  } & StreamingRouteDeps,
): void {
  const { delegations, secrets } = deps;
  const sessionsOf = (): Sessions => {
    if (deps.sessions === undefined) {
      throw new DeputyError('unavailable', 'sessions are not available on this server');
    }
    return deps.sessions;
  };
  const linksOf = (sessionId: string) => ({
    self: `/sessions/${sessionId}`,
    events: `/sessions/${sessionId}/events`,
    cards: `/sessions/${sessionId}/cards`,
    messages: `/sessions/${sessionId}/messages`,
    delegations: `/delegations?session=${sessionId}`,
  });

  app.post('/sessions', async (c) => {
    const body = await parseBody(c, StartSessionBodySchema);
    const agent = body.agent ?? MAIN_AGENT;
    assertKnownAgent(deps.agentNames?.(), agent);
    const started = await sessionsOf().start(
      sessionStart({ ...body, agent, caller: c.get('caller') }, secrets),
    );
    return c.json(
      secrets.value({ ...started, status: 'running', links: linksOf(started.sessionId) }),
      201,
    );
  });

  app.get('/sessions', async (c) => {
    const filter = parseQuery(c, ListSessionsQuerySchema);
    return c.json(secrets.value({ sessions: await sessionsOf().list(filter) }));
  });

  app.get('/sessions/:id', async (c) => {
    const sessionId = sessionIdParam(c);
    const sessions = sessionsOf();
    // Its messages and answers are its owner's or an admin's; others get its summary.
    const state = await stateFor(sessions, c.get('caller'), sessionId, () =>
      sessions.get(sessionId),
    );
    return c.json(secrets.value(state));
  });

  app.post('/sessions/:id/messages', async (c) => {
    const sessionId = sessionIdParam(c);
    const body = await parseBody(c, SendMessageBodySchema);
    const sessions = sessionsOf();
    // The message makes the agent act with its owner's roles: only they (or an admin) may send.
    await assertMayStop(sessions, c.get('caller'), sessionId, `sending to session ${sessionId}`);
    await sessions.send(sessionId, messageRequest({ ...body, from: c.get('caller').id }, secrets));
    return c.json({ accepted: true, sessionId, links: linksOf(sessionId) }, 202);
  });

  app.get('/sessions/:id/events', async (c) => {
    const sessionId = sessionIdParam(c);
    const query = parseQuery(c, EventsQuerySchema);
    const sessions = sessionsOf();
    // 404 for an id that names no session; then every message and answer in it is its owner's
    // or an admin's (403 otherwise, src/rights/transcript-view.ts).
    const owner = await sessions.owner(sessionId);
    assertMayFollow(c.get('caller'), owner, `session ${sessionId}`);
    if (c.req.method === 'HEAD') {
      // As for a delegation's stream: say whether it exists, open nothing (api/delegations/routes.ts).
      return c.body(null, 200, { 'content-type': 'text/event-stream' });
    }
    const after = resumeAfter(c, query.after);
    return delegationEventStream(c, delegations, sessionId, after, deps.logger, {
      ...deps.events,
      secrets,
      // Children's cards opened on their own workflows: a card opened while nobody listened
      // is replayed on the next attach.
      pendingCards: () => sessions.cards(sessionId),
    });
  });

  app.post('/sessions/:id/stop', async (c) => {
    const sessionId = sessionIdParam(c);
    const sessions = sessionsOf();
    await assertMayStop(sessions, c.get('caller'), sessionId, `stopping session ${sessionId}`);
    return c.json(secrets.value(await sessions.stop(sessionId)));
  });
}

/** Delegation routes: start (and wait), list, get, events, stop. */
import type { Hono } from 'hono';
import { DeputyError, isDeputyError } from '../../errors.js';
import type { Delegations, Settled } from '../../temporal/delegations/facade.js';
import { delegationStart } from '../../temporal/start-requests.js';
import { forkRequest } from '../../asks/follow-up-requests.js';
import type { AppEnv } from '../http/app-env.js';
import { assertKnownAgent } from '../http/known-agent.js';
import {
  delegationEventStream,
  resumeAfter,
  type StreamingRouteDeps,
} from '../http/event-stream.js';
import { delegationIdParam } from '../http/path-ids.js';
import { assertMayStop } from '../../rights/rights.js';
import { assertMayFollowId, stateFor } from '../../rights/transcript-view.js';
import {
  ForkDelegationBodySchema,
  ListDelegationsQuerySchema,
  StartDelegationBodySchema,
  StartDelegationQuerySchema,
} from './schemas.js';
import { EventsQuerySchema } from '../http/fields.js';
import { registerSteeringRoutes } from './steering-routes.js';
import { parseBody, parseQuery } from '../http/validation.js';

// eslint-disable-next-line max-lines-per-function -- a register* table: one entry per route, each short.
export function registerDelegationRoutes(
  app: Hono<AppEnv>,
  deps: {
    delegations: Delegations;
    /** The agent's `background: true` returns at once, even with `?wait=true`. */
    isBackground?: (agent: string) => boolean;
  } & StreamingRouteDeps,
): void {
  const { delegations, secrets } = deps;

  app.post('/delegations', async (c) => {
    const query = parseQuery(c, StartDelegationQuerySchema);
    const body = await parseBody(c, StartDelegationBodySchema);
    assertKnownAgent(deps.agentNames?.(), body.agent);
    const { request, background } = delegationStart(
      { ...body, caller: c.get('caller') },
      { masker: secrets, agentRunsInBackground: (agent) => deps.isBackground?.(agent) === true },
    );
    const started = await delegations.start(request);
    const links = linksOf(started);
    if (query.wait === 'true' && !background) {
      const settled = await settleStarted(delegations, started.delegationId, c.req.raw.signal);
      // Finished: 201 with the result. Parked on a card, or no worker to run it: 202 with the
      // state (pending cards included), so a caller never waits on a human it cannot see.
      switch (settled.status) {
        case 'finished': {
          const { result } = settled;
          return c.json(secrets.value({ ...started, status: result.status, result, links }), 201);
        }
        case 'parked':
          return c.json(
            secrets.value({
              ...started,
              status: 'parked',
              result: null,
              state: settled.state,
              links,
            }),
            202,
          );
        case 'running':
          return c.json(
            secrets.value({
              ...started,
              status: settled.state.status,
              result: settled.state.result,
              state: settled.state,
              message: settled.message,
              links,
            }),
            202,
          );
      }
    }
    return c.json(secrets.value({ ...started, status: 'running', result: null, links }), 201);
  });

  app.post('/delegations/:id/fork', async (c) => {
    const body = await parseBody(c, ForkDelegationBodySchema);
    const original = delegationIdParam(c);
    // A fork reads the whole transcript, tool results included: the original's owner's right.
    await assertMayStop(delegations, c.get('caller'), original, `forking delegation ${original}`);
    const forked = await delegations.fork(
      original,
      forkRequest({ ...body, caller: c.get('caller') }),
    );
    return c.json(
      secrets.value({ ...forked, status: 'running', result: null, links: linksOf(forked) }),
      201,
    );
  });

  registerSteeringRoutes(app, { ...deps, linksOf });

  app.get('/delegations', async (c) => {
    const filter = parseQuery(c, ListDelegationsQuerySchema);
    return c.json(secrets.value({ delegations: await delegations.list(filter) }));
  });

  app.get('/delegations/:id', async (c) => {
    const delegationId = delegationIdParam(c);
    // Its transcript is its owner's or an admin's; anyone else gets its summary (transcript-view.ts).
    const state = await stateFor(delegations, c.get('caller'), delegationId, () =>
      delegations.get(delegationId),
    );
    return c.json(secrets.value(state));
  });

  app.get('/delegations/:id/events', async (c) => {
    const delegationId = delegationIdParam(c);
    const query = parseQuery(c, EventsQuerySchema);
    // Every model turn and tool result: the owner's or an admin's, as a fork is (403 otherwise).
    await assertMayFollowId(
      delegations,
      c.get('caller'),
      delegationId,
      `delegation ${delegationId}`,
    );
    if (c.req.method === 'HEAD') {
      // Hono answers HEAD from this GET route and drops the body: a stream opened here would
      // poll Temporal for ever with nobody reading. Say whether it exists, open nothing.
      await delegations.get(delegationId);
      return c.body(null, 200, { 'content-type': 'text/event-stream' });
    }
    const after = resumeAfter(c, query.after);
    return delegationEventStream(c, delegations, delegationId, after, deps.logger, {
      ...deps.events,
      secrets,
    });
  });

  app.post('/delegations/:id/stop', async (c) => {
    const delegationId = delegationIdParam(c);
    await assertMayStop(delegations, c.get('caller'), delegationId);
    return c.json(secrets.value(await delegations.stop(delegationId)));
  });
}

/** Waits for a started delegation; an outage during the wait still names what was started. */
async function settleStarted(
  delegations: Delegations,
  delegationId: string,
  signal: AbortSignal,
): Promise<Settled> {
  try {
    return await delegations.settle(delegationId, { signal });
  } catch (error) {
    if (!isDeputyError(error, 'unavailable')) throw error;
    throw new DeputyError(
      'unavailable',
      `delegation ${delegationId} was started, but waiting for it failed: ${error.message} (GET /delegations/${delegationId} then)`,
      { cause: error },
    );
  }
}

/** Where a started delegation (or fork) is followed: its state, its events, its session's cards. */
function linksOf(started: { delegationId: string; session: string }) {
  return {
    self: `/delegations/${started.delegationId}`,
    events: `/delegations/${started.delegationId}/events`,
    cards: `/sessions/${started.session}/cards`,
  };
}

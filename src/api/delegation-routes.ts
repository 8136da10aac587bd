/** API-5: start, list, get, events, stop. */
import type { Hono } from 'hono';
import { DeputyError } from '../errors.js';
import { DEFAULT_SESSION } from '../temporal/delegations/ids.js';
import type { Delegations } from '../temporal/delegations/facade.js';
import type { AppEnv } from './app-env.js';
import type { Logger } from './errors.js';
import { delegationEventStream, type EventStreamOptions } from './event-stream.js';
import {
  EventsQuerySchema,
  ListDelegationsQuerySchema,
  StartDelegationBodySchema,
  StartDelegationQuerySchema,
} from './schemas.js';
import { parseBody, parseQuery } from './validation.js';

export function registerDelegationRoutes(
  app: Hono<AppEnv>,
  deps: {
    delegations: Delegations;
    logger: Logger;
    events?: EventStreamOptions;
    agentNames?: () => string[];
  },
): void {
  const { delegations } = deps;

  app.post('/delegations', async (c) => {
    const query = parseQuery(c, StartDelegationQuerySchema);
    const body = await parseBody(c, StartDelegationBodySchema);
    const known = deps.agentNames?.();
    if (known !== undefined && !known.includes(body.agent)) {
      throw new DeputyError(
        'not-found',
        `no agent named '${body.agent}' (known agents: ${known.join(', ') || 'none'})`,
      );
    }
    const started = await delegations.start({
      agent: body.agent,
      task: body.task,
      session: body.session ?? DEFAULT_SESSION,
      caller: c.get('caller'),
      options: {
        ...(body.unattended === true ? { unattended: 'deny' as const } : {}),
        ...(body.background === undefined ? {} : { background: body.background }),
      },
      ...(body.delegationId === undefined ? {} : { delegationId: body.delegationId }),
    });
    const links = {
      self: `/delegations/${started.delegationId}`,
      events: `/delegations/${started.delegationId}/events`,
      cards: `/sessions/${started.session}/cards`,
    };
    if (query.wait === 'true' && body.background !== true) {
      const result = await delegations.result(started.delegationId);
      return c.json({ ...started, status: result.status, result, links }, 201);
    }
    return c.json({ ...started, status: 'running', result: null, links }, 201);
  });

  app.get('/delegations', async (c) => {
    const filter = parseQuery(c, ListDelegationsQuerySchema);
    return c.json({ delegations: await delegations.list(filter) });
  });

  app.get('/delegations/:id', async (c) => c.json(await delegations.get(c.req.param('id'))));

  app.get('/delegations/:id/events', async (c) => {
    const query = parseQuery(c, EventsQuerySchema);
    const lastEventId = Number(c.req.header('Last-Event-ID'));
    const after =
      Number.isInteger(lastEventId) && lastEventId >= 0 ? lastEventId : (query.after ?? 0);
    return delegationEventStream(
      c,
      delegations,
      c.req.param('id'),
      after,
      deps.logger,
      deps.events,
    );
  });

  app.post('/delegations/:id/stop', async (c) => c.json(await delegations.stop(c.req.param('id'))));
}

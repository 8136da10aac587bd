/** API-5 cards: list a session's pending cards, decide one (POL-2). */
import type { Hono } from 'hono';
import { assertValidId } from '../temporal/delegations/ids.js';
import type { Delegations } from '../temporal/delegations/facade.js';
import type { AppEnv } from './app-env.js';
import { DecideCardBodySchema } from './schemas.js';
import { parseBody } from './validation.js';

export function registerCardRoutes(app: Hono<AppEnv>, deps: { delegations: Delegations }): void {
  app.get('/sessions/:id/cards', async (c) => {
    const session = c.req.param('id');
    assertValidId('session', session);
    return c.json({ session, cards: await deps.delegations.cards({ session }) });
  });

  app.post('/cards/:id', async (c) => {
    const body = await parseBody(c, DecideCardBodySchema);
    const card = await deps.delegations.decide(c.req.param('id'), {
      decision: body.decision,
      ...(body.reason === undefined ? {} : { reason: body.reason }),
      decidedBy: c.get('caller').id,
    });
    return c.json(card);
  });
}

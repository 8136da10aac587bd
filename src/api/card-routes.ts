/** API-5 cards: list a session's pending cards, decide one (POL-2). */
import type { Hono } from 'hono';
import type { SecretMasker } from '../secrets/masker.js';
import type { Delegations } from '../temporal/delegations/facade.js';
import { isRecorded } from '../temporal/delegations/types.js';
import type { AppEnv } from './app-env.js';
import { cardIdParam, sessionIdParam } from './path-ids.js';
import { assertMayDecide } from './rights.js';
import { DecideCardBodySchema } from './schemas.js';
import { parseBody } from './validation.js';

export function registerCardRoutes(
  app: Hono<AppEnv>,
  deps: { delegations: Delegations; secrets: SecretMasker },
): void {
  // Card arguments are redacted in the workflow already; this also cuts the configured secrets.
  const { secrets } = deps;
  app.get('/sessions/:id/cards', async (c) => {
    const session = sessionIdParam(c);
    return c.json(secrets.value({ session, cards: await deps.delegations.cards({ session }) }));
  });

  app.post('/cards/:id', async (c) => {
    const cardId = cardIdParam(c);
    const body = await parseBody(c, DecideCardBodySchema);
    await assertMayDecide(deps.delegations, c.get('caller'), cardId);
    const outcome = await deps.delegations.decide(cardId, {
      decision: body.decision,
      ...(body.reason === undefined ? {} : { reason: body.reason }),
      decidedBy: c.get('caller').id,
    });
    if (isRecorded(outcome)) {
      // Stored in the delegation's history, not applied yet: no worker runs, or none did within
      // the wait. It applies when one does; the delegation's state and events show the outcome.
      const { delegationId } = outcome.card;
      const links = {
        delegation: `/delegations/${delegationId}`,
        events: `/delegations/${delegationId}/events`,
      };
      return c.json(secrets.value({ ...outcome, links }), 202);
    }
    return c.json(secrets.value(outcome));
  });
}

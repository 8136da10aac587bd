/**
 * Card routes: list a session's pending cards, decide one; and the approvals inbox, every
 * pending card the caller may decide, as a list and as a live stream (inbox.ts,
 * stream.ts).
 */
import type { Hono } from 'hono';
import type { SecretMasker } from '../../secrets/masker.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import { isRecorded } from '../../temporal/delegations/types.js';
import { decideAs } from '../../asks/decide-as.js';
import { DecideCardBodySchema } from '../../asks/decision-body.js';
import type { AppEnv } from '../http/app-env.js';
import { cardVisibility } from '../../rights/card-visibility.js';
import { createCardDecisions } from './decisions.js';
import { registerBatchDecisionRoutes } from './batch-routes.js';
import { cardEventStream } from './stream.js';
import { consoleLogger, type Logger } from '../http/errors.js';
import type { EventStreamOptions } from '../http/event-stream.js';
import { cardIdParam, sessionIdParam } from '../http/path-ids.js';
import { CardsQuerySchema } from './query.js';
import { parseBody, parseQuery } from '../http/validation.js';

export function registerCardRoutes(
  app: Hono<AppEnv>,
  deps: {
    delegations: Delegations;
    secrets: SecretMasker;
    /** Poll and keep-alive intervals of `GET /cards/events`, as for the delegation streams. */
    events?: EventStreamOptions;
    /** Default: the console. */
    logger?: Logger;
  },
): void {
  // One per app: what POST /cards/:id applied reaches this app's inbox streams at once.
  const decisions = createCardDecisions();
  // Card arguments are redacted in the workflow already; this also cuts the configured secrets.
  const { secrets } = deps;
  const logger = deps.logger ?? consoleLogger;
  app.get('/sessions/:id/cards', async (c) => {
    const session = sessionIdParam(c);
    // A card's arguments are part of its delegation's transcript: like the inbox, list only the
    // cards the caller may decide (all of them for an admin, their own, any read card).
    const visible = cardVisibility(deps.delegations, c.get('caller'));
    const cards = await visible(await deps.delegations.cards({ session }));
    return c.json(secrets.value({ session, cards }));
  });

  app.get('/cards', async (c) => {
    const filter = parseQuery(c, CardsQuerySchema);
    const visible = cardVisibility(deps.delegations, c.get('caller'));
    return c.json(secrets.value({ cards: await visible(await deps.delegations.cards(filter)) }));
  });

  app.get('/cards/events', async (c) => {
    const filter = parseQuery(c, CardsQuerySchema);
    if (c.req.method === 'HEAD') {
      // Hono answers HEAD from this GET route and drops the body: a stream opened here would
      // poll Temporal for ever with nobody reading.
      return c.body(null, 200, { 'content-type': 'text/event-stream' });
    }
    const visible = cardVisibility(deps.delegations, c.get('caller'));
    return cardEventStream(
      c,
      {
        delegations: deps.delegations,
        visible,
        secrets,
        logger,
        decisions,
        options: deps.events ?? {},
      },
      filter,
    );
  });

  // Before POST /cards/:id, which would otherwise take `decisions` for a card id.
  registerBatchDecisionRoutes(app, { delegations: deps.delegations, secrets, decisions });

  app.post('/cards/:id', async (c) => {
    const cardId = cardIdParam(c);
    const body = await parseBody(c, DecideCardBodySchema);
    const outcome = await decideAs(deps.delegations, c.get('caller'), cardId, body);
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
    decisions.applied(outcome);
    return c.json(secrets.value(outcome));
  });
}

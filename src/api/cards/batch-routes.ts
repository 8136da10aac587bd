/**
 * `POST /cards/decisions`: several pending cards decided in one request. Each
 * decision goes through the one decision path on its own (decideAs: rights, then Delegations.decide), in
 * order, so each applies at most once and the first decision on a card still wins; the answer
 * says per card whether it was decided, recorded or refused and why. Never all-or-nothing: one
 * refusal does not undo or stop the others.
 */
import type { Hono } from 'hono';
import { DeputyError, HTTP_STATUS } from '../../errors.js';
import { decideAs } from '../../asks/decide-as.js';
import { DecideCardBodySchema } from '../../asks/decision-body.js';
import type { SecretMasker } from '../../secrets/masker.js';
import { delegationIdOfCard } from '../../shared/delegation.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import { isRecorded } from '../../temporal/delegations/types.js';
import type { AppEnv } from '../http/app-env.js';
import { parseBody } from '../http/validation.js';
import { DecideCardsBodySchema } from './batch-schemas.js';
import type { CardDecisions } from './decisions.js';

type Result = Record<string, unknown> & { cardId: string; status: string };

export function registerBatchDecisionRoutes(
  app: Hono<AppEnv>,
  deps: { delegations: Delegations; secrets: SecretMasker; decisions?: CardDecisions },
): void {
  app.post('/cards/decisions', async (c) => {
    const body = await parseBody(c, DecideCardsBodySchema);
    const caller = c.get('caller');
    const results: Result[] = [];
    for (const entry of body.decisions) {
      const { cardId, ...rest } = entry;
      try {
        const parsed = DecideCardBodySchema.safeParse(rest);
        if (!parsed.success) {
          throw new DeputyError(
            'invalid',
            parsed.error.issues.map((issue) => issue.message).join('; '),
          );
        }
        if (delegationIdOfCard(cardId) === null) {
          throw new DeputyError('not-found', `no approval card with id '${cardId.slice(0, 80)}'`);
        }
        const outcome = await decideAs(deps.delegations, caller, cardId, parsed.data);
        if (isRecorded(outcome)) results.push({ cardId, status: 'recorded', recorded: outcome });
        else {
          deps.decisions?.applied(outcome);
          results.push({ cardId, status: 'decided', card: outcome });
        }
      } catch (error) {
        if (!(error instanceof DeputyError)) throw error;
        results.push({
          cardId,
          status: 'refused',
          error: error.kind,
          httpStatus: HTTP_STATUS[error.kind],
          message: error.message,
        });
      }
    }
    return c.json(deps.secrets.value({ results }));
  });
}

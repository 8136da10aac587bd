/**
 * The delegations facade with its starts and card decisions counted (deputy-metrics.ts): the
 * API wraps the facade it is given, so every route and the CLI (through the API's socket) count
 * alike. Only what succeeded is counted; a refused start or decision is the caller's error.
 */
import type { Delegations } from './types.js';
import { isRecorded } from './types.js';
import { deputyMetrics } from '../../metrics/deputy-metrics.js';

export function countedDelegations(delegations: Delegations): Delegations {
  return {
    ...delegations,
    async start(request) {
      const started = await delegations.start(request);
      deputyMetrics.delegationStarted(request.agent);
      return started;
    },
    async decide(cardId, request) {
      const outcome = await delegations.decide(cardId, request);
      const card = isRecorded(outcome) ? outcome.card : outcome;
      deputyMetrics.cardDecided(
        request.decision,
        isRecorded(outcome) ? 'recorded' : 'applied',
        card.openedAt,
      );
      return outcome;
    },
  };
}

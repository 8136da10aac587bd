/**
 * What a person writes into a decision reaches the run: the deny reason and the answer are shown
 * to the model, edited arguments run, and all of it is recorded in the workflow's history. A
 * configured secret typed there is masked first, as a task or a steering message is
 * (start-requests.ts), by the one function every door's decision goes through (the facade's
 * decide), so no door can forget.
 */
import type { SecretMasker } from '../../../secrets/masker.js';
import type { DecideRequest } from '../types.js';

/**
 * `request` with every field masked but the few that are not free text. A field added later is
 * masked unless it is listed here: a new kind of text cannot slip through unmasked.
 */
export function maskedDecision<R extends DecideRequest>(request: R, secrets: SecretMasker): R {
  const { decision, allow, decidedBy, ceiling, ...texts } = request;
  return {
    ...secrets.value(texts),
    decision,
    ...(allow === undefined ? {} : { allow }),
    ...(decidedBy === undefined ? {} : { decidedBy }),
    ...(ceiling === undefined ? {} : { ceiling }),
  } as R;
}

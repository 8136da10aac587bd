/**
 * A provider's failure as the model-call activity reports it to Temporal. Transient failures
 * (5xx, 429, timeouts, broken connections) are retried by the activity's retry policy
 * (MODEL_CALL: 4 attempts, 2 s doubling), never inside the SDK, so each attempt is in history and
 * its message is what `deputy status`, the Temporal UI and the worker log show while it retries:
 * which attempt this was, of how many, and when the next comes. A `retry-after` from the provider
 * replaces the policy's next delay. The last attempt's message becomes the delegation's notice.
 */
import type { Info } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import type { ModelCallError } from '../models/model-adapter.js';
import { seconds } from '../models/provider-errors.js';
import type { SecretMasker } from '../secrets/masker.js';
import { FAILURE_TYPES } from '../shared/workflow-contract/failures.js';

/** Temporal's defaults, for a policy that leaves them out. */
const DEFAULT_INITIAL_MS = 1000;
const DEFAULT_COEFFICIENT = 2;

export function modelCallFailure(
  error: ModelCallError,
  info: Pick<Info, 'attempt' | 'retryPolicy'>,
  secrets: SecretMasker,
): ApplicationFailure {
  // Providers echo what they were sent; the adapter only knows to cut its own key.
  const message = secrets.text(error.message);
  if (!error.retryable) {
    return ApplicationFailure.create({
      message,
      type: FAILURE_TYPES.modelCall,
      nonRetryable: true,
    });
  }
  const { attempt } = info;
  const maximum = info.retryPolicy?.maximumAttempts ?? 0;
  const of = maximum > 0 ? ` of ${maximum}` : '';
  if (maximum > 0 && attempt >= maximum) {
    return ApplicationFailure.create({
      message: `${message} (attempt ${attempt}${of}; no attempts left)`,
      type: FAILURE_TYPES.modelCall,
    });
  }
  const delay = error.retryAfterMs ?? policyDelay(info);
  return ApplicationFailure.create({
    message: `${message} (attempt ${attempt}${of}; trying again in ${seconds(delay)})`,
    type: FAILURE_TYPES.modelCall,
    ...(error.retryAfterMs === undefined ? {} : { nextRetryDelay: error.retryAfterMs }),
  });
}

/** The retry policy's wait after this attempt: initial * coefficient^(attempt - 1), capped. */
function policyDelay({ attempt, retryPolicy }: Pick<Info, 'attempt' | 'retryPolicy'>): number {
  const initial = milliseconds(retryPolicy?.initialInterval) ?? DEFAULT_INITIAL_MS;
  const coefficient = retryPolicy?.backoffCoefficient ?? DEFAULT_COEFFICIENT;
  const maximum = milliseconds(retryPolicy?.maximumInterval) ?? initial * 100;
  return Math.min(initial * coefficient ** (attempt - 1), maximum);
}

/** Activity info carries the policy's intervals as milliseconds (decompileRetryPolicy). */
function milliseconds(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/**
 * Shared by the provider adapters: turn an SDK failure into a `ModelCallError` whose `retryable`
 * flag tells the model-call activity whether Temporal should try again, and whose message can
 * never carry the API key.
 */
import { ModelCallError } from './model-adapter.js';

/**
 * Transient by nature: timeouts (408), lock conflicts (409), rate limits (429), server errors
 * (5xx, including Anthropic's 529 "overloaded"), and no HTTP status at all (connection refused,
 * reset, DNS, client-side timeout). Everything else (400, 401, 403, 404, 422...) repeats forever.
 */
export function isRetryableStatus(status: number | undefined): boolean {
  if (status === undefined) {
    return true;
  }
  return status === 408 || status === 409 || status === 429 || status >= 500;
}

/** Replaces every occurrence of each secret with `[redacted]`. */
export function redactSecrets(text: string, secrets: ReadonlyArray<string | undefined>): string {
  let result = text;
  for (const secret of secrets) {
    // Very short "secrets" (placeholders such as `none`) would mangle ordinary words.
    if (secret !== undefined && secret.length >= 8) {
      result = result.split(secret).join('[redacted]');
    }
  }
  return result;
}

/** Parameters of `providerCallError`. */
export interface ProviderFailure {
  /** The adapter's label, e.g. `openai/gpt-4o-mini`. */
  label: string;
  /** HTTP status, or undefined for a connection-level failure. */
  status: number | undefined;
  /** The SDK's message. Redacted before use; servers sometimes echo the key they rejected. */
  detail: string;
  /** Values that must not appear in the message (the API key). */
  secrets: ReadonlyArray<string | undefined>;
}

/**
 * Builds the `ModelCallError`. The SDK error is deliberately not attached as `cause`: Temporal
 * serializes the whole cause chain into history, and the SDK's own message is unredacted.
 */
export function providerCallError(failure: ProviderFailure): ModelCallError {
  const what = failure.status === undefined ? 'request failed' : `HTTP ${failure.status}`;
  const detail = redactSecrets(failure.detail, failure.secrets);
  return new ModelCallError(`model ${failure.label}: ${what}: ${detail}`, {
    retryable: isRetryableStatus(failure.status),
    ...(failure.status === undefined ? {} : { status: failure.status }),
  });
}

/** How one adapter runs a request and recognizes its SDK's API errors. */
export interface ProviderRequest<T> {
  label: string;
  apiKey: string | undefined;
  signal: AbortSignal | undefined;
  /** The SDK call, given the signal to pass on. */
  send: (options: { signal?: AbortSignal }) => Promise<T>;
  /** The HTTP status of an SDK API error (undefined for connection errors), or null if `error` is not one. */
  apiErrorStatus: (error: unknown) => number | undefined | null;
}

/**
 * Runs one provider request. A cancellation passes through as the activity's own abort reason;
 * an SDK API error becomes a redacted `ModelCallError`; anything else is rethrown as it is.
 */
export async function callProvider<T>(request: ProviderRequest<T>): Promise<T> {
  try {
    return await request.send(request.signal === undefined ? {} : { signal: request.signal });
  } catch (error) {
    if (request.signal?.aborted) {
      // Cancellation, not a provider failure: let the activity see its own abort reason.
      throw request.signal.reason;
    }
    const status = request.apiErrorStatus(error);
    if (status !== null) {
      throw providerCallError({
        label: request.label,
        status,
        detail: (error as Error).message,
        secrets: [request.apiKey],
      });
    }
    throw error;
  }
}

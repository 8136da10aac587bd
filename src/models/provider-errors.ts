/**
 * Shared by the provider adapters: turn an SDK failure into a `ModelCallError` whose `retryable`
 * flag tells the model-call activity whether Temporal should try again, and whose message can
 * never carry the API key.
 */
import { contextOverflowOf, describeContextOverflow } from './context-overflow.js';
import { ModelCallError } from './model-adapter.js';
import { retryAfterMs, type HeaderSource } from './retry-after.js';

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
  /** Where the request went (`endpointOf`), named so the user knows which server failed. */
  endpoint: string;
  /** HTTP status, or undefined for a connection-level failure. */
  status: number | undefined;
  /** The SDK's message. Redacted before use; servers sometimes echo the key they rejected. */
  detail: string;
  /** Values that must not appear in the message (the API key). */
  secrets: ReadonlyArray<string | undefined>;
  /** The answer's headers, for `retry-after`. */
  headers?: HeaderSource | undefined;
  /** The error body as the SDK parsed it, to recognize a context overflow. */
  body?: unknown;
}

/**
 * Builds the `ModelCallError`. The SDK error is deliberately not attached as `cause`: Temporal
 * serializes the whole cause chain into history, and the SDK's own message is unredacted.
 */
export function providerCallError(failure: ProviderFailure): ModelCallError {
  const detail = redactSecrets(failure.detail, failure.secrets);
  const from = `model ${failure.label}: HTTP ${failure.status} from ${failure.endpoint}`;
  if (failure.status === undefined) {
    return new ModelCallError(`model ${failure.label}: request failed: ${detail}`, {
      retryable: true,
    });
  }
  const overflow = contextOverflowOf(failure.status, failure.body, failure.detail);
  if (overflow !== null) {
    return new ModelCallError(`${from}: ${describeContextOverflow(overflow)} (${detail})`, {
      retryable: false,
      status: failure.status,
    });
  }
  const wait = isRetryableStatus(failure.status) ? retryAfterMs(failure.headers) : undefined;
  const asks = wait === undefined ? '' : ` (it asks to wait ${seconds(wait)})`;
  return new ModelCallError(`${from}${asks}: ${detail}`, {
    retryable: isRetryableStatus(failure.status),
    status: failure.status,
    ...(wait === undefined ? {} : { retryAfterMs: wait }),
  });
}

/** What an SDK tells about one of its errors: null when the error is not the SDK's API error. */
export interface SdkFailure {
  /** Undefined for a connection-level failure (refused, reset, timed out). */
  status: number | undefined;
  message: string;
  headers?: HeaderSource | undefined;
  body?: unknown;
  /** The SDK's own timeout ended the request. */
  timedOut: boolean;
  cause?: unknown;
}

/** An error class of an SDK, for `instanceof`. */
type ErrorClass = abstract new (...args: never[]) => Error;

/** The error classes both SDKs (generated alike by Stainless) export. */
export interface SdkErrorClasses {
  APIError: ErrorClass;
  APIUserAbortError: ErrorClass;
  APIConnectionTimeoutError: ErrorClass;
}

/** The fields of an SDK's `APIError` read here (Anthropic's adds `apiMessage`). */
interface ApiErrorFields {
  status?: number;
  headers?: HeaderSource;
  error?: unknown;
  apiMessage?: string | null;
}

/**
 * What `error` is as an SDK API error, or null when it is something else (an abort is the
 * activity's own, not the provider's). Anthropic's SDK message is the whole JSON body, so its
 * `apiMessage`, the provider's own words, is used when there is one.
 */
export function sdkFailureOf(error: unknown, sdk: SdkErrorClasses): SdkFailure | null {
  if (!(error instanceof sdk.APIError) || error instanceof sdk.APIUserAbortError) return null;
  const fields = error as Error & ApiErrorFields;
  return {
    status: fields.status,
    message:
      typeof fields.apiMessage === 'string'
        ? `${fields.status} ${fields.apiMessage}`
        : fields.message,
    headers: fields.headers,
    body: fields.error,
    timedOut: fields instanceof sdk.APIConnectionTimeoutError,
    cause: fields.cause,
  };
}

/** How one adapter runs a request and recognizes its SDK's API errors. */
export interface ProviderRequest<T> {
  label: string;
  /** Where the request goes (`endpointOf`), for messages. */
  endpoint: string;
  apiKey: string | undefined;
  signal: AbortSignal | undefined;
  /** The request's own timeout, milliseconds, named when it ends a request. */
  timeoutMs: number;
  /** The SDK call, given the signal to pass on. */
  send: (options: { signal?: AbortSignal }) => Promise<T>;
  /** The SDK's view of `error`, or null if it is not one of its API errors. */
  sdkFailure: (error: unknown) => SdkFailure | null;
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
    const failure = request.sdkFailure(error);
    if (failure === null) throw error;
    const detail =
      failure.status !== undefined
        ? failure.message
        : failure.timedOut
          ? `no answer from ${request.endpoint} within ${seconds(request.timeoutMs)} (the entry's timeoutSeconds)`
          : `connection to ${request.endpoint} failed (${connectionCause(failure.cause) ?? failure.message})`;
    throw providerCallError({
      label: request.label,
      endpoint: request.endpoint,
      status: failure.status,
      detail,
      secrets: [request.apiKey],
      headers: failure.headers,
      body: failure.body,
    });
  }
}

/**
 * The base URL as messages show it: scheme, host and path, without credentials or a query a
 * proxy URL might carry.
 */
export function endpointOf(baseUrl: string): string {
  try {
    const url = new URL(baseUrl);
    return `${url.protocol}//${url.host}${url.pathname.replace(/\/$/, '')}`;
  } catch {
    return '(invalid base URL)';
  }
}

/**
 * Why a connection failed, in the innermost words that say (fetch wraps the socket's error):
 * `connect ECONNREFUSED 127.0.0.1:9`, `other side closed`, `read ECONNRESET`.
 */
function connectionCause(cause: unknown): string | undefined {
  let found: string | undefined;
  for (let error = cause, depth = 0; error instanceof Error && depth < 5; depth++) {
    if (error.message !== '' && error.message !== 'fetch failed') found = error.message;
    error = error.cause;
  }
  return found;
}

/** `5 s`, `0.3 s`, `2 min`. */
export function seconds(milliseconds: number): string {
  if (milliseconds >= 120_000) return `${Math.round(milliseconds / 60_000)} min`;
  const value = milliseconds / 1000;
  return `${Number.isInteger(value) ? value : value.toFixed(1)} s`;
}

/**
 * How long a provider asks us to wait before trying again (a 429's or 503's `retry-after`). The
 * model-call activity hands it to Temporal as the next retry's delay, so a rate-limited model is
 * asked again when the provider said, not on the retry policy's own schedule.
 */

/** The longest wait honoured: a provider asking for more still gets asked after this long. */
export const MAX_RETRY_AFTER_MS = 120_000;

/** The headers of an SDK error (a fetch `Headers`), or anything with the same `get`. */
export interface HeaderSource {
  get(name: string): string | null;
}

/**
 * Milliseconds from `retry-after-ms` (OpenAI's, fractional ms), else `retry-after` (seconds, or an
 * HTTP date); capped at MAX_RETRY_AFTER_MS. Undefined when neither is there or readable.
 */
export function retryAfterMs(
  headers: HeaderSource | undefined,
  now: number = Date.now(),
): number | undefined {
  if (headers === undefined) return undefined;
  const milliseconds = Number.parseFloat(headers.get('retry-after-ms') ?? '');
  if (Number.isFinite(milliseconds) && milliseconds >= 0) return cap(milliseconds);
  const value = headers.get('retry-after')?.trim();
  if (value === undefined || value === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(value)) return cap(Number.parseFloat(value) * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : cap(Math.max(0, date - now));
}

function cap(milliseconds: number): number {
  return Math.min(Math.ceil(milliseconds), MAX_RETRY_AFTER_MS);
}

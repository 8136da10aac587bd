/**
 * Caller-supplied text quoted in an error message, cut to `max` characters. Ids, paths and header
 * values can be megabytes long; an answer must never echo one back whole.
 */
export function clip(value: string, max = 80): string {
  return value.length <= max ? value : `${value.slice(0, max)}… (${value.length} characters)`;
}

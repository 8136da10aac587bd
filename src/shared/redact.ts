/*
 * Sandbox-safe (no imports): approval cards are built inside the workflow, and their
 * arguments are shown to humans and kept in history, so secrets are cut out first.
 * The Node side calls the same function with the configured secret values it knows
 * (src/secrets/masker.ts); the workflow never has them, since anything it holds lands in history.
 */

export const REDACTED = '__redacted__';

/**
 * Known secret values shorter than this are not masked: a value such as `1` or `true` would
 * mangle ordinary text everywhere. The model adapters use the same bound for their own key.
 */
export const MIN_KNOWN_SECRET_CHARS = 8;

/** Single words that name a secret on their own (`githubToken`, `DB_PASSWORD`, `Cookie`). */
const SECRET_WORDS = new Set([
  'token',
  'secret',
  'password',
  'passwd',
  'passphrase',
  'authorization',
  'cookie',
  'credential',
  'credentials',
  'apikey',
  'privatekey',
]);

/** Word pairs that name a secret together (`api_key`, `x-api-key`, `privateKey`). */
const SECRET_PAIRS = new Set(['api key', 'private key', 'access key', 'secret key']);

/** Secret-looking substrings of any string value, wherever they appear (a curl command...). */
const SECRET_VALUE_PATTERNS: Array<[RegExp, string]> = [
  [/\bBearer\s+[A-Za-z0-9._~+/=-]{8,}/gi, `Bearer ${REDACTED}`],
  [/\bsk-[A-Za-z0-9_-]{16,}/g, REDACTED],
  [/\bgh[pousr]_[A-Za-z0-9]{20,}/g, REDACTED],
  [/\bAKIA[0-9A-Z]{16}\b/g, REDACTED],
];

export interface RedactOptions {
  /**
   * Exact secret values to cut out of every string and object key, wherever they appear: the
   * configured secrets, which only the Node side knows. Values shorter than
   * MIN_KNOWN_SECRET_CHARS are ignored. Default none (what the workflow passes).
   */
  known?: readonly string[];
  /**
   * Replace the whole value of any key that names a secret. Default true. False for data whose
   * keys are a schema rather than input (API answers, capability snapshots): there only the
   * strings themselves are judged, so the shape never changes.
   */
  byKey?: boolean;
}

/**
 * A deep copy of `value` with secrets replaced by REDACTED: the whole value of any key that
 * names a secret, secret-looking parts of strings, and every `known` value. Keys are split into
 * words so that `max_tokens` or `tokenizer` stay visible while `accessToken` and `X-Api-Key` do
 * not.
 */
export function redactSecrets(value: unknown, options: RedactOptions = {}): unknown {
  return redact(value, new Set(), {
    known: usableKnown(options.known ?? []),
    byKey: options.byKey ?? true,
  });
}

/** `text` with every known value and every secret-looking part replaced by REDACTED. */
export function redactSecretText(text: string, known: readonly string[] = []): string {
  return redactString(text, usableKnown(known));
}

/** True when `text` has a part that looks like a secret (a bearer token, an `sk-` key...). */
export function looksLikeSecret(text: string): boolean {
  return redactString(text, []) !== text;
}

export function isSecretKey(key: string): boolean {
  const words = key
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word !== '');
  return words.some(
    (word, index) =>
      SECRET_WORDS.has(word) || SECRET_PAIRS.has(`${word} ${words[index + 1] ?? ''}`),
  );
}

interface Prepared {
  /** Longest first, so a secret that contains another is cut out whole. */
  known: string[];
  byKey: boolean;
}

function usableKnown(known: readonly string[]): string[] {
  return [...new Set(known)]
    .filter((value) => value.length >= MIN_KNOWN_SECRET_CHARS)
    .sort((a, b) => b.length - a.length);
}

function redact(value: unknown, ancestors: Set<object>, options: Prepared): unknown {
  if (typeof value === 'string') return redactString(value, options.known);
  if (typeof value !== 'object' || value === null) return value;
  // A cycle cannot come from JSON arguments, but a copy must never recurse forever.
  if (ancestors.has(value)) return '__circular__';
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redact(item, ancestors, options));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      // Keys are only checked against known values: pattern-masking keys would change what the
      // workflow has always recorded for a card.
      copy[replaceKnown(key, options.known)] =
        options.byKey && isSecretKey(key) ? REDACTED : redact(item, ancestors, options);
    }
    return copy;
  } finally {
    ancestors.delete(value);
  }
}

function redactString(text: string, known: readonly string[]): string {
  let result = replaceKnown(text, known);
  for (const [pattern, replacement] of SECRET_VALUE_PATTERNS) {
    result = result.replace(pattern, replacement);
  }
  return result;
}

function replaceKnown(text: string, known: readonly string[]): string {
  let result = text;
  for (const secret of known) {
    if (result.includes(secret)) result = result.split(secret).join(REDACTED);
  }
  return result;
}

/** Longest `argumentsPreview`: an event is a glimpse for a timeline, the transcript has the call. */
export const ARGUMENTS_PREVIEW_CHARS = 1000;

/** A call's arguments for an event stream: JSON, secrets redacted, cut with `…` when long. */
export function argumentsPreview(args: unknown): string {
  const text = JSON.stringify(redactSecrets(args ?? {})) ?? '{}';
  return text.length <= ARGUMENTS_PREVIEW_CHARS
    ? text
    : `${text.slice(0, ARGUMENTS_PREVIEW_CHARS - 1)}…`;
}

/*
 * Sandbox-safe (no imports): approval cards are built inside the workflow, and their
 * arguments are shown to humans and kept in history, so secrets are cut out first (POL-2).
 */

export const REDACTED = '__redacted__';

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

/**
 * A deep copy of `value` with secrets replaced by REDACTED: the whole value of any key that
 * names a secret, and secret-looking parts of strings. Keys are split into words so that
 * `max_tokens` or `tokenizer` stay visible while `accessToken` and `X-Api-Key` do not.
 */
export function redactSecrets(value: unknown): unknown {
  return redact(value, new Set());
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

function redact(value: unknown, ancestors: Set<object>): unknown {
  if (typeof value === 'string') return redactString(value);
  if (typeof value !== 'object' || value === null) return value;
  // A cycle cannot come from JSON arguments, but a copy must never recurse forever.
  if (ancestors.has(value)) return '__circular__';
  ancestors.add(value);
  try {
    if (Array.isArray(value)) return value.map((item) => redact(item, ancestors));
    const copy: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) {
      copy[key] = isSecretKey(key) ? REDACTED : redact(item, ancestors);
    }
    return copy;
  } finally {
    ancestors.delete(value);
  }
}

function redactString(text: string): string {
  let result = text;
  for (const [pattern, replacement] of SECRET_VALUE_PATTERNS) {
    result = result.replace(pattern, replacement);
  }
  return result;
}

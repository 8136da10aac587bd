/**
 * Secrets in deployment settings that come from the environment rather than from
 * `.subagents/config.yaml`: connection URLs, whose password sits inside the value. The masker
 * (src/secrets/masker.ts) cuts them out like configured secrets: the whole URL, and the password
 * alone, as written (percent-encoded) and decoded, since a driver may quote either.
 */

/** A `postgres://` URL of the database the blob store uses (src/activities/blob-stores.ts). */
export const BLOB_STORE_URL_VARIABLE = 'DEPUTY_BLOB_STORE_URL';

/** The variables whose values are connection URLs with credentials. */
export const SECRET_URL_VARIABLES: readonly string[] = [BLOB_STORE_URL_VARIABLE];

/** The values to mask for every secret URL set in `env`. */
export function environmentSecretValues(env: NodeJS.ProcessEnv = process.env): string[] {
  return SECRET_URL_VARIABLES.flatMap((name) => {
    const value = env[name]?.trim();
    return value === undefined || value === '' ? [] : urlSecretValues(value);
  });
}

/** `url` itself, and its password (encoded and decoded) and user:password part when it has one. */
export function urlSecretValues(url: string): string[] {
  const values = [url];
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    // Not a URL (the blob store refuses it at start): the whole value is all we can mask.
    return values;
  }
  if (parsed.password !== '') {
    values.push(parsed.password, `${parsed.username}:${parsed.password}`);
    try {
      values.push(decodeURIComponent(parsed.password));
    } catch {
      // A malformed escape: the encoded form is what gets quoted, and it is masked.
    }
  }
  return [...new Set(values)];
}

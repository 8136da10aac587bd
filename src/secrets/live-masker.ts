/**
 * A masker that follows the watched configuration (src/config/watch.ts): a secret an edit adds is
 * masked from the next call on, and a secret an edit removes stays masked for the process's
 * lifetime. Text recorded or logged while it was configured may come back (a transcript, a card, a
 * blob read again), and an edit must never mean less masking.
 */
import {
  configuredSecretValues,
  createSecretMasker,
  type SecretMasker,
  type SecretSources,
} from './masker.js';

/** What the masker reads: `LiveConfig` (src/config/live-config.ts) is one. */
export interface SecretSourcesNow {
  current(): SecretSources;
}

/**
 * @param more further places secrets are written, read the same way: the definitions' inline
 *   MCP servers (src/secrets/definition-secrets.ts), which an agent may read back from its file.
 */
export function liveSecretMasker(
  live: SecretSourcesNow,
  env: NodeJS.ProcessEnv = process.env,
  ...more: SecretSourcesNow[]
): SecretMasker {
  const sources = [live, ...more];
  const known = new Set<string>();
  const seen: Array<SecretSources | null> = sources.map(() => null);
  let masker: SecretMasker = createSecretMasker([]);
  // The values are collected again only when a source hands out a new object (a watcher does per
  // good edit, the registry per reload), so a masked call costs what a fixed masker's does.
  const now = (): SecretMasker => {
    const before = known.size;
    sources.forEach((source, index) => {
      const config = source.current();
      if (config === seen[index]) return;
      seen[index] = config;
      for (const value of configuredSecretValues(config, env)) known.add(value);
    });
    if (known.size !== before) masker = createSecretMasker([...known]);
    return masker;
  };
  return {
    text: (input) => now().text(input),
    value: (input) => now().value(input),
    error: (input) => now().error(input),
  };
}

/**
 * A masker that follows the watched configuration (issue 8): a secret an edit adds is masked from
 * the next call on, and a secret an edit removes stays masked for the process's lifetime. Text
 * recorded or logged while it was configured may come back (a transcript, a card, a blob read
 * again), and an edit must never mean less masking.
 */
import {
  configuredSecretValues,
  createSecretMasker,
  type SecretMasker,
  type SecretSources,
} from './masker.js';

/** What the masker reads: `LiveConfig` (src/live-config.ts) is one. */
export interface SecretSourcesNow {
  current(): SecretSources;
}

export function liveSecretMasker(
  live: SecretSourcesNow,
  env: NodeJS.ProcessEnv = process.env,
): SecretMasker {
  const known = new Set<string>();
  let seen: SecretSources | null = null;
  let masker: SecretMasker = createSecretMasker([]);
  // The values are collected again only when the configuration object changes (a watcher hands
  // out a new one per good edit), so a masked call costs what a fixed masker's does.
  const now = (): SecretMasker => {
    const config = live.current();
    if (config === seen) return masker;
    seen = config;
    const before = known.size;
    for (const value of configuredSecretValues(config, env)) known.add(value);
    if (known.size !== before) masker = createSecretMasker([...known]);
    return masker;
  };
  return {
    text: (input) => now().text(input),
    value: (input) => now().value(input),
    error: (input) => now().error(input),
  };
}

/**
 * The configuration watcher of a long-running command: one per process, shared by the
 * worker and the API in `deputy dev`, saying on stderr when an edit is not applied, when the file
 * is good again, and the warnings an edit brings.
 */
import type { DeputyConfig } from '../config/schema.js';
import { watchConfig, type ConfigWatcher } from '../config/watch.js';
import { liveSecretMasker } from '../secrets/live-masker.js';
import type { Io } from './io.js';

export async function watchSettings(config: DeputyConfig, io: Io): Promise<ConfigWatcher> {
  // The lines name the file, fields and positions only; masked all the same, like every line
  // the worker and the API write.
  const masked = (message: string): string => secrets.text(message);
  const watcher = watchConfig(config, {
    logger: {
      warn: (message) => io.err(`warning: ${masked(message)}`),
      info: (message) => io.err(masked(message)),
    },
  });
  const secrets = liveSecretMasker(watcher);
  await watcher.ready;
  return watcher;
}

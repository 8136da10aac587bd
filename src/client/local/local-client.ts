/**
 * The same DeputyClient for code that runs beside the workers, over a Temporal connection
 * instead of a deputy API. It serves the API's own app in-process (createApp over the
 * Delegations and Sessions facades and the definition registry) and hands the client its fetch:
 * every request is validated, answered and refused exactly as over HTTP, with no port opened.
 * The Temporal port is the trust boundary here, as for the CLI: requests act without a token,
 * as the CLI does.
 */
import type { Client } from '@temporalio/client';
import { createApp } from '../../api/app.js';
import type { Auth } from '../../api/http/auth.js';
import { loadConfig } from '../../config/load.js';
import type { DeputyConfig } from '../../config/schema.js';
import { createRegistry } from '../../definitions/registry/registry.js';
import { ANONYMOUS_CALLER } from '../../shared/caller.js';
import { connectTemporal } from '../../temporal/connection.js';
import { facadesFor } from '../../temporal/facades.js';
import { fixedConfig } from '../../config/live-config.js';
import { definitionSecretSource } from '../../secrets/definition-secrets.js';
import { liveSecretMasker } from '../../secrets/live-masker.js';
import { createDeputyClient, type DeputyClient } from '../deputy-client.js';

export interface LocalClientOptions {
  /** Default: loadConfig() (the workspace of the current directory, DEPUTY_* and TEMPORAL_*). */
  config?: DeputyConfig;
  /** A Temporal client to use; default: a connection made (and closed) by this client. */
  temporal?: Client;
}

export interface LocalDeputyClient extends DeputyClient {
  /** Closes the Temporal connection this client made (not one it was given). */
  close(): Promise<void>;
}

/** What the API would take from a token: here, the CLI's caller (no identity, unfiltered). */
const TRUSTED: Auth = { enabled: false, warnings: [], authenticate: () => ANONYMOUS_CALLER };

export async function createLocalDeputyClient(
  options: LocalClientOptions = {},
): Promise<LocalDeputyClient> {
  const config = options.config ?? loadConfig();
  const own = options.temporal === undefined ? await connectTemporal(config) : null;
  const temporal = options.temporal ?? own!.client;
  const definitions = createRegistry({ config });
  await definitions.load();
  // Decisions are masked as the API masks its answers: the configuration's and definitions' secrets.
  const secrets = liveSecretMasker(
    fixedConfig(config),
    process.env,
    definitionSecretSource(definitions),
  );
  const { delegations, sessions, schedules } = facadesFor(temporal, config.temporal, secrets);
  const app = createApp({
    delegations,
    sessions,
    schedules,
    definitions,
    config,
    auth: TRUSTED,
  });
  const client = createDeputyClient({
    url: 'http://localhost',
    fetch: (input, init) => Promise.resolve(app.fetch(new Request(input, init))),
  });
  return {
    ...client,
    async close() {
      await own?.close();
    },
  };
}

/** The HTTP API as `deputy api` and `deputy dev` start it. */
import type { LiveConfig } from '../../config/live-config.js';
import type { McpRuntime } from '../../mcp-client/mcp-runtime.js';
import type { ApiServer } from '../../server.js';
import type { Io } from '../io.js';

/** The Temporal UI the console links to when deputy did not start the server itself. */
export function temporalUiFromEnv(): string | null {
  return process.env.DEPUTY_TEMPORAL_UI_URL?.trim() || null;
}

/**
 * @param mcp the process's MCP clients when it has some (`deputy dev`: the worker's, so each
 *   server has one client in the process); without them the API makes its own for its status
 *   routes, connects them in the background and closes them with the server.
 */
export async function startApi(
  settings: LiveConfig,
  io: Io,
  mcp?: McpRuntime,
  temporalUi: string | null = temporalUiFromEnv(),
): Promise<{ server: ApiServer; close(): Promise<void> }> {
  const config = settings.current();
  // The HTTP server and the Temporal client are loaded only by the commands that run them.
  const [
    { startApiServer },
    { connectTemporal },
    { facadesFor },
    { liveSecretMasker },
    { definitionSecretSource },
  ] = await Promise.all([
    import('../../server.js'),
    import('../../temporal/connection.js'),
    import('../../temporal/facades.js'),
    import('../../secrets/live-masker.js'),
    import('../../secrets/definition-secrets.js'),
  ]);
  const temporal = await connectTemporal(config);
  // `deputy_delegations{status}` of GET /metrics: counted in visibility at scrape time.
  const { watchDelegationCounts } = await import('../../temporal/delegation-counts.js');
  const unwatchCounts = watchDelegationCounts(temporal.client, config.temporal.namespace);
  // The API checks agent names against the same definitions the worker resolves (kept live).
  const { createRegistry } = await import('../../definitions/registry/registry.js');
  // Saves check model handles against the catalog as it is now (the configuration is watched).
  const registry = createRegistry({ config, models: () => settings.current().models });
  let own: McpRuntime | undefined;
  try {
    await registry.load();
    if (mcp === undefined) {
      const { createMcpRuntime } = await import('../../mcp-client/mcp-runtime.js');
      own = createMcpRuntime({ settings, definitions: registry });
      own.connectAll();
    }
    const ownRuntime = own;
    await registry.watch(ownRuntime === undefined ? undefined : () => ownRuntime.connectAll());
    // Decisions are masked with what the API masks its answers with: every configuration seen
    // and the definitions' inline secrets.
    const secrets = liveSecretMasker(settings, process.env, definitionSecretSource(registry));
    const { delegations, sessions, schedules } = facadesFor(
      temporal.client,
      config.temporal,
      secrets,
    );
    const server = await startApiServer(config, {
      settings,
      delegations,
      sessions,
      schedules,
      definitions: registry,
      mcp: mcp ?? own,
      console: { temporalUi },
      allowUnauthenticatedBind: process.env.DEPUTY_ALLOW_UNAUTHENTICATED_BIND === '1',
      logger: {
        error: (message, error) =>
          io.err(`${message}: ${(error as Error)?.stack ?? String(error)}`),
        warn: (message) => io.err(`warning: ${message}`),
        info: (message) => io.err(message),
      },
    });
    return {
      server,
      close: async () => {
        unwatchCounts();
        await server.close();
        await registry.close();
        await own?.close();
        await temporal.close();
      },
    };
  } catch (error) {
    unwatchCounts();
    await registry.close();
    await own?.close();
    await temporal.close();
    throw error;
  }
}

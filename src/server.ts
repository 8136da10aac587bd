/**
 * Puts the API on a socket. With auth disabled the server refuses any host but loopback:
 * an unauthenticated API on a network interface would let anyone approve cards. Which
 * `Host` names it then answers to is the app's business (src/api/http/host-guard.ts); this module
 * only tells it the extra names: DEPUTY_ALLOWED_HOSTS and a specific bind address.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { DeputyConfig } from './config/schema.js';
import { createApp, type AppDeps, type HostCheckOptions } from './api/app.js';
import { liveAuth } from './api/http/live-auth.js';
import { consoleLogger, type Logger } from './api/http/errors.js';
import { isLoopbackHost, normalizeAllowedHost, parseAllowedHosts } from './api/http/host-guard.js';
import { DeputyError } from './errors.js';
import { fixedConfig } from './config/live-config.js';
import { listenOnLocalSocket } from './local-socket.js';
import { definitionSecretSource } from './secrets/definition-secrets.js';
import { liveSecretMasker } from './secrets/live-masker.js';
import { maskedLogger } from './secrets/masked-logger.js';
import { createServerRefusingMalformedHosts } from './api/http/host-syntax.js';
import { createMcpHttpEndpoint } from './mcp-door/http-endpoint.js';
import { countedDelegations } from './temporal/delegations/counted.js';

export interface ApiServer {
  /** `http://host:port`, with the port actually bound (config port 0 picks a free one). */
  url: string;
  port: number;
  /** The local socket the CLI answers through (src/local-socket.ts); null when not opened. */
  socket: string | null;
  close(): Promise<void>;
}

export type ApiServerDeps = Omit<AppDeps, 'config'> & {
  /**
   * Listen beyond loopback without auth. Only for a container whose published port is itself
   * bound to the host's loopback (docker-compose); the CLI sets it from
   * DEPUTY_ALLOW_UNAUTHENTICATED_BIND=1. Default false.
   */
  allowUnauthenticatedBind?: boolean;
  /**
   * Host names the API answers to besides loopback ones (`api`, `deputy.internal:4780`).
   * Default: DEPUTY_ALLOWED_HOSTS, comma- or space-separated. When set (even empty), the
   * Host/Origin check also runs with auth on; otherwise only without auth.
   */
  allowedHosts?: readonly string[];
  /**
   * Also answer the CLI on the data directory's local socket (src/local-socket.ts). Default true.
   */
  localSocket?: boolean;
};

export { isLoopbackHost };

/** Wildcard binds name no host a client could use; a specific address is one. */
const WILDCARD_BINDS = new Set(['0.0.0.0', '::', '[::]', '']);

/** The Host names the app answers to: DEPUTY_ALLOWED_HOSTS (or `allowedHosts`) and the bind host. */
function hostCheckOf(
  config: DeputyConfig,
  deps: Pick<ApiServerDeps, 'allowedHosts'>,
  logger: Pick<Logger, 'warn'>,
): HostCheckOptions {
  const listed =
    deps.allowedHosts ??
    parseAllowedHosts(process.env.DEPUTY_ALLOWED_HOSTS, (entry) =>
      logger.warn(
        `DEPUTY_ALLOWED_HOSTS: '${entry}' is not a host name (write api or api:4780); ignored`,
      ),
    );
  const bindHost = WILDCARD_BINDS.has(config.api.host)
    ? null
    : normalizeAllowedHost(config.api.host);
  return {
    allowed: [...(listed ?? []), ...(bindHost === null ? [] : [bindHost])],
    checkWithAuth: listed !== undefined,
  };
}

export async function startApiServer(
  config: DeputyConfig,
  deps: ApiServerDeps,
): Promise<ApiServer> {
  // `config` gives the host and port, fixed for the process; `settings` what the file decides now.
  const settings = deps.settings ?? fixedConfig(config);
  // Every line the API logs, here and in the app, passes the configured-secret masker.
  const logger = maskedLogger(
    deps.logger ?? consoleLogger,
    liveSecretMasker(
      settings,
      process.env,
      ...(deps.definitions === undefined ? [] : [definitionSecretSource(deps.definitions)]),
    ),
  );
  const auth =
    deps.auth ??
    liveAuth(settings, {
      warn: (message) => logger.warn(message),
      // Listening beyond loopback is allowed because auth is on: an edit must not turn it off.
      keepEnabled: !isLoopbackHost(config.api.host) && deps.allowUnauthenticatedBind !== true,
    });
  if (!auth.enabled && !isLoopbackHost(config.api.host)) {
    if (!deps.allowUnauthenticatedBind) {
      throw new DeputyError(
        'forbidden',
        `refusing to listen on ${config.api.host} without auth: configure auth.tokens or use a loopback host (docs/http-api.md, "Authentication")`,
      );
    }
    logger.warn(
      `listening on ${config.api.host} WITHOUT auth (DEPUTY_ALLOW_UNAUTHENTICATED_BIND): anyone who reaches this port can approve cards`,
    );
  }
  // The configuration's own warnings too: `deputy api` and `deputy dev` say them once, here.
  for (const warning of [...settings.current().warnings, ...auth.warnings]) logger.warn(warning);
  const hosts = hostCheckOf(config, deps, logger);
  // Starts and card decisions are counted for `GET /metrics`, through the routes and the door.
  const delegations = countedDelegations(deps.delegations);
  // The MCP door at /mcp: answers masked like the routes', sessions closed with the server.
  const mcpDoor =
    deps.mcpDoor ??
    (deps.definitions === undefined
      ? undefined
      : createMcpHttpEndpoint({
          delegations,
          definitions: deps.definitions,
          secrets: liveSecretMasker(
            settings,
            process.env,
            definitionSecretSource(deps.definitions),
          ),
          log: (message) => logger.warn(`MCP door: ${message}`),
        }));
  const app = createApp({
    ...deps,
    delegations,
    config,
    settings,
    auth,
    logger,
    hosts,
    ...(mcpDoor === undefined ? {} : { mcpDoor }),
  });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const created = serve(
      {
        fetch: app.fetch,
        hostname: config.api.host,
        port: config.api.port,
        // A Host no URL can hold is a 400 here, before Hono builds the request's URL from it.
        createServer: createServerRefusingMalformedHosts,
      },
      () => resolve(created),
    );
    created.once('error', reject);
  });
  const local =
    deps.localSocket === false ? null : await listenOnLocalSocket(app, config.dataDir, logger);
  const { port } = server.address() as AddressInfo;
  const host = config.api.host.includes(':') ? `[${config.api.host}]` : config.api.host;
  return {
    url: `http://${host}:${port}`,
    port,
    socket: local?.path ?? null,
    close: async () => {
      await local?.close();
      await mcpDoor?.close();
      await new Promise<void>((resolve, reject) => {
        // Event streams hold connections open; close them so close() does not wait forever.
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      });
    },
  };
}

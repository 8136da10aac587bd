/**
 * Puts the API on a socket. With auth disabled the server refuses any host but loopback
 * (API-7): an unauthenticated API on a network interface would let anyone approve cards.
 */
import type { AddressInfo } from 'node:net';
import { serve, type ServerType } from '@hono/node-server';
import type { DeputyConfig } from './config.js';
import { createApp, type AppDeps } from './api/app.js';
import { createAuth } from './api/auth.js';
import { consoleLogger } from './api/errors.js';
import { DeputyError } from './errors.js';

export interface ApiServer {
  /** `http://host:port`, with the port actually bound (config port 0 picks a free one). */
  url: string;
  port: number;
  close(): Promise<void>;
}

export type ApiServerDeps = Omit<AppDeps, 'config' | 'auth'> &
  Partial<Pick<AppDeps, 'auth'>> & {
    /**
     * Listen beyond loopback without auth. Only for a container whose published port is itself
     * bound to the host's loopback (docker-compose); the CLI sets it from
     * DEPUTY_ALLOW_UNAUTHENTICATED_BIND=1. Default false.
     */
    allowUnauthenticatedBind?: boolean;
  };

export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

export async function startApiServer(
  config: DeputyConfig,
  deps: ApiServerDeps,
): Promise<ApiServer> {
  const logger = deps.logger ?? consoleLogger;
  const auth = deps.auth ?? createAuth(config);
  if (!auth.enabled && !isLoopbackHost(config.api.host)) {
    if (!deps.allowUnauthenticatedBind) {
      throw new DeputyError(
        'forbidden',
        `refusing to listen on ${config.api.host} without auth: configure auth.tokens or use a loopback host (API-7)`,
      );
    }
    logger.warn(
      `listening on ${config.api.host} WITHOUT auth (DEPUTY_ALLOW_UNAUTHENTICATED_BIND): anyone who reaches this port can approve cards`,
    );
  }
  for (const warning of auth.warnings) logger.warn(warning);
  const app = createApp({ ...deps, config, auth, logger });
  const server = await new Promise<ServerType>((resolve, reject) => {
    const created = serve(
      { fetch: app.fetch, hostname: config.api.host, port: config.api.port },
      () => resolve(created),
    );
    created.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  const host = config.api.host.includes(':') ? `[${config.api.host}]` : config.api.host;
  return {
    url: `http://${host}:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve, reject) => {
        // Event streams hold connections open; close them so close() does not wait forever.
        if ('closeAllConnections' in server) server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

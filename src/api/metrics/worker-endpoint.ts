/**
 * A worker's own `GET /metrics` on `metrics.workerAddress` (DEPUTY_WORKER_METRICS_ADDRESS): what
 * this process counted (its activities' model and tool calls, its MCP clients) and Node's process
 * metrics. `deputy dev` needs none: its API serves the same registry. The API's bearer tokens
 * guard it too when `auth` is configured; without auth it listens on loopback only.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { LiveConfig } from '../../config/live-config.js';
import { isLoopbackHost } from '../http/host-guard.js';
import { liveAuth } from '../http/live-auth.js';
import { METRICS_CONTENT_TYPE, metricsText } from '../../metrics/exposition.js';
import { parseBindAddress } from '../../metrics/settings.js';

export interface MetricsEndpoint {
  /** `http://host:port/metrics`, with the port actually bound (port 0 picks a free one). */
  url: string;
  close(): Promise<void>;
}

export interface MetricsEndpointOptions {
  /** Where auth warnings and collection failures go (secret-free lines). */
  log?: (message: string) => void;
  /** Where the token variables of `auth.tokens` are read. Default process.env. */
  env?: NodeJS.ProcessEnv;
}

export async function startMetricsEndpoint(
  address: string,
  settings: LiveConfig,
  { log = () => {}, env = process.env }: MetricsEndpointOptions = {},
): Promise<MetricsEndpoint> {
  const { host, port } = parseBindAddress(address);
  const auth = liveAuth(settings, { warn: log, env, keepEnabled: !isLoopbackHost(host) });
  if (!auth.enabled && !isLoopbackHost(host)) {
    throw new Error(
      `refusing to serve worker metrics on ${host} without auth: configure auth.tokens or use a loopback address`,
    );
  }
  const server = createServer((request, response) => {
    void answer(request.method, request.url, request.headers.authorization).then(
      ({ status, type, body }) => {
        response.writeHead(status, { 'Content-Type': type });
        response.end(body);
      },
    );
  });

  async function answer(
    method: string | undefined,
    url: string | undefined,
    authorization: string | undefined,
  ): Promise<{ status: number; type: string; body: string }> {
    const plain = 'text/plain; charset=utf-8';
    if (method !== 'GET' || new URL(url ?? '/', 'http://metrics').pathname !== '/metrics') {
      return { status: 404, type: plain, body: 'not found: GET /metrics\n' };
    }
    try {
      auth.authenticate(authorization);
    } catch (error) {
      return { status: 401, type: plain, body: `${(error as Error).message}\n` };
    }
    try {
      return { status: 200, type: METRICS_CONTENT_TYPE, body: await metricsText() };
    } catch (error) {
      log(`metrics: collecting failed: ${(error as Error).message}`);
      return { status: 500, type: plain, body: 'collecting metrics failed\n' };
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  const shown = host.includes(':') ? `[${host}]` : host;
  return { url: `http://${shown}:${bound}/metrics`, close: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  server.closeAllConnections();
  return new Promise((resolve, reject) =>
    server.close((error) => (error ? reject(error) : resolve())),
  );
}

/**
 * The two apps bench/agents-list.ts compares, built on one workspace: the real API (`createApp`
 * with a loaded registry, auth off) and a bare Hono app whose one route answers the same JSON.
 * Run as a script (bench/agents-list.ts forks it), it serves both on loopback and sends the
 * ports to its parent, so the load generator and the servers do not share one event loop.
 */
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { serve, type ServerType } from '@hono/node-server';
import { Hono } from 'hono';
import { createApp } from '../src/api/app.js';
import { loadConfig } from '../src/config/load.js';
import { type DeputyConfig } from '../src/config/schema.js';
import { createRegistry, type DefinitionRegistry } from '../src/definitions/registry/registry.js';
import { DeputyError } from '../src/errors.js';
import type { Delegations } from '../src/temporal/delegations/facade.js';

export const LIST_PATH = '/workspace/agents';

export interface AgentsListApps {
  config: DeputyConfig;
  registry: DefinitionRegistry;
  /** The real API. */
  app: { fetch: (request: Request) => Response | Promise<Response> };
  /** A bare Hono app: one route, `c.json()` of the list parsed once from the real answer. */
  bare: { fetch: (request: Request) => Response | Promise<Response> };
  /** The real answer's bytes, as text. */
  body: string;
}

/** The list route never reaches Temporal: every facade call fails loudly. */
function unusedDelegations(): Delegations {
  return new Proxy({} as Delegations, {
    get: (_target, method) => () => {
      throw new DeputyError('unavailable', `bench: delegations.${String(method)} is not expected`);
    },
  });
}

export async function buildAgentsListApps(
  workspace: string,
  userDir: string,
): Promise<AgentsListApps> {
  const config = loadConfig({ workspace }, { DEPUTY_USER_DIR: userDir });
  const registry = createRegistry({ config });
  await registry.load();
  const quiet = { error: () => {}, warn: () => {}, info: () => {} };
  const app = createApp({
    delegations: unusedDelegations(),
    config,
    definitions: registry,
    logger: quiet,
  });

  const answer = await app.request(LIST_PATH);
  if (answer.status !== 200) throw new Error(`${LIST_PATH} answered ${answer.status}`);
  const body = await answer.text();
  const list = JSON.parse(body) as unknown;
  const bare = new Hono();
  bare.get(LIST_PATH, (c) => c.json(list as object));
  return { config, registry, app, bare, body };
}

function listen(fetch: AgentsListApps['app']['fetch']): Promise<ServerType> {
  return new Promise((resolve, reject) => {
    const server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => resolve(server));
    server.once('error', reject);
  });
}

const portOf = (server: ServerType) => (server.address() as AddressInfo).port;

if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [workspace, root] = process.argv.slice(2);
  if (workspace === undefined || root === undefined || process.send === undefined) {
    throw new Error('usage: forked by bench/agents-list.ts with WORKSPACE ROOT');
  }
  const apps = await buildAgentsListApps(workspace, join(root, 'user'));
  const [api, bare] = await Promise.all([listen(apps.app.fetch), listen(apps.bare.fetch)]);
  process.send({ api: portOf(api), bare: portOf(bare) });
  // The parent disconnects when it is done; then close the sockets and exit.
  process.once('disconnect', () => {
    for (const server of [api, bare]) {
      if ('closeAllConnections' in server) server.closeAllConnections();
      server.close();
    }
  });
}

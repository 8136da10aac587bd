/**
 * The real app (createApp) over the recording stub facade, with auth on or off, for the HTTP-layer
 * unit tests of the door: host guard, media type, limits, rights and the fuzz.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp, type AppDeps } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import type { Logger } from '../../src/api/http/errors.js';
import { loadConfig } from '../../src/config/load.js';
import { type DeputyConfig } from '../../src/config/schema.js';
import type { Delegations } from '../../src/temporal/delegations/facade.js';
import { stubDelegations } from './stub-delegations.js';

export const config: DeputyConfig = loadConfig(
  { workspace: mkdtempSync(join(tmpdir(), 'deputy-door-')) },
  {},
);

/** Token values, by who holds them; the fuzz checks that none ever appears in an answer. */
export const TOKENS = {
  admin: 'tok-admin-1f2e3d',
  owner: 'tok-owner-4c5b6a',
  reader: 'tok-reader-7a8b9c',
} as const;

export const AUTH_CONFIG: NonNullable<DeputyConfig['auth']> = {
  tokens: {
    DOOR_ADMIN_TOKEN: { user: 'alice', roles: ['admin'] },
    DOOR_OWNER_TOKEN: { user: 'olga', roles: ['ops'] },
    DOOR_READER_TOKEN: { user: 'rita', roles: [] },
  },
};

/** The environment that holds the tokens under the names AUTH_CONFIG gives them. */
export const TOKEN_ENV = {
  DOOR_ADMIN_TOKEN: TOKENS.admin,
  DOOR_OWNER_TOKEN: TOKENS.owner,
  DOOR_READER_TOKEN: TOKENS.reader,
};

export const bearer = (who: keyof typeof TOKENS) => ({ Authorization: `Bearer ${TOKENS[who]}` });

export interface MadeApp {
  app: ReturnType<typeof createApp>;
  calls: ReturnType<typeof stubDelegations>['calls'];
  errors: unknown[];
}

export function makeApp(
  options: {
    delegations?: Partial<Delegations>;
    auth?: boolean;
    hosts?: AppDeps['hosts'];
  } = {},
): MadeApp {
  const stub = stubDelegations(options.delegations);
  const errors: unknown[] = [];
  const logger: Logger = {
    error: (message, error) => errors.push([message, error]),
    warn: () => {},
    info: () => {},
  };
  const auth = createAuth({ auth: options.auth === true ? AUTH_CONFIG : undefined }, TOKEN_ENV);
  const app = createApp({
    delegations: stub.delegations,
    config,
    auth,
    logger,
    ...(options.hosts === undefined ? {} : { hosts: options.hosts }),
  });
  return { app, calls: stub.calls, errors };
}

export const jsonPost = (body: unknown, headers: Record<string, string> = {}): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json', ...headers },
  body: typeof body === 'string' ? body : JSON.stringify(body),
});

/**
 * Authentication that follows the watched configuration: a token added to, or removed
 * from, `auth.tokens` counts from the next request on. The Auth of `createAuth` (digests, the
 * timing-safe compare) is rebuilt whenever the configuration object changes, and read per request.
 */
import type { DeputyConfig } from '../../config/schema.js';
import { DeputyError } from '../../errors.js';
import type { LiveConfig } from '../../config/live-config.js';
import { ANONYMOUS_CALLER } from '../../shared/caller.js';
import { createAuth, type Auth } from './auth.js';

export interface LiveAuthOptions {
  /** Where the token variables are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** Said when an edit brings new auth warnings (a token variable that is not set). */
  warn?: (message: string) => void;
  /**
   * The API listens beyond loopback on the strength of auth being on: an edit that drops
   * the `auth` section must not open it. Then, once auth has been on, every request is refused
   * until it is back (a configuration without auth from the start stays off, for the server's
   * own check to refuse). Default false.
   */
  keepEnabled?: boolean;
}

const AUTH_REMOVED =
  'auth was removed from .subagents/config.yaml, but this API listens beyond loopback: every request is refused until auth is configured again (or the API is restarted on a loopback host)';

export function liveAuth(
  settings: Pick<LiveConfig, 'current'>,
  options: LiveAuthOptions = {},
): Auth {
  const env = options.env ?? process.env;
  let seen: DeputyConfig | null = null;
  let auth: Auth = { enabled: false, warnings: [], authenticate: () => ANONYMOUS_CALLER };
  const now = (): Auth => {
    const config = settings.current();
    if (config === seen) return auth;
    const first = seen === null;
    seen = config;
    const before = new Set(auth.warnings);
    auth =
      config.auth === undefined && options.keepEnabled === true && auth.enabled
        ? refuseAll()
        : createAuth(config, env);
    // Startup warnings are said by whoever starts the server; edits' new ones here.
    if (!first)
      for (const warning of auth.warnings) if (!before.has(warning)) options.warn?.(warning);
    return auth;
  };
  return {
    get enabled() {
      return now().enabled;
    },
    get warnings() {
      return now().warnings;
    },
    authenticate: (authorization) => now().authenticate(authorization),
    user: (user) => now().user?.(user) ?? null,
  };
}

function refuseAll(): Auth {
  return {
    enabled: true,
    warnings: [AUTH_REMOVED],
    authenticate: () => {
      throw new DeputyError('unauthorized', 'the bearer token is not valid');
    },
    user: () => null,
  };
}

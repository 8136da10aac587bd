/**
 * Bearer-token authentication. The configuration names environment variables; their
 * values are the tokens. Tokens are compared by digest in constant time and are never logged,
 * echoed or returned.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { DeputyConfig } from '../../config/schema.js';
import { ANONYMOUS_CALLER, type Caller } from '../../shared/caller.js';
import { DeputyError } from '../../errors.js';

export interface Auth {
  /** True when the configuration has an `auth` section; then every request needs a token. */
  readonly enabled: boolean;
  /** Problems with the token configuration, safe to print (no token values). */
  readonly warnings: string[];
  /** The caller behind an `Authorization` header; throws `unauthorized`. */
  authenticate(authorization: string | undefined): Caller;
  /**
   * Who `user` is now: that user with the roles of every usable token naming it (a token whose
   * variable is not set does not count), or null when no usable token names it, auth is off, or
   * this Auth has no tokens to look in (the method is absent). What a signed link minted for
   * that user is checked against when it is used (api/cards/link-holder.ts).
   */
  user?(user: string): Caller | null;
}

interface TokenEntry {
  digest: Buffer;
  caller: Caller;
}

export function createAuth(
  config: Pick<DeputyConfig, 'auth'>,
  env: NodeJS.ProcessEnv = process.env,
): Auth {
  if (config.auth === undefined) {
    return { enabled: false, warnings: [], authenticate: () => ANONYMOUS_CALLER, user: () => null };
  }
  const entries: TokenEntry[] = [];
  const warnings: string[] = [];
  for (const [envName, identity] of Object.entries(config.auth.tokens)) {
    const token = env[envName];
    if (token === undefined || token === '') {
      warnings.push(`auth.tokens.${envName}: environment variable ${envName} is not set; ignored`);
      continue;
    }
    entries.push({
      digest: digest(token),
      caller: { id: identity.user, roles: [...identity.roles] },
    });
  }
  if (entries.length === 0) {
    warnings.push('auth is configured but no token is usable: every request will be refused');
  }
  return {
    enabled: true,
    warnings,
    authenticate(authorization) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
      if (match?.[1] === undefined) {
        throw new DeputyError('unauthorized', 'a bearer token is required');
      }
      const presented = digest(match[1]);
      // Check every entry so timing does not tell how many tokens exist or which one matched.
      let found: Caller | null = null;
      for (const entry of entries) {
        if (timingSafeEqual(entry.digest, presented) && found === null) found = entry.caller;
      }
      if (found === null) throw new DeputyError('unauthorized', 'the bearer token is not valid');
      return found;
    },
    user(user) {
      const tokens = entries.filter((entry) => entry.caller.id === user);
      if (tokens.length === 0) return null;
      return { id: user, roles: [...new Set(tokens.flatMap((entry) => entry.caller.roles))] };
    },
  };
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}

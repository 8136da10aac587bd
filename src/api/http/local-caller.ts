/**
 * Requests that came over the data directory's local socket (src/local-socket.ts) are the local
 * operator's: the socket file is the data directory owner's alone (mode 0600, in a directory
 * agents cannot see), as the CLI's direct access to Temporal is. They skip the bearer token and
 * the Host check (no browser reaches a Unix socket), and act as `cli:<login name>`, an admin.
 *
 * The CLI may run with another Temporal target in its environment than this API serves. It says
 * which it meant in `LOCAL_TARGET_HEADERS`; a difference is refused (421), and the CLI then goes
 * to Temporal itself rather than act on the wrong server.
 */
import type { Context } from 'hono';
import type { DeputyConfig } from '../../config/schema.js';
import { DeputyError } from '../../errors.js';
import { LOCAL_TARGET_HEADERS } from '../../local-operator.js';
import type { AppEnv } from './app-env.js';

export function isLocalOperatorRequest(c: Context<AppEnv>): boolean {
  return c.env?.localOperator === true;
}

/** Throws `misdirected` when the CLI asked for another Temporal target than this API's. */
export function assertSameTemporalTarget(c: Context<AppEnv>, config: DeputyConfig): void {
  const served: Record<keyof typeof LOCAL_TARGET_HEADERS, string> = {
    // Unset: this API uses the dev server recorded in its data directory, which a CLI without
    // TEMPORAL_ADDRESS finds the same way; a CLI naming an address goes to it directly.
    'x-deputy-temporal-address': config.temporal.address ?? '',
    'x-deputy-temporal-namespace': config.temporal.namespace,
    'x-deputy-task-queue': config.temporal.taskQueue,
  };
  for (const [header, variable] of Object.entries(LOCAL_TARGET_HEADERS)) {
    const asked = c.req.header(header);
    const own = served[header as keyof typeof LOCAL_TARGET_HEADERS];
    if (asked !== undefined && asked !== own) {
      throw new DeputyError(
        'misdirected',
        `this API serves ${variable}=${own || '(its dev server)'}, the command asked for ${asked}`,
      );
    }
  }
}

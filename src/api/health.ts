/**
 * `GET /health`: the API is up AND can reach Temporal. Without Temporal no delegation route can
 * answer anything but 503, so a load balancer or a compose healthcheck should see the API as
 * not ready (503) too; the process itself needs no restart (its connection reconnects by itself
 * once Temporal is back).
 */
import type { Context } from 'hono';
import { isDeputyError } from '../errors.js';
import type { Delegations } from '../temporal/delegations/facade.js';
import type { Logger } from './errors.js';

export function healthRoute(
  delegations: Pick<Delegations, 'ping'>,
  authEnabled: boolean,
  logger: Logger,
): (c: Context) => Promise<Response> {
  return async (c) => {
    try {
      await delegations.ping();
      return c.json({ ok: true, auth: authEnabled, temporal: 'reachable' });
    } catch (error) {
      // Public route: say what is wrong, never where Temporal is or what it answered.
      if (!isDeputyError(error, 'unavailable')) logger.error('health check failed', error);
      return c.json(
        {
          ok: false,
          auth: authEnabled,
          temporal: 'unreachable',
          message: 'Temporal is not reachable; delegation and card routes answer 503 until it is',
        },
        503,
      );
    }
  };
}

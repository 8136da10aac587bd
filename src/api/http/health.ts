/**
 * `GET /health`: the API is up AND can reach Temporal. Without Temporal no delegation route can
 * answer anything but 503, so a load balancer or a compose healthcheck should see the API as
 * not ready (503) too; the process itself needs no restart (its connection reconnects by itself
 * once Temporal is back).
 *
 * `config` says whether `.subagents/config.yaml` on disk is the configuration in use. An invalid
 * edit does not make the API unready: the last good configuration keeps serving every route, so
 * the status follows Temporal alone and `config.ok: false` tells the operator to fix the file.
 * `mcpJson.ok: false` says the same of `.mcp.json`, whose servers are off while it is broken.
 */
import type { Context } from 'hono';
import { isDeputyError } from '../../errors.js';
import type { LiveConfig } from '../../config/live-config.js';
import type { Auth } from './auth.js';
import type { Delegations } from '../../temporal/delegations/facade.js';
import type { Logger } from './errors.js';

export function healthRoute(
  delegations: Pick<Delegations, 'ping'>,
  status: { auth: Pick<Auth, 'enabled'>; settings: Pick<LiveConfig, 'problem' | 'current'> },
  logger: Logger,
): (c: Context) => Promise<Response> {
  return async (c) => {
    // Read per request: an edit can turn auth on or off, or break the file, at any time.
    const authEnabled = status.auth.enabled;
    const problem = status.settings.problem();
    // The problem names the file, fields and YAML positions only, never a value (config/config.ts).
    const config = problem === null ? { ok: true } : { ok: false, ...problem };
    // `.mcp.json` (agents can write it) never stops the API: its problem is said here instead.
    const mcpJsonProblem = status.settings.current().mcpJsonProblem;
    const mcpJson = mcpJsonProblem === null ? { ok: true } : { ok: false, message: mcpJsonProblem };
    try {
      await delegations.ping();
      return c.json({ ok: true, auth: authEnabled, temporal: 'reachable', config, mcpJson });
    } catch (error) {
      // Public route: say what is wrong, never where Temporal is or what it answered.
      if (!isDeputyError(error, 'unavailable')) logger.error('health check failed', error);
      return c.json(
        {
          ok: false,
          auth: authEnabled,
          temporal: 'unreachable',
          config,
          mcpJson,
          message: 'Temporal is not reachable; delegation and card routes answer 503 until it is',
        },
        503,
      );
    }
  };
}

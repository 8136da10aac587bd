/**
 * `GET /metrics` on the API: the process's registry in Prometheus' text format. Off by default;
 * whether it is on is read per request (`metrics.enabled` of the watched configuration,
 * DEPUTY_METRICS over it), so when off it answers 404 like any unknown path. It sits behind the
 * app's auth like every route that is not public: with tokens configured a scrape needs one.
 */
import type { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.js';
import type { LiveConfig } from '../../config/live-config.js';
import { clip } from '../../shared/clip.js';
import { METRICS_CONTENT_TYPE, metricsText } from '../../metrics/exposition.js';
import { metricsSettings } from '../../metrics/settings.js';

export function registerMetricsRoute(
  app: Hono<AppEnv>,
  settings: Pick<LiveConfig, 'current'>,
  env: NodeJS.ProcessEnv = process.env,
): void {
  app.get('/metrics', async (c) => {
    if (!metricsSettings(settings.current(), env).enabled) {
      return c.json(
        {
          error: 'not_found',
          code: 'not_found',
          message: `no route GET ${clip(c.req.path, 100)} (metrics are off: metrics.enabled or DEPUTY_METRICS=1)`,
        },
        404,
      );
    }
    return c.body(await metricsText(), 200, { 'Content-Type': METRICS_CONTENT_TYPE });
  });
}

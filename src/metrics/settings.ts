/**
 * Whether this process serves metrics, and where: the file's `metrics:` section overlaid by the
 * environment (env wins, like the `worker:` keys). Read where it is used: the API per request
 * (an edit of the file turns `/metrics` on or off), the worker and Temporal's exporter once at
 * start (a listening socket and `Runtime.install` cannot follow edits).
 */
import type { ConfigFile } from '../config/schema.js';

export interface MetricsSettings {
  /** `GET /metrics` on the API (and the worker's endpoint, when it has an address). */
  enabled: boolean;
  /** `host:port` of the worker's own `/metrics` (deputy's metrics of that process); null: none. */
  workerAddress: string | null;
  /** `host:port` of the Temporal SDK's Prometheus exporter (its Core runtime); null: none. */
  temporalAddress: string | null;
}

/** `DEPUTY_METRICS=1|true|on` turns metrics on, `0|false|off` off; unset or blank: the file. */
const ON = new Set(['1', 'true', 'on', 'yes']);
const OFF = new Set(['0', 'false', 'off', 'no']);

export function metricsSettings(
  file: Pick<ConfigFile, 'metrics'>,
  env: NodeJS.ProcessEnv = process.env,
): MetricsSettings {
  const flag = env.DEPUTY_METRICS?.trim().toLowerCase() ?? '';
  const enabled = ON.has(flag) ? true : OFF.has(flag) ? false : file.metrics.enabled;
  return {
    enabled,
    workerAddress: env.DEPUTY_WORKER_METRICS_ADDRESS?.trim() || file.metrics.workerAddress || null,
    temporalAddress:
      env.DEPUTY_TEMPORAL_METRICS_ADDRESS?.trim() || file.metrics.temporalAddress || null,
  };
}

/** `host:port` as the listener takes it; `[::1]:9464` for IPv6. Throws on anything else. */
export function parseBindAddress(address: string): { host: string; port: number } {
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(address);
  const port = Number(match?.[3]);
  if (match === null || !Number.isInteger(port) || port > 65535) {
    throw new Error(`metrics address '${address}' is not host:port (e.g. 127.0.0.1:9464)`);
  }
  return { host: match[1] ?? match[2]!, port };
}

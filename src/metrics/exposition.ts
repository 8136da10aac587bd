/**
 * The registry in Prometheus' text format (version 0.0.4), with Node's process metrics
 * (`process_*`, `nodejs_*`: CPU, memory, event loop lag, GC) added the first time anyone asks,
 * so a process whose metrics are off never starts their monitors.
 */
import { collectDefaultMetrics } from 'prom-client';
import { registry } from './deputy-metrics.js';

export const METRICS_CONTENT_TYPE = 'text/plain; version=0.0.4; charset=utf-8';

let processMetrics = false;

export async function metricsText(): Promise<string> {
  if (!processMetrics) {
    processMetrics = true;
    collectDefaultMetrics({ register: registry });
  }
  return registry.metrics();
}

/**
 * deputy's metrics as Prometheus reads them: recorded through the same calls the activities and
 * the API make, rendered by the exposition, parsed by a real Prometheus text parser.
 */
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { describe, expect, it } from 'vitest';
import { deputyMetrics } from '../../src/metrics/deputy-metrics.js';
import { metricsText } from '../../src/metrics/exposition.js';
import { metricsSettings, parseBindAddress } from '../../src/metrics/settings.js';

function sampleOf(text: string, family: string, labels: Record<string, string>): number {
  const found = parsePrometheusTextFormat(text).find((entry) => entry.name === family);
  const sample = found?.metrics.find((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
  );
  return Number(sample?.value ?? sample?.count ?? NaN);
}

describe('metrics exposition', () => {
  it('renders deputy_* families and Node process metrics that a Prometheus parser reads', async () => {
    const pool = { list: () => [{ name: 'files', status: () => 'connected' as const }] };
    const unwatch = deputyMetrics.watchMcpPool(pool);
    deputyMetrics.delegationStarted('scribe');
    deputyMetrics.cardDecided('approve', 'applied', new Date(Date.now() - 42_000).toISOString());
    deputyMetrics.modelCall('scripted:scripts/x.yaml', 'ok', {
      inputTokens: 120,
      outputTokens: 30,
      cachedInputTokens: 100,
    });
    deputyMetrics.toolsRequested([{ name: 'write' }, { name: 'made-up' }], new Set(['write']));
    deputyMetrics.toolRun('write', 'ok');

    const text = await metricsText();
    const families = parsePrometheusTextFormat(text);
    const types = Object.fromEntries(families.map((family) => [family.name, family.type]));
    expect(types).toMatchObject({
      deputy_delegations_started_total: 'COUNTER',
      deputy_cards_decided_total: 'COUNTER',
      deputy_card_decision_seconds: 'HISTOGRAM',
      deputy_model_calls_total: 'COUNTER',
      deputy_model_tokens_total: 'COUNTER',
      deputy_tool_calls_requested_total: 'COUNTER',
      deputy_tool_runs_total: 'COUNTER',
      deputy_mcp_servers: 'GAUGE',
      process_cpu_user_seconds_total: 'COUNTER',
      nodejs_heap_size_used_bytes: 'GAUGE',
    });
    expect(sampleOf(text, 'deputy_delegations_started_total', { agent: 'scribe' })).toBe(1);
    const tokens = { model: 'scripted:scripts/x.yaml' };
    expect(sampleOf(text, 'deputy_model_tokens_total', { ...tokens, kind: 'cached' })).toBe(100);
    expect(sampleOf(text, 'deputy_tool_calls_requested_total', { tool: 'unknown' })).toBe(1);
    // The parser merges a histogram's series into one set of buckets (it drops their labels).
    const decisions = families.find((family) => family.name === 'deputy_card_decision_seconds');
    expect(Number(decisions?.metrics[0]?.buckets?.['+Inf'])).toBeGreaterThanOrEqual(1);
    expect(Number(decisions?.metrics[0]?.buckets?.['30'])).toBe(0);
    expect(sampleOf(text, 'deputy_mcp_servers', { server: 'files', state: 'connected' })).toBe(1);
    expect(sampleOf(text, 'deputy_mcp_servers', { server: 'files', state: 'failed' })).toBe(0);
    // An invented tool name never becomes a label value.
    expect(text).not.toContain('made-up');

    unwatch();
    expect(await metricsText()).not.toContain('server="files"');
  });

  it('is off unless the file or DEPUTY_METRICS turns it on; env wins', () => {
    const file = { metrics: { enabled: false } };
    expect(metricsSettings(file, {})).toEqual({
      enabled: false,
      workerAddress: null,
      temporalAddress: null,
    });
    expect(metricsSettings(file, { DEPUTY_METRICS: '1' }).enabled).toBe(true);
    expect(metricsSettings({ metrics: { enabled: true } }, { DEPUTY_METRICS: 'off' }).enabled).toBe(
      false,
    );
    expect(
      metricsSettings(
        { metrics: { enabled: true, workerAddress: '127.0.0.1:1' } },
        { DEPUTY_WORKER_METRICS_ADDRESS: '127.0.0.1:9464' },
      ).workerAddress,
    ).toBe('127.0.0.1:9464');
    expect(parseBindAddress('[::1]:9464')).toEqual({ host: '::1', port: 9464 });
    expect(() => parseBindAddress('9464')).toThrow(/host:port/);
  });
});

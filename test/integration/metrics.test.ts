/**
 * Metrics on the dev server: an API with metrics on runs a delegation that parks on a
 * card and is approved, over real HTTP, and its `/metrics` (parsed by a real Prometheus text
 * parser) shows the delegation started and finished, the card decided, the model calls and their
 * tokens, the tool run, the workflow's verdict and card (through the worker's sink), and a replay
 * of its history does not count them again. With auth on a scrape needs the token; with metrics off it is a 404. The
 * worker's own endpoint serves the same registry. Neither shows the task or a secret.
 */
import { Worker } from '@temporalio/worker';
import parsePrometheusTextFormat from 'parse-prometheus-text-format';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAuth } from '../../src/api/http/auth.js';
import { fixedConfig } from '../../src/config/live-config.js';
import { watchDelegationCounts } from '../../src/temporal/delegation-counts.js';
import {
  startMetricsEndpoint,
  type MetricsEndpoint,
} from '../../src/api/metrics/worker-endpoint.js';
import { workflowMetricSinks } from '../../src/metrics/workflow-sinks.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createHarness, eventually, workflowBundle, type Harness } from './support/harness.js';
import { jsonCaller } from './support/app-request.js';
import { scribeAgent } from './support/scribe-agent.js';

const TASK = 'Write the quarterly note for metrics-canary-7f3a';
const TOKEN = 'tok-metrics-secret-5b1c';

let harness: Harness;
let open: ApiServer;
let guarded: ApiServer;
let off: ApiServer;
let worker: MetricsEndpoint;
let unwatchCounts: () => void;

beforeAll(async () => {
  harness = await createHarness(scribeAgent);
  const base = { ...harness.config, api: { host: '127.0.0.1', port: 0 } };
  const on = { ...base, metrics: { enabled: true } };
  const deps = { delegations: harness.delegations, localSocket: false, allowedHosts: [] };
  open = await startApiServer(on, deps);
  const tokens = { auth: { tokens: { T_METRICS: { user: 'ops', roles: [] } } } };
  guarded = await startApiServer(on, {
    ...deps,
    auth: createAuth(tokens, { T_METRICS: TOKEN }),
  });
  off = await startApiServer({ ...base, metrics: { enabled: false } }, deps);
  worker = await startMetricsEndpoint('127.0.0.1:0', fixedConfig({ ...on, ...tokens }), {
    env: { T_METRICS: TOKEN },
  });
  unwatchCounts = watchDelegationCounts(harness.client, harness.config.temporal.namespace);
});

afterAll(async () => {
  unwatchCounts?.();
  await worker?.close();
  await Promise.all([open?.close(), guarded?.close(), off?.close()]);
  await harness?.close();
});

type Labels = Record<string, string>;

/** The value of the first sample of `family` whose labels include `labels`; 0 when none. */
function valueOf(text: string, family: string, labels: Labels = {}): number {
  const found = parsePrometheusTextFormat(text).find((entry) => entry.name === family);
  const sample = found?.metrics.find((metric) =>
    Object.entries(labels).every(([key, value]) => metric.labels?.[key] === value),
  );
  return Number(sample?.value ?? 0);
}

async function scrape(url: string, token?: string): Promise<Response> {
  return fetch(url, token === undefined ? {} : { headers: { Authorization: `Bearer ${token}` } });
}

describe('GET /metrics', () => {
  it('counts a delegation that parked, was approved and finished', async () => {
    const call = jsonCaller(() => open.url);
    const before = await (await scrape(`${open.url}/metrics`)).text();
    const session = `metrics-${Date.now()}`;
    const started = await call('POST', '/delegations', { agent: 'scribe', task: TASK, session });
    expect(started.status).toBe(201);
    const id = started.body.delegationId as string;
    const card = await eventually(async () => {
      const { body } = await call('GET', `/sessions/${session}/cards`);
      return (body.cards as Array<{ id: string }>)[0];
    }, 'a pending card');
    expect((await call('POST', `/cards/${card.id}`, { decision: 'approve' })).status).toBe(200);
    await eventually(async () => {
      const { body } = await call('GET', `/delegations/${id}`);
      return body.status === 'completed' ? body : undefined;
    }, 'the delegation to finish');

    const response = await eventually(async () => {
      const scraped = await scrape(`${open.url}/metrics`);
      const text = await scraped.clone().text();
      return valueOf(text, 'deputy_delegations', { status: 'completed' }) >= 1
        ? scraped
        : undefined;
    }, 'visibility to count the finished delegation');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    const moved = (family: string, labels: Labels) =>
      valueOf(text, family, labels) - valueOf(before, family, labels);
    expect(moved('deputy_delegations_started_total', { agent: 'scribe' })).toBe(1);
    expect(moved('deputy_cards_decided_total', { decision: 'approve', outcome: 'applied' })).toBe(
      1,
    );
    const model = { model: 'scripted:scripts/scribe.yaml' };
    expect(moved('deputy_model_calls_total', { ...model, outcome: 'ok' })).toBe(2);
    expect(moved('deputy_model_tokens_total', { ...model, kind: 'input' })).toBeGreaterThan(0);
    expect(moved('deputy_model_tokens_total', { ...model, kind: 'output' })).toBeGreaterThan(0);
    expect(moved('deputy_tool_calls_requested_total', { tool: 'write' })).toBe(1);
    expect(moved('deputy_tool_runs_total', { tool: 'write', outcome: 'ok' })).toBe(1);
    // Only the workflow knows these: its sink call reaches the worker's counters.
    const asked = { tool: 'write', verdict: 'ask' };
    expect(moved('deputy_tool_calls_total', asked)).toBe(1);
    expect(moved('deputy_tool_calls_total', { tool: 'write', verdict: 'allow' })).toBe(0);
    expect(moved('deputy_cards_opened_total', { tool: 'write' })).toBe(1);
    expect(valueOf(text, 'deputy_delegation_counts_up')).toBe(1);
    expect(valueOf(text, 'deputy_delegations', { status: 'completed' })).toBeGreaterThanOrEqual(1);
    expect(parsePrometheusTextFormat(text).map((family) => family.name)).toContain(
      'deputy_card_decision_seconds',
    );
    // Never the task, the delegation or card id, or a token.
    for (const secretOrText of [TASK, 'metrics-canary', id, card.id, TOKEN]) {
      expect(text).not.toContain(secretOrText);
    }

    // Replaying the history (as a recovering worker would) runs the sink calls again: not counted.
    await Worker.runReplayHistory(
      { workflowBundle: await workflowBundle(), replayName: 'metrics', sinks: workflowMetricSinks },
      await harness.client.workflow.getHandle(started.body.workflowId as string).fetchHistory(),
    );
    const replayed = await (await scrape(`${open.url}/metrics`)).text();
    expect(valueOf(replayed, 'deputy_tool_calls_total', asked)).toBe(
      valueOf(text, 'deputy_tool_calls_total', asked),
    );
    expect(valueOf(replayed, 'deputy_cards_opened_total', { tool: 'write' })).toBe(
      valueOf(text, 'deputy_cards_opened_total', { tool: 'write' }),
    );
  });

  it('needs the bearer token when auth is on, on the API and on the worker endpoint', async () => {
    expect((await scrape(`${guarded.url}/metrics`)).status).toBe(401);
    expect((await scrape(`${guarded.url}/metrics`, 'wrong')).status).toBe(401);
    const scraped = await scrape(`${guarded.url}/metrics`, TOKEN);
    expect(scraped.status).toBe(200);
    expect(await scraped.text()).not.toContain(TOKEN);

    expect((await scrape(worker.url)).status).toBe(401);
    const fromWorker = await scrape(worker.url, TOKEN);
    expect(fromWorker.status).toBe(200);
    const families = parsePrometheusTextFormat(await fromWorker.text()).map((f) => f.name);
    expect(families).toEqual(
      expect.arrayContaining(['deputy_model_calls_total', 'process_resident_memory_bytes']),
    );
  });

  it('is a 404 when metrics are off', async () => {
    const response = await scrape(`${off.url}/metrics`);
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ code: 'not_found' });
  });
});

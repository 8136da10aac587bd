/**
 * The process's one Prometheus registry and deputy's own metrics on it (`deputy_*`). Counting is
 * always on (a counter increment costs next to nothing); whether anyone may read them is the
 * exposition's business (exposition.ts). Labels are low-cardinality by construction: agent,
 * model handle, tool and MCP server names come from the configuration and definitions, outcomes
 * from fixed lists. Never a task, an argument, a result, a delegation or card id, or a secret.
 *
 * Workflow code never calls this (it runs in Temporal's sandbox): the worker counts what its
 * activities see and what workflows tell its sink (workflow-sinks.ts), the API what its facade does.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { McpServerStatus } from '../mcp-client/pool.js';
import type { ToolVerdict } from '../shared/workflow-contract/workflow-metrics.js';

export const registry = new Registry();

const delegationsStarted = new Counter({
  name: 'deputy_delegations_started_total',
  help: 'Delegations started through this process (API or CLI), by agent.',
  labelNames: ['agent'] as const,
  registers: [registry],
});

const cardsDecided = new Counter({
  name: 'deputy_cards_decided_total',
  help: 'Approval cards decided through this process, by decision and whether a worker applied it at once (applied) or Temporal stored it for later (recorded).',
  labelNames: ['decision', 'outcome'] as const,
  registers: [registry],
});

const decisionSeconds = new Histogram({
  name: 'deputy_card_decision_seconds',
  help: 'Time from a card opening to its decision through this process, seconds, by decision.',
  labelNames: ['decision'] as const,
  // A person answers in seconds to days: 5 s to 1 day.
  buckets: [5, 30, 60, 300, 900, 1800, 3600, 4 * 3600, 12 * 3600, 86400],
  registers: [registry],
});

const modelCalls = new Counter({
  name: 'deputy_model_calls_total',
  help: 'Model calls run by this worker, by model handle and outcome (ok, error).',
  labelNames: ['model', 'outcome'] as const,
  registers: [registry],
});

const modelTokens = new Counter({
  name: 'deputy_model_tokens_total',
  help: 'Tokens of the model calls run by this worker, by model handle and kind (input, output, cached: the part of input read from the provider cache).',
  labelNames: ['model', 'kind'] as const,
  registers: [registry],
});

const toolCallsRequested = new Counter({
  name: 'deputy_tool_calls_requested_total',
  help: 'Tool calls models asked for, by tool (a name the agent was not given counts as "unknown"). Requested minus run: denied, waiting on a card, or refused.',
  labelNames: ['tool'] as const,
  registers: [registry],
});

const toolRuns = new Counter({
  name: 'deputy_tool_runs_total',
  help: 'Tool calls run by this worker after policy allowed them or a person approved them, by tool and outcome (ok, error, blocked by a hook).',
  labelNames: ['tool', 'outcome'] as const,
  registers: [registry],
});

const toolVerdicts = new Counter({
  name: 'deputy_tool_calls_total',
  help: 'Tool calls by policy verdict (allow, ask, deny), after PreToolUse hooks, by tool ("unknown" for a name the agent was not given); counted by the worker running the workflow, never on replay.',
  labelNames: ['tool', 'verdict'] as const,
  registers: [registry],
});

const cardsOpened = new Counter({
  name: 'deputy_cards_opened_total',
  help: 'Approval cards opened, by tool; counted by the worker running the workflow, never on replay.',
  labelNames: ['tool'] as const,
  registers: [registry],
});

/** The MCP pools of this process, read at scrape time. */
const mcpPools = new Set<{ list(): Array<{ name: string; status(): McpServerStatus }> }>();
const MCP_STATES: readonly McpServerStatus[] = ['connected', 'connecting', 'failed'];

new Gauge({
  name: 'deputy_mcp_servers',
  help: 'MCP server clients of this process, by server name and state (connected, connecting, failed).',
  labelNames: ['server', 'state'] as const,
  registers: [registry],
  collect() {
    this.reset();
    for (const pool of mcpPools) {
      for (const server of pool.list()) {
        this.inc({ server: server.name, state: server.status() });
        for (const state of MCP_STATES) this.inc({ server: server.name, state }, 0);
      }
    }
  },
});

export type CardOutcome = 'applied' | 'recorded';
export type ToolRunOutcome = 'ok' | 'error' | 'blocked';

/** What the rest of deputy records; each call names its facts, never free text. */
export const deputyMetrics = {
  delegationStarted(agent: string): void {
    delegationsStarted.inc({ agent });
  },
  cardDecided(decision: string, outcome: CardOutcome, openedAt: string): void {
    cardsDecided.inc({ decision, outcome });
    const waited = (Date.now() - Date.parse(openedAt)) / 1000;
    if (Number.isFinite(waited) && waited >= 0) decisionSeconds.observe({ decision }, waited);
  },
  modelCall(
    model: string,
    outcome: 'ok' | 'error',
    usage?: { inputTokens: number; outputTokens: number; cachedInputTokens: number },
  ): void {
    modelCalls.inc({ model, outcome });
    if (usage === undefined) return;
    modelTokens.inc({ model, kind: 'input' }, usage.inputTokens);
    modelTokens.inc({ model, kind: 'output' }, usage.outputTokens);
    modelTokens.inc({ model, kind: 'cached' }, usage.cachedInputTokens);
  },
  /** `declared`: the agent's tool names; any other name is counted as `unknown`. */
  toolsRequested(calls: ReadonlyArray<{ name: string }>, declared: ReadonlySet<string>): void {
    for (const call of calls) {
      toolCallsRequested.inc({ tool: declared.has(call.name) ? call.name : 'unknown' });
    }
  },
  toolRun(tool: string, outcome: ToolRunOutcome): void {
    toolRuns.inc({ tool, outcome });
  },
  /** Told by a workflow through the worker's sink; `tool` is already bounded there. */
  toolVerdict(tool: string, verdict: ToolVerdict): void {
    toolVerdicts.inc({ tool, verdict });
  },
  cardOpened(tool: string): void {
    cardsOpened.inc({ tool });
  },
  /** Reports `pool`'s servers at each scrape until the returned function is called. */
  watchMcpPool(pool: { list(): Array<{ name: string; status(): McpServerStatus }> }): () => void {
    mcpPools.add(pool);
    return () => mcpPools.delete(pool);
  },
};

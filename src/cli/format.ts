/** Human-readable lines for delegations, cards and events. `--json` bypasses all of this. */
import type {
  ApprovalCard,
  DelegationEvent,
  DelegationResult,
  UsageTotals,
} from '../shared/delegation.js';
import { describePermission } from '../shared/permission-in-effect.js';
import type { SandboxBounds } from '../shared/sandbox-contract.js';
import type { DelegationSummary } from '../temporal/delegations/facade.js';
import type { DelegationDetail, ModelRetry } from '../temporal/delegations/types.js';
import { grantLines } from './delegations/grant-lines.js';
import { steeringLines } from './delegations/steering-lines.js';

export function approveCommand(cardId: string): string {
  return `deputy approve ${cardId}`;
}

export function denyCommand(cardId: string): string {
  return `deputy deny ${cardId} --reason "..."`;
}

export function oneLine(text: string, max = 160): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function argumentsLine(args: Record<string, unknown>): string {
  return oneLine(JSON.stringify(args), 200);
}

export function cardLines(card: ApprovalCard): string[] {
  return [
    `card ${card.id}: ${card.agent} wants ${card.tool} ${argumentsLine(card.arguments)}`,
    `  why: ${card.reason}`,
    `  delegation ${card.delegationId} (session ${card.session}), opened ${card.openedAt}`,
    ...(card.deadline === undefined
      ? []
      : [`  deadline: ${card.deadline}${card.remindAt ? ` (reminder ${card.remindAt})` : ''}`]),
    `  approve: ${approveCommand(card.id)}`,
    `  deny:    ${denyCommand(card.id)}`,
  ];
}

/** Progress lines of a foreground delegation, one event at a time. */
export function eventLines(event: DelegationEvent): string[] {
  switch (event.type) {
    case 'started':
      return [`started ${event.agent} (model ${event.model})`];
    case 'model-turn': {
      const calls = event.toolCalls.length > 0 ? ` -> ${event.toolCalls.join(', ')}` : '';
      return [`round ${event.round}: ${oneLine(event.text) || '(no text)'}${calls}`];
    }
    case 'tool-call':
      return [`  ${event.tool} [${event.verdict}] ${oneLine(event.summary, 120)}`];
    case 'card-opened':
      return ['approval needed:', ...cardLines(event.card).map((line) => `  ${line}`)];
    case 'card-decided': {
      const by = event.card.state.status !== 'pending' && event.card.state.decidedBy;
      const expired = event.card.state.status !== 'pending' && event.card.state.expired;
      return [
        `card ${event.card.id} ${event.card.state.status}${by ? ` by ${by}` : ''}${expired ? ` (expired: no decision by ${event.card.deadline})` : ''}`,
      ];
    }
    case 'card-reminder':
      return [
        `reminder: card ${event.card.id} (${event.card.tool}) is still waiting; deadline ${event.card.deadline}`,
      ];
    case 'finished':
      return [`finished: ${event.result.status}`];
    case 'message':
      return [`> ${oneLine(event.text, 200)}`];
    case 'reply':
      return [event.text];
    case 'task-started':
      return [
        `task ${event.task.taskId} started: ${event.task.agent} (${oneLine(event.task.description, 80)})${event.task.background ? ' in the background' : ''}`,
      ];
    case 'task-finished':
      return [
        `task ${event.task.taskId} ${event.task.result?.status ?? event.task.status}: ${event.task.agent} ${oneLine(event.task.lastText, 120)}`,
      ];
    case 'compacted':
      return [
        `compacted ${event.roundsReplaced} earlier round(s) by ${event.by}: ~${event.tokensBefore} -> ~${event.tokensAfter} tokens`,
      ];
    case 'starts-mid-run':
      return [event.text];
  }
}

/** `1456 in (0 cached), 59 out, 3 model calls`, and the calls no provider counted. */
export function usageLine(usage: UsageTotals): string {
  const uncounted =
    usage.modelCallsWithoutUsage > 0 ? `, ${usage.modelCallsWithoutUsage} not counted` : '';
  return `${usage.inputTokens} in (${usage.cachedInputTokens} cached), ${usage.outputTokens} out, ${usage.modelCalls} model call(s)${uncounted}`;
}

export function resultLines(result: DelegationResult): string[] {
  const denied = result.deniedCalls ?? [];
  const tally = denied.length > 0 ? `, ${denied.length} tool call(s) denied` : '';
  const lines = [`status: ${result.status} after ${result.roundsUsed} round(s)${tally}`];
  for (const call of denied)
    lines.push(`  denied ${call.tool} (by ${call.by}): ${oneLine(call.reason, 120)}`);
  if (result.notice) lines.push(`notice: ${result.notice}`);
  if (result.text) lines.push('', result.text);
  return lines;
}

export function stateLines(state: DelegationDetail): string[] {
  const lines = [
    `delegation ${state.delegationId}`,
    `  workflow: ${state.workflowId}`,
    `  agent:    ${state.agent}${state.model ? ` (model ${state.model})` : ''}`,
    `  session:  ${state.session}`,
    `  status:   ${state.status}`,
    `  rounds:   ${state.roundsUsed}${state.maxTurns ? ` of ${state.maxTurns}` : ''}`,
  ];
  if (state.partial !== undefined) {
    lines.push(`  partial:  ${state.partial}; decided cards and transcript unknown, ask again`);
  }
  if (state.definitionHash)
    lines.push(`  definition: sha256 ${state.definitionHash.slice(0, 12)}…`);
  // What it may do, and whether its caller's permission mode capped it.
  if (state.permission) lines.push(`  permission: ${describePermission(state.permission)}`);
  if (state.sandbox !== undefined) lines.push(...sandboxLines(state.sandbox));
  if (state.usage) lines.push(`  tokens:   ${usageLine(state.usage)}`);
  // Where its workspace's work runs: a worker must serve this queue for it to move.
  if (state.toolQueue) lines.push(`  tools on: ${state.toolQueue}`);
  if (state.modelRetry) lines.push(...modelRetryLines(state.modelRetry));
  if (state.pendingCards.length > 0) {
    lines.push(`  pending cards: ${state.pendingCards.length}`);
    for (const card of state.pendingCards) lines.push(...cardLines(card).map((l) => `    ${l}`));
  }
  for (const card of state.decidedCards) {
    lines.push(`  card ${card.id} (${card.tool}): ${card.state.status}`);
  }
  lines.push(...grantLines(state.grants ?? []));
  lines.push(...steeringLines(state));
  if (state.result) lines.push('', ...resultLines(state.result));
  else if (state.deniedCalls.length > 0) lines.push(`  denied so far: ${state.deniedCalls.length}`);
  return lines;
}

/** Whether its bash calls run in a sandbox, and what one lets them touch. */
function sandboxLines(sandbox: SandboxBounds | null): string[] {
  if (sandbox === null) return ["  sandbox:  off (bash runs as the worker's user)"];
  const limits = Object.entries(sandbox.limits).map(([name, value]) => `${name} ${value}`);
  return [
    '  sandbox:  on, no network',
    `    read-write: ${sandbox.readWrite.join(', ')}`,
    ...(sandbox.readOnly.length > 0 ? [`    read-only:  ${sandbox.readOnly.join(', ')}`] : []),
    `    env:        ${sandbox.env.length > 0 ? sandbox.env.join(', ') : '(none declared)'}`,
    ...(limits.length > 0 ? [`    limits:     ${limits.join(', ')}`] : []),
  ];
}

/** A model call riding out a provider failure: which attempt, and why the last one failed. */
function modelRetryLines(retry: ModelRetry): string[] {
  const of = retry.maximumAttempts > 0 ? ` of ${retry.maximumAttempts}` : '';
  const when = retry.nextAttemptAt === null ? 'running' : `at ${retry.nextAttemptAt}`;
  return [
    `  model call: retrying, attempt ${retry.attempt}${of} ${when}`,
    `    last failure: ${retry.lastFailure}`,
  ];
}

export function summaryTable(rows: DelegationSummary[]): string[] {
  if (rows.length === 0) return ['no delegations'];
  const header = ['ID', 'AGENT', 'SESSION', 'STATUS', 'CARDS', 'TOKENS', 'STARTED', 'TASK'];
  const cells = rows.map((row) => [
    row.delegationId,
    row.agent ?? '?',
    row.session ?? '?',
    row.status,
    String(row.pendingCards),
    row.tokens === null ? '-' : String(row.tokens),
    row.startedAt.replace('T', ' ').slice(0, 19),
    oneLine(row.task ?? '', 60),
  ]);
  return table([header, ...cells]);
}

export function table(rows: string[][]): string[] {
  const widths: number[] = [];
  for (const row of rows) {
    row.forEach((cell, index) => (widths[index] = Math.max(widths[index] ?? 0, cell.length)));
  }
  return rows.map((row) =>
    row
      .map((cell, index) => (index === row.length - 1 ? cell : cell.padEnd(widths[index] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}

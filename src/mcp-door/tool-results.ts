/**
 * What the MCP door answers for a delegation: its final text as the tool result's text, and its
 * status, denied calls and usage as structured content (the same fields `GET /delegations/:id`
 * has), so a host shows the answer and a program reads the rest. Every answer is masked.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ZodError } from 'zod';
import type { SecretMasker } from '../secrets/masker.js';
import type { ApprovalCard, DelegationResult, DelegationStatus } from '../shared/delegation.js';
import type { DelegationDetail } from '../temporal/delegations/types.js';
import { describePermission, type PermissionInEffect } from '../shared/permission-in-effect.js';

/** The structured content of every agent tool's answer. */
export interface DelegationAnswer {
  delegationId: string;
  agent: string;
  status: DelegationStatus;
  /** The final answer (or the partial one of a stopped run); empty until it finishes. */
  text: string;
  notice: string | null;
  /** Cards waiting for a person: decide with `deputy_decide`, or where the parent session is. */
  pendingCards: CardSummary[];
  deniedCalls: Array<{ tool: string; reason: string }>;
  usage: DelegationResult['usage'] | null;
  /** Why a call stopped waiting before the delegation finished (parked, no worker). */
  message?: string;
  /** What it ran with, when the caller stated a mode (the ceiling): docs/policy.md. */
  permission?: PermissionInEffect;
}

export interface CardSummary {
  id: string;
  tool: string;
  arguments: Record<string, unknown>;
  reason: string;
  openedAt: string;
}

export function cardSummary(card: ApprovalCard): CardSummary {
  const { id, tool, arguments: args, reason, openedAt } = card;
  return { id, tool, arguments: args, reason, openedAt };
}

/** The answer of a finished delegation: its text, failed runs flagged as errors. */
export function finishedAnswer(
  secrets: SecretMasker,
  started: { delegationId: string; agent: string },
  result: DelegationResult,
  permission?: PermissionInEffect,
): CallToolResult {
  const answer: DelegationAnswer = {
    delegationId: started.delegationId,
    agent: started.agent,
    status: result.status,
    text: result.text,
    notice: result.notice,
    pendingCards: [],
    deniedCalls: (result.deniedCalls ?? []).map(({ tool, reason }) => ({ tool, reason })),
    usage: result.usage ?? null,
    ...(permission === undefined ? {} : { permission }),
  };
  const lines = [result.text || '(no text)'];
  if (result.notice !== null) lines.push(`[${result.notice}]`);
  if (permission?.capped === true) lines.push(`[ran at ${describePermission(permission)}]`);
  if (answer.deniedCalls.length > 0) {
    lines.push(
      `[denied: ${answer.deniedCalls.map((call) => `${call.tool} (${call.reason})`).join('; ')}]`,
    );
  }
  return masked(secrets, lines.join('\n\n'), answer, result.status === 'failed');
}

/**
 * The answer of a delegation that has not finished: parked on cards nobody here can answer,
 * started in the background, or waiting for a worker. Says how to go on.
 */
export function unfinishedAnswer(
  secrets: SecretMasker,
  state: DelegationDetail,
  message: string,
): CallToolResult {
  const answer: DelegationAnswer = {
    delegationId: state.delegationId,
    agent: state.agent,
    status: state.status,
    text: '',
    notice: null,
    pendingCards: state.pendingCards.map(cardSummary),
    deniedCalls: state.deniedCalls.map(({ tool, reason }) => ({ tool, reason })),
    usage: state.usage ?? null,
    message,
    ...(state.permission === undefined ? {} : { permission: state.permission }),
  };
  return masked(secrets, `delegation ${state.delegationId} is ${state.status}: ${message}`, answer);
}

/** A control tool's answer: a line for people, the value for programs. */
export function valueAnswer(
  secrets: SecretMasker,
  text: string,
  value: Record<string, unknown>,
): CallToolResult {
  return masked(secrets, text, value);
}

/** A refusal the model (or person) can read: a result flagged as an error, never an exception. */
export function errorAnswer(secrets: SecretMasker, message: string): CallToolResult {
  return { content: [{ type: 'text', text: secrets.text(message) }], isError: true };
}

/** What is wrong with a tool's arguments, field by field. */
export function argumentProblem(tool: string, error: ZodError): string {
  const issues = error.issues.map(
    (issue) => `${issue.path.join('.') || '(arguments)'}: ${issue.message}`,
  );
  return `invalid arguments for ${tool}: ${issues.join('; ')}`;
}

function masked(
  secrets: SecretMasker,
  text: string,
  value: object,
  isError = false,
): CallToolResult {
  return {
    content: [{ type: 'text', text: secrets.text(text) }],
    structuredContent: secrets.value(value) as Record<string, unknown>,
    ...(isError ? { isError: true } : {}),
  };
}

/**
 * Reading delegations from visibility alone (no worker needed): a listing row, the status that
 * combines the workflow's own search attribute with the execution status, the memo.
 */
import type { WorkflowExecutionDescription, WorkflowExecutionInfo } from '@temporalio/client';
import type { ApprovalCard, DelegationStatus } from '../../shared/delegation.js';
import {
  AGENT_ATTRIBUTE,
  DELEGATION_ID_ATTRIBUTE,
  PENDING_CARDS_ATTRIBUTE,
  SESSION_ATTRIBUTE,
  STATUS_ATTRIBUTE,
  TOKENS_ATTRIBUTE,
} from '../../shared/workflow-contract/search-attributes.js';
import { effectiveStatus } from './status.js';
import type { DelegationOrigin, DelegationSummary } from './types.js';

export function statusOf(
  info: WorkflowExecutionInfo | WorkflowExecutionDescription,
): DelegationStatus {
  return effectiveStatus(info.status.name, info.typedSearchAttributes.get(STATUS_ATTRIBUTE));
}

export function summaryOf(info: WorkflowExecutionInfo): DelegationSummary {
  const attributes = info.typedSearchAttributes;
  const task = info.memo?.task;
  return {
    delegationId: attributes.get(DELEGATION_ID_ATTRIBUTE) ?? info.workflowId,
    workflowId: info.workflowId,
    agent: attributes.get(AGENT_ATTRIBUTE) ?? null,
    session: attributes.get(SESSION_ATTRIBUTE) ?? null,
    status: statusOf(info),
    pendingCards:
      info.status.name === 'RUNNING' ? (attributes.get(PENDING_CARDS_ATTRIBUTE) ?? 0) : 0,
    task: typeof task === 'string' ? task : null,
    tokens: attributes.get(TOKENS_ATTRIBUTE) ?? null,
    startedAt: info.startTime.toISOString(),
    closedAt: info.closeTime?.toISOString() ?? null,
    ...originField(info.memo),
  };
}

/** `{origin}` from the memo's `forkedFrom` (a fork's or a resumed delegation's), else nothing. */
export function originField(memo: Record<string, unknown> | undefined): {
  origin?: DelegationOrigin;
} {
  const forkedFrom = memo?.forkedFrom as Partial<DelegationOrigin> | undefined;
  if (typeof forkedFrom?.delegationId !== 'string' || typeof forkedFrom.fromRound !== 'number')
    return {};
  return {
    origin: {
      delegationId: forkedFrom.delegationId,
      fromRound: forkedFrom.fromRound,
      ...(forkedFrom.resumed === true ? { resumed: true } : {}),
    },
  };
}

/**
 * Pending cards as the run last published them (search attribute + memo, written together by
 * the workflow); null for a run with pending cards that predates the memo copy.
 */
export function mirroredPendingCards(
  description: WorkflowExecutionDescription,
): ApprovalCard[] | null {
  if (description.status.name !== 'RUNNING') return [];
  if ((description.typedSearchAttributes.get(PENDING_CARDS_ATTRIBUTE) ?? 0) === 0) return [];
  const cards = description.memo?.pendingCards;
  return Array.isArray(cards) ? (cards as ApprovalCard[]) : null;
}

/** The memo's `startedBy` (the owner's user id), written by start(); null when absent. */
export function memoStartedBy(memo: Record<string, unknown> | undefined): string | null {
  const startedBy = memo?.startedBy;
  return typeof startedBy === 'string' ? startedBy : null;
}

export { firstLine } from '../../shared/delegation.js';

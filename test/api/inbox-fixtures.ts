/**
 * Cards and delegation states for the approvals inbox tests (card-inbox.test.ts, inbox-step.test.ts,
 * card-stream-look-in-flight.test.ts): delegation `d-N`'s card `d-N.M` in session s-1, pending.
 */
import type { ApprovalCard, DelegationState } from '../../src/shared/delegation.js';

export function card(id: string, tool: string, extra: Partial<ApprovalCard> = {}): ApprovalCard {
  const delegationId = id.slice(0, id.lastIndexOf('.'));
  return {
    id,
    delegationId,
    workflowId: `delegation/s-1/${delegationId}`,
    session: 's-1',
    agent: 'demo',
    tool,
    arguments: { path: 'note.txt' },
    reason: 'asks',
    openedAt: `2026-01-01T00:00:0${id.at(-1)}.000Z`,
    state: { status: 'pending' },
    ...extra,
  };
}

/** A running delegation's state, with `decidedCards` and nothing pending. */
export function stateOf(delegationId: string, decidedCards: ApprovalCard[]): DelegationState {
  return {
    delegationId,
    workflowId: `delegation/s-1/${delegationId}`,
    agent: 'demo',
    session: 's-1',
    status: 'running',
    roundsUsed: 1,
    maxTurns: 6,
    model: null,
    definitionHash: null,
    pendingCards: [],
    decidedCards,
    transcriptSummary: [],
    deniedCalls: [],
    result: null,
  };
}

/** `base` as its delegation's decided cards show it, decided at 00:00:09. */
export function decided(
  base: ApprovalCard,
  status: 'approved' | 'denied',
  decidedBy: string,
  reason: string,
): ApprovalCard {
  return {
    ...base,
    state: { status, reason, decidedAt: '2026-01-01T00:00:09.000Z', decidedBy, decisionId: 'x' },
  };
}

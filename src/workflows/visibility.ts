/**
 * Status and pending cards, where ops and clients can see them without a worker: search
 * attributes for the UI's lists, and a copy of the pending cards in the memo (POL-2).
 * Sandbox code. Every call here is a workflow command, so the order of calls is history.
 */
import { patched, upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { ApprovalCard } from '../shared/delegation.js';
import { PENDING_CARDS_ATTRIBUTE, STATUS_ATTRIBUTE } from '../shared/search-attributes.js';
import type { DelegationRun } from './delegation-run.js';

/**
 * Patch id: pending cards mirrored into the memo, and status published on every decision.
 * Histories recorded before it replay without those commands.
 */
const CARDS_IN_MEMO = 'cards-in-memo';

/** Memo copies are bounded: a `write` card's full content stays in the state query. */
const MEMO_ARGUMENT_CHARS = 1_000;

export function publish(run: DelegationRun): void {
  upsertSearchAttributes([
    { key: STATUS_ATTRIBUTE, value: run.status },
    { key: PENDING_CARDS_ATTRIBUTE, value: run.pendingCards().length },
  ]);
  if (patched(CARDS_IN_MEMO)) upsertMemo({ pendingCards: run.pendingCards().map(cardForMemo) });
}

/** After a card decision; histories from before the patch published nothing here. */
export function publishDecision(run: DelegationRun): void {
  if (patched(CARDS_IN_MEMO)) publish(run);
}

function cardForMemo(card: ApprovalCard): ApprovalCard {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(card.arguments)) {
    args[key] =
      typeof value === 'string' && value.length > MEMO_ARGUMENT_CHARS
        ? `${value.slice(0, MEMO_ARGUMENT_CHARS)}… [${value.length - MEMO_ARGUMENT_CHARS} more characters]`
        : value;
  }
  return { ...card, arguments: args };
}

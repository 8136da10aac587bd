/**
 * Status and pending cards, where ops and clients can see them without a worker: search
 * attributes for the UI's lists, and a copy of the pending cards in the memo.
 * Sandbox code. Every call here is a workflow command, so the order of calls is history.
 */
import type { SearchAttributeUpdatePair } from '@temporalio/common';
import { patched, upsertMemo, upsertSearchAttributes } from '@temporalio/workflow';
import type { ApprovalCard } from '../shared/delegation.js';
import {
  PARKED_SINCE_ATTRIBUTE,
  PENDING_CARDS_ATTRIBUTE,
  STATUS_ATTRIBUTE,
  TOKENS_ATTRIBUTE,
} from '../shared/workflow-contract/search-attributes.js';
import type { DelegationRun } from './delegation-run.js';
import { showDetails } from './details.js';

/**
 * Patch id: pending cards mirrored into the memo, and status published on every decision.
 * Histories recorded before it replay without those commands.
 */
const CARDS_IN_MEMO = 'cards-in-memo';

/** Memo copies are bounded: a `write` card's full content stays in the state query. */
const MEMO_ARGUMENT_CHARS = 1_000;

export function publish(run: DelegationRun): void {
  publishStatus(run);
  if (patched(CARDS_IN_MEMO)) publishCardsMemo(run);
  // Asked here for their markers (and Temporal's change-version upserts) to land with a park's
  // commands, not in the task that applies the decision, which is the one these patches shorten.
  patched(ONE_PUBLISH_ON_RESUME);
  patched(MEMO_AFTER_RESUME);
}

function publishStatus(run: DelegationRun): void {
  // The UI's details follow the status (not a command: details.ts).
  showDetails(run);
  const tokens = run.tokensUsed();
  upsertSearchAttributes([
    { key: STATUS_ATTRIBUTE, value: run.status },
    { key: PENDING_CARDS_ATTRIBUTE, value: run.pendingCards().length },
    // Only once there are some: histories from before usage was counted replay as recorded.
    ...(tokens === 0 ? [] : [{ key: TOKENS_ATTRIBUTE, value: tokens }]),
    ...parkedSince(run),
  ]);
}

/**
 * Patch id: the status upsert carries DeputyParkedSince. Older runs replay the
 * upserts they recorded; the attribute must be registered on the namespace (the worker checks).
 */
const PARKED_SINCE = 'parked-since-attribute';

/** While parked, since when its oldest pending card waits; null clears it once it is not. */
function parkedSince(run: DelegationRun): SearchAttributeUpdatePair[] {
  if (!patched(PARKED_SINCE)) return [];
  const opened = run.pendingCards().map((card) => card.openedAt);
  const oldest = opened.length === 0 ? null : opened.reduce((a, b) => (a < b ? a : b));
  return [
    {
      key: PARKED_SINCE_ATTRIBUTE,
      value: run.status === 'parked' && oldest !== null ? new Date(oldest) : null,
    },
  ];
}

function publishCardsMemo(run: DelegationRun): void {
  memoBehind.delete(run);
  const deadline = run.earliestCardDeadline();
  upsertMemo({
    pendingCards: run.pendingCards().map(cardForMemo),
    // Only where deadlines apply (older histories replay the memo they recorded); null
    // removes the key once no pending card has one.
    ...(deadline === undefined ? {} : { earliestCardDeadline: deadline }),
  });
}

/**
 * Patch id: resuming from a park publishes the status alone; the memo's copy of the decided
 * cards is cleared in the next workflow task that has commands of its own (catchUpMemo), off
 * the path from a decision to its tool starting. Readers lose nothing meanwhile:
 * the memo's cards count only while the pending-cards attribute, published at once, says so.
 */
const MEMO_AFTER_RESUME = 'memo-after-resume';

/** Runs whose memo still lists the cards they resumed from (a WeakSet: no state of its own). */
const memoBehind = new WeakSet<DelegationRun>();

/** The rounds resume after their last card was decided: see MEMO_AFTER_RESUME. */
export function publishResume(run: DelegationRun): void {
  if (!patched(MEMO_AFTER_RESUME)) return publish(run);
  publishStatus(run);
  memoBehind.add(run);
}

/** Clears the memo's copy of decided cards when a resume left it behind (after the calls). */
export function catchUpMemo(run: DelegationRun): void {
  if (memoBehind.has(run)) publishCardsMemo(run);
}

/**
 * Patch id: the decision that leaves no card pending publishes nothing itself, because the
 * rounds resume in the same activation and publish then: one upsert pair where there were two.
 */
const ONE_PUBLISH_ON_RESUME = 'one-publish-on-resume';

/**
 * After a card decision; histories from before the patch published nothing here.
 * @param resumes the decision came from a person (signal or update) or a deadline, so the last one
 *   resumes the rounds; settling cards on a stop publishes each, as the stop has no resume to do it.
 */
export function publishDecision(run: DelegationRun, resumes: boolean): void {
  if (!patched(CARDS_IN_MEMO)) return;
  if (resumes && run.pendingCards().length === 0 && patched(ONE_PUBLISH_ON_RESUME)) return;
  publish(run);
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

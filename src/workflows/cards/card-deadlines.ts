/**
 * Card deadlines and reminders: a parked run waits for its cards' decisions, their
 * reminders and their deadlines, whichever comes first. Each wait is a Temporal timer, so a
 * deadline that passes while no worker runs settles the card as soon as one does, and once:
 * the settlement is a workflow step like a person's decision. Sandbox code.
 */
import { ApplicationFailure, condition } from '@temporalio/workflow';
import type { CardDeadlines } from '../../shared/capability-snapshot.js';
import {
  DEADLINE_DECIDER,
  type ApprovalCard,
  type CardDecision,
  type DelegationOptions,
} from '../../shared/delegation.js';
import { formatDuration, parseDuration } from '../../shared/duration.js';
import { FAILURE_TYPES } from '../../shared/workflow-contract/failures.js';
import type { DelegationRun } from '../delegation-run.js';

/** Settles a card as the handlers do (registerRunHandlers). */
export type SettleCard = (decision: CardDecision, how: SettleHow) => ApprovalCard | null;

export interface SettleHow {
  /** The rounds go on right after it, and publish then (publishDecision). */
  resumes?: boolean;
  /** Settled by its deadline: the card says so. */
  expired?: boolean;
}

/**
 * The deadlines a run's cards get: the snapshot's (definition, else workspace), with the
 * delegation's own `cardTimeout` over their timeout. Null: cards wait as long as it takes.
 */
export function cardDeadlinesFor(
  snapshotDeadlines: CardDeadlines | undefined,
  options: Pick<DelegationOptions, 'cardTimeout'>,
): CardDeadlines | null {
  if (options.cardTimeout === undefined) return snapshotDeadlines ?? null;
  const parsed = parseDuration(options.cardTimeout);
  if (!parsed.ok) {
    // The API and the CLI check it before starting; a raw Temporal start may not have.
    throw ApplicationFailure.nonRetryable(
      `cardTimeout: ${parsed.problem}`,
      FAILURE_TYPES.cardTimeoutInvalid,
    );
  }
  const reminderMs = snapshotDeadlines?.reminderMs;
  return {
    timeoutMs: parsed.ms,
    outcome: snapshotDeadlines?.outcome ?? 'deny',
    source: 'delegation',
    ...(reminderMs !== undefined && reminderMs < parsed.ms ? { reminderMs } : {}),
  };
}

/**
 * Returns once no card is pending: every one decided by a person, settled by a stop, or by its
 * deadline. Reminders fire on the way, once per card.
 */
export async function awaitCardDecisions(
  run: DelegationRun,
  settle: SettleCard,
  onReminder: (card: ApprovalCard) => Promise<void>,
): Promise<void> {
  for (;;) {
    const pending = run.pendingCards();
    if (pending.length === 0) return;
    const next = nextDue(pending);
    if (next === null) {
      await condition(() => !run.hasPendingCards());
      return;
    }
    // Woken early by any decision: the next due time may have changed.
    const decided = await condition(
      () => run.pendingCards().length < pending.length,
      Math.max(1, next - Date.now()),
    );
    if (!decided) await settleDue(run, settle, onReminder);
  }
}

/** The earliest reminder not yet sent or deadline among `cards`, in epoch ms; null: none. */
function nextDue(cards: ApprovalCard[]): number | null {
  const times = cards.flatMap((card) => [
    ...(reminderPending(card) ? [card.remindAt!] : []),
    ...(card.deadline !== undefined ? [card.deadline] : []),
  ]);
  return times.length === 0 ? null : Math.min(...times.map((time) => Date.parse(time)));
}

async function settleDue(
  run: DelegationRun,
  settle: SettleCard,
  onReminder: (card: ApprovalCard) => Promise<void>,
): Promise<void> {
  const now = Date.now();
  for (const card of run.pendingCards()) {
    if (card.deadline !== undefined && Date.parse(card.deadline) <= now) {
      settle(expiry(card, run.cardTimeoutOutcome()), { resumes: true, expired: true });
    } else if (reminderPending(card) && Date.parse(card.remindAt!) <= now) {
      run.remindCard(card);
      await onReminder(card);
    }
  }
}

/** The card has a reminder that has not fired yet. */
function reminderPending(card: ApprovalCard): boolean {
  return card.remindAt !== undefined && card.remindedAt === undefined;
}

function expiry(card: ApprovalCard, outcome: CardDeadlines['outcome']): CardDecision {
  const waited = formatDuration(Date.parse(card.deadline!) - Date.parse(card.openedAt));
  const what = outcome === 'approve' ? 'approved' : 'denied';
  return {
    cardId: card.id,
    decision: outcome,
    reason: `no decision within ${waited} (card deadline ${card.deadline}): ${what} by the deadline`,
    decidedBy: DEADLINE_DECIDER,
  };
}

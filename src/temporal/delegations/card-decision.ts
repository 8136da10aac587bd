/**
 * Deciding an approval card so that the caller always has an answer within seconds, whether a
 * worker runs or not (POL-2, RUN-4):
 *
 * 1. Check what Temporal knows without a worker: the run is open, the card is pending (the
 *    workflow mirrors its pending cards into the memo) and no decision on it is already waiting
 *    in the run's history.
 * 2. Send the decision as the `decideCard` signal. Temporal stores it durably in the history:
 *    it applies when a worker processes the run, now or after any restart.
 * 3. If a worker polls, wait up to `decisionWaitMs` for the card to leave the pending list and
 *    answer with the decided card; otherwise answer `recorded`.
 *
 * The `decideCardUpdate` update would answer synchronously, but only through a worker: with none
 * (or one that just died, which still looks alive for a while) it waits, and after the caller
 * gave up it may still apply. A stored signal never leaves anyone in that doubt.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { WorkflowExecutionDescription, WorkflowHandle } from '@temporalio/client';
import {
  delegationIdOfCard,
  type ApprovalCard,
  type CardDecision,
  type DelegationState,
} from '../../shared/delegation.js';
import { decideCardSignal } from '../../shared/messages.js';
import { DeputyError } from '../../errors.js';
import { TemporalUnreachableError } from '../unreachable.js';
import { describe, type DelegationLookup } from './lookup.js';
import { rpc } from './rpc.js';
import type { DecideOutcome, Delegations, RecordedDecision } from './types.js';
import { unappliedDecisions } from './unapplied-decisions.js';
import { mirroredPendingCards } from './visibility.js';
import type { LiveWorkerCheck } from './worker-liveness.js';

export interface CardDecisionDeps {
  lookup: DelegationLookup;
  hasLiveWorker: LiveWorkerCheck;
  /** Reads a delegation's state; its query should be bounded by about `decisionWaitMs`. */
  get(delegationId: string): Promise<DelegationState>;
  /** Milliseconds to wait for a polling worker to apply the decision before answering `recorded`. */
  decisionWaitMs: number;
  /** Milliseconds between looks at the run while waiting. */
  pollMs: number;
}

export function createCardDecision(deps: CardDecisionDeps): Delegations['decide'] {
  return async function decide(cardId, request) {
    const delegationId = delegationIdOfCard(cardId);
    if (delegationId === null) throw unknownCard(cardId);
    const handle = await handleOfCard(deps.lookup, delegationId, cardId);
    const description = await describe(delegationId, handle);
    if (description.status.name !== 'RUNNING') {
      throw await closedRunError(deps, delegationId, cardId);
    }
    const card = await pendingCard(deps, delegationId, cardId, description);
    const decision: CardDecision = {
      cardId,
      decision: request.decision,
      ...(request.reason === undefined ? {} : { reason: request.reason }),
      ...(request.decidedBy == null ? {} : { decidedBy: request.decidedBy }),
    };

    const waiting = await firstUnapplied(handle, description.runId, cardId);
    if (waiting !== undefined) throw alreadyRecorded(cardId, waiting);
    await rpc(handle.client, () => handle.signal(decideCardSignal, decision));
    // Two callers can both pass the check above before either signal lands. The workflow
    // applies whichever is first in history, so the other one is told now, not never.
    const first = await firstUnapplied(handle, description.runId, cardId);
    if (first !== undefined && !sameDecision(first, decision)) throw alreadyRecorded(cardId, first);

    return outcome(deps, handle, description, card, decision);
  };
}

/** Waits (bounded) for a live worker to apply the decision; else the decision is `recorded`. */
async function outcome(
  deps: CardDecisionDeps,
  handle: WorkflowHandle,
  description: WorkflowExecutionDescription,
  card: ApprovalCard,
  decision: CardDecision,
): Promise<DecideOutcome> {
  const { delegationId } = card;
  const what = `${decision.decision} of card ${card.id} recorded`;
  if (!(await deps.hasLiveWorker(description.taskQueue))) {
    return recorded(
      card,
      decision,
      `${what}: no worker is running for delegation ${delegationId} (task queue ${description.taskQueue}); it applies when a worker picks the delegation up`,
    );
  }
  const until = Date.now() + deps.decisionWaitMs;
  for (;;) {
    if (Date.now() >= until) {
      return recorded(
        card,
        decision,
        `${what}: no worker applied it within ${deps.decisionWaitMs / 1000} s (one may be restarting); it applies when a worker picks the delegation up`,
      );
    }
    await sleep(deps.pollMs);
    if (!stillPending(await describe(delegationId, handle), card.id)) break;
  }
  const state = await deps.get(delegationId).catch((error: unknown) => {
    if (error instanceof TemporalUnreachableError) throw error;
    return null;
  });
  const decided = state?.decidedCards.find((candidate) => candidate.id === card.id);
  if (decided === undefined) {
    return recorded(
      card,
      decision,
      `${what} and taken up by a worker; the delegation's state shows how the card was settled`,
    );
  }
  if (!decidedAs(decided, decision)) {
    throw new DeputyError(
      'conflict',
      `card ${card.id} was ${decided.state.status}${byWhom(decided)} before your decision could apply; yours was not applied`,
    );
  }
  return decided;
}

/**
 * The pending card, from the memo when the run mirrors its cards; otherwise (or when the memo
 * says it is not pending) from the workflow itself if a worker can answer.
 */
async function pendingCard(
  deps: CardDecisionDeps,
  delegationId: string,
  cardId: string,
  description: WorkflowExecutionDescription,
): Promise<ApprovalCard> {
  const mirrored = mirroredPendingCards(description);
  const fromMemo = mirrored?.find((card) => card.id === cardId);
  if (fromMemo !== undefined) return fromMemo;
  if (await deps.hasLiveWorker(description.taskQueue)) {
    const state = await deps.get(delegationId);
    const pending = state.pendingCards.find((card) => card.id === cardId);
    if (pending !== undefined) return pending;
    const decided = state.decidedCards.find((card) => card.id === cardId);
    if (decided !== undefined) throw alreadyDecided(decided);
  } else if (mirrored === null) {
    // A run started before deputy mirrored its cards: only a worker can check this card.
    throw new DeputyError(
      'unavailable',
      `no worker is running for delegation ${delegationId} (task queue ${description.taskQueue}), and this delegation does not publish its cards: decide card ${cardId} once a worker runs`,
    );
  }
  throw new DeputyError(
    'not-found',
    `card ${cardId.slice(0, 80)} is not pending in delegation ${delegationId}: no such card, or it was decided already`,
  );
}

function stillPending(description: WorkflowExecutionDescription, cardId: string): boolean {
  const cards = mirroredPendingCards(description);
  // An older run publishes its pending count only: any pending card keeps it waiting.
  return cards === null || cards.some((card) => card.id === cardId);
}

async function firstUnapplied(
  handle: WorkflowHandle,
  runId: string,
  cardId: string,
): Promise<CardDecision | undefined> {
  return (await unappliedDecisions(handle, runId)).find((decision) => decision.cardId === cardId);
}

function sameDecision(a: CardDecision, b: CardDecision): boolean {
  return (
    a.decision === b.decision &&
    (a.reason ?? null) === (b.reason ?? null) &&
    (a.decidedBy ?? null) === (b.decidedBy ?? null)
  );
}

/** Whether a decided card carries this decision (by the same person, when one is named). */
function decidedAs(card: ApprovalCard, decision: CardDecision): boolean {
  const status = decision.decision === 'approve' ? 'approved' : 'denied';
  return (
    card.state.status === status && (card.state.decidedBy ?? null) === (decision.decidedBy ?? null)
  );
}

function recorded(card: ApprovalCard, decision: CardDecision, message: string): RecordedDecision {
  return { status: 'recorded', card, decision, message };
}

async function handleOfCard(
  lookup: DelegationLookup,
  delegationId: string,
  cardId: string,
): Promise<WorkflowHandle> {
  try {
    return await lookup.handleOf(delegationId);
  } catch (error) {
    if (error instanceof DeputyError && error.kind === 'not-found') throw unknownCard(cardId);
    throw error;
  }
}

/** The run has closed and settled its cards: say how, from its final state. */
async function closedRunError(
  deps: CardDecisionDeps,
  delegationId: string,
  cardId: string,
): Promise<DeputyError> {
  const state = await deps.get(delegationId).catch((error: unknown) => {
    if (error instanceof TemporalUnreachableError) throw error;
    return null;
  });
  const decided = state?.decidedCards.find((card) => card.id === cardId);
  if (decided !== undefined) {
    return new DeputyError(
      'conflict',
      `card ${cardId} was already ${decided.state.status}${byWhom(decided)} (delegation ${state?.status})`,
    );
  }
  return unknownCard(cardId);
}

function alreadyDecided(card: ApprovalCard): DeputyError {
  return new DeputyError(
    'conflict',
    `card ${card.id} was already ${card.state.status}${byWhom(card)}`,
  );
}

function alreadyRecorded(cardId: string, earlier: CardDecision): DeputyError {
  const by = earlier.decidedBy === undefined ? '' : ` by ${earlier.decidedBy}`;
  return new DeputyError(
    'conflict',
    `card ${cardId} already has a decision waiting for a worker (${earlier.decision}${by}); the first decision recorded is the one that applies`,
  );
}

function byWhom(card: ApprovalCard): string {
  return card.state.status !== 'pending' && card.state.decidedBy
    ? ` by ${card.state.decidedBy}`
    : '';
}

function unknownCard(cardId: string): DeputyError {
  return new DeputyError('not-found', `no approval card with id '${cardId.slice(0, 80)}'`);
}

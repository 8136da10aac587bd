/**
 * Deciding an approval card so that the caller always has an answer within seconds, whether a
 * worker runs or not:
 *
 * 1. Check what Temporal knows without a worker: the run is open, the card is pending (the
 *    workflow mirrors its pending cards into the memo) and no decision on it is already waiting
 *    in the run's history.
 * 2. Send the decision as the `decideCard` signal. Temporal stores it durably in the history:
 *    it applies when a worker processes the run, now or after any restart.
 * 3. Read the run's decisions on the card once this one shows in the history (the server holds
 *    signals back while a workflow task is in progress): an earlier one wins, and this caller is
 *    told so.
 * 4. If a worker polls, wait up to `decisionWaitMs` for the card to leave the pending list and
 *    answer with the decided card; otherwise answer `recorded`.
 *
 * The `decideCardUpdate` update would answer synchronously, but only through a worker: with none
 * (or one that just died, which still looks alive for a while) it waits, and after the caller
 * gave up it may still apply. A stored signal never leaves anyone in that doubt.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  WorkflowNotFoundError,
  type WorkflowExecutionDescription,
  type WorkflowHandle,
} from '@temporalio/client';
import {
  delegationIdOfCard,
  type ApprovalCard,
  type CardDecision,
  type DelegationState,
} from '../../../shared/delegation.js';
import { decideCardSignal } from '../../../shared/workflow-contract/messages.js';
import {
  decisionShapeProblem,
  richDecisionFields,
} from '../../../shared/cards/card-decision-shape.js';
import { DeputyError } from '../../../errors.js';
import type { SecretMasker } from '../../../secrets/masker.js';
import { ceilingRefusal } from './decision-ceiling.js';
import { maskedDecision } from './masked-decision.js';
import { TemporalUnreachableError } from '../../unreachable.js';
import { describe, type DelegationLookup } from '../lookup.js';
import { signalOnce } from '../../calls/signal-once.js';
import { decideByUpdate } from './edited-decision.js';
import type { DecideOutcome, Delegations, RecordedDecision } from '../types.js';
import { allDecisions, unappliedDecisions } from './unapplied-decisions.js';
import { mirroredPendingCards } from '../visibility.js';
import type { LiveWorkerCheck } from '../../calls/worker-liveness.js';

export interface CardDecisionDeps {
  lookup: DelegationLookup;
  hasLiveWorker: LiveWorkerCheck;
  /**
   * The delegation's state as its workflow answers it, or null when it cannot (visibility's
   * picture would have no decided cards); bounded by about `decisionWaitMs`.
   */
  get(delegationId: string): Promise<DelegationState | null>;
  /** Milliseconds to wait for a polling worker to apply the decision before answering `recorded`. */
  decisionWaitMs: number;
  /** Milliseconds between looks at the run while waiting. */
  pollMs: number;
  /**
   * Masks the free texts of every decision before it is sent (masked-decision.ts); facadesFor
   * always gives one. Absent: sent as written.
   */
  secrets?: SecretMasker;
}

export function createCardDecision(deps: CardDecisionDeps): Delegations['decide'] {
  return async function decide(cardId, asked) {
    // Before anything is sent or checked: what the run records is what the model may read.
    const request = deps.secrets === undefined ? asked : maskedDecision(asked, deps.secrets);
    const delegationId = delegationIdOfCard(cardId);
    if (delegationId === null) throw unknownCard(cardId);
    // A malformed decision is refused as such, before anything is looked up.
    const shape = decisionShapeProblem(request);
    if (shape !== null) throw new DeputyError('invalid', shape);
    const handle = await handleOfCard(deps.lookup, delegationId, cardId);
    const description = await describe(delegationId, handle);
    if (description.status.name !== 'RUNNING') {
      throw await closedRunError(deps, delegationId, cardId, description);
    }
    const card = await pendingCard(deps, handle, delegationId, cardId, description);
    // A door under a ceiling decides nothing beyond it, whoever started the run.
    const beyond = ceilingRefusal(request.ceiling, card, request);
    if (beyond !== null) throw beyond;
    const decision: CardDecision = {
      cardId,
      decision: request.decision,
      ...(request.reason === undefined ? {} : { reason: request.reason }),
      ...(request.decidedBy == null ? {} : { decidedBy: request.decidedBy }),
      decisionId: randomUUID(),
      ...richDecisionFields(request),
    };

    const waiting = (await unappliedDecisions(handle, description.runId)).find(
      (earlier) => earlier.cardId === cardId,
    );
    if (waiting !== undefined) throw alreadyRecorded(cardId, waiting);
    // An edit is checked by the delegation itself, which answers why it refuses one.
    // So is a grant for the rest of the session: only the delegation knows whether it is in one.
    if (decision.arguments !== undefined || decision.allow === 'session')
      return decideByUpdate(deps, handle, description, decision);
    try {
      // Found again by its decisionId if its answer is late (a repeat would be logged as ignored).
      await signalOnce(handle, description.runId, decideCardSignal, decision, (stored) =>
        sameDecisionId(stored, decision),
      );
    } catch (error) {
      // The run closed (a stop, its end) between the check and the signal: it settled the card.
      if (!(error instanceof WorkflowNotFoundError)) throw error;
      throw await closedRunError(deps, delegationId, cardId, await describe(delegationId, handle));
    }
    // Two callers can both pass the check above before either signal lands. The workflow
    // applies whichever is first in history, so the other one is told now, not never.
    const first = await firstOnCardOnceVisible(handle, description.runId, decision, deps.pollMs);
    if (first !== null && !sameDecision(first, decision)) throw overtaken(cardId, first);

    return outcome(deps, handle, description, card, decision, first === null);
  };
}

/**
 * How long a decision may stay out of the history: a signal that arrives while a workflow task is
 * in progress is held by the server until that task ends, which a task lost with its worker does
 * at the workflow task timeout (Temporal's default, 10 s, which deputy keeps).
 */
const HELD_SIGNAL_WAIT_MS = 12_000;

/**
 * The first decision the run was sent on this card, read once `decision` itself shows in the
 * history; null when it has not shown within `HELD_SIGNAL_WAIT_MS`. Until it shows, an earlier
 * decision held with it is invisible too, and both callers would be told theirs was first.
 */
async function firstOnCardOnceVisible(
  handle: WorkflowHandle,
  runId: string,
  decision: CardDecision,
  pollMs: number,
): Promise<CardDecision | null> {
  const until = Date.now() + HELD_SIGNAL_WAIT_MS;
  for (;;) {
    const onCard = (await allDecisions(handle, runId)).filter(
      (earlier) => earlier.cardId === decision.cardId,
    );
    if (onCard.some((one) => sameDecision(one, decision))) return onCard[0]!;
    if (Date.now() >= until) return null;
    await sleep(pollMs);
  }
}

/** Waits (bounded) for a live worker to apply the decision; else the decision is `recorded`. */
async function outcome(
  deps: CardDecisionDeps,
  handle: WorkflowHandle,
  description: WorkflowExecutionDescription,
  card: ApprovalCard,
  decision: CardDecision,
  unconfirmed: boolean,
): Promise<DecideOutcome> {
  const { delegationId } = card;
  // Held behind a workflow task in progress: stored, but whether it came first is not known yet.
  const what = unconfirmed
    ? `${decision.decision} of card ${card.id} recorded behind a workflow task still in progress (if another decision on this card was recorded first, that one applies)`
    : `${decision.decision} of card ${card.id} recorded`;
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
  const decided = await decidedCard(deps, delegationId, card.id);
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

/** The card as the run settled it, or undefined when its state cannot be read in time. */
async function decidedCard(
  deps: CardDecisionDeps,
  delegationId: string,
  cardId: string,
): Promise<ApprovalCard | undefined> {
  const state = await settledState(deps, delegationId);
  return state?.decidedCards.find((candidate) => candidate.id === cardId);
}

/**
 * The state of a run that has settled a card, or null when it cannot be read in time. A closed
 * run answers only through a worker replaying it, which a loaded machine may not do within one
 * query bound, so that gets a few.
 */
async function settledState(
  deps: CardDecisionDeps,
  delegationId: string,
): Promise<DelegationState | null> {
  for (let attempt = 0; attempt < STATE_ATTEMPTS; attempt++) {
    const state = await deps.get(delegationId).catch((error: unknown) => {
      if (error instanceof TemporalUnreachableError) throw error;
      return null;
    });
    if (state !== null) return state;
  }
  return null;
}

/** Tries at reading a state that settled the card (it left the pending list, or the run closed). */
const STATE_ATTEMPTS = 3;

/**
 * The pending card, from the memo when the run mirrors its cards; otherwise (or when the memo
 * says it is not pending) from the workflow itself if a worker can answer.
 */
async function pendingCard(
  deps: CardDecisionDeps,
  handle: WorkflowHandle,
  delegationId: string,
  cardId: string,
  description: WorkflowExecutionDescription,
): Promise<ApprovalCard> {
  const mirrored = mirroredPendingCards(description);
  const fromMemo = mirrored?.find((card) => card.id === cardId);
  if (fromMemo !== undefined) return fromMemo;
  if (await deps.hasLiveWorker(description.taskQueue)) {
    const state = await deps.get(delegationId);
    const pending = state?.pendingCards.find((card) => card.id === cardId);
    if (pending !== undefined) return pending;
    const decided = state?.decidedCards.find((card) => card.id === cardId);
    if (decided !== undefined) throw alreadyDecided(decided);
  } else if (mirrored === null) {
    // A run started before deputy mirrored its cards: only a worker can check this card.
    throw new DeputyError(
      'unavailable',
      `no worker is running for delegation ${delegationId} (task queue ${description.taskQueue}), and this delegation does not publish its cards: decide card ${cardId} once a worker runs`,
    );
  }
  // A retry of a decision whose answer was lost (a 503) finds the card decided by it; when the
  // workflow's state cannot say so in time (no worker, a loaded one), the history still can.
  const earlier = (await allDecisions(handle, description.runId)).find(
    (sent) => sent.cardId === cardId,
  );
  if (earlier !== undefined) throw decidedEarlier(cardId, earlier);
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

/** The same request: by its id, which every decision the API sends carries. */
function sameDecision(a: CardDecision, b: CardDecision): boolean {
  return a.decisionId === b.decisionId;
}

/**
 * Whether a decided card took this decision: by its id, so that of two racing requests saying
 * the same thing only one is told it applied. A stop's settlement carries none.
 */
function decidedAs(card: ApprovalCard, decision: CardDecision): boolean {
  return card.state.status !== 'pending' && card.state.decisionId === decision.decisionId;
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

/**
 * The run has closed and settled its cards: say how, from its final state. When that state
 * cannot be read in time the card of a closed run is still not decidable: a conflict, since a
 * run that existed settled every card it had; only a state that lacks the card means no such card.
 */
async function closedRunError(
  deps: CardDecisionDeps,
  delegationId: string,
  cardId: string,
  description: WorkflowExecutionDescription,
): Promise<DeputyError> {
  const state = await settledState(deps, delegationId);
  if (state === null) {
    return new DeputyError(
      'conflict',
      `delegation ${delegationId} has ended (${description.status.name.toLowerCase()}) and settled its cards; card ${cardId} can no longer be decided`,
    );
  }
  const decided = state.decidedCards.find((card) => card.id === cardId);
  if (decided !== undefined) {
    return new DeputyError(
      'conflict',
      `card ${cardId} was already ${decided.state.status}${byWhom(decided)} (delegation ${state.status})`,
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
  return new DeputyError(
    'conflict',
    `card ${cardId} already has a decision waiting for a worker (${earlier.decision}${decidedByText(earlier)}); the first decision recorded is the one that applies`,
  );
}

function decidedEarlier(cardId: string, earlier: CardDecision): DeputyError {
  return new DeputyError(
    'conflict',
    `card ${cardId} was already decided: a decision (${earlier.decision}${decidedByText(earlier)}) was recorded before this one; the first decision recorded is the one that applies`,
  );
}

function overtaken(cardId: string, earlier: CardDecision): DeputyError {
  return new DeputyError(
    'conflict',
    `another decision on card ${cardId} (${earlier.decision}${decidedByText(earlier)}) was recorded just before yours; the first decision recorded is the one that applies, yours was not applied`,
  );
}

function decidedByText(decision: CardDecision): string {
  return decision.decidedBy === undefined ? '' : ` by ${decision.decidedBy}`;
}

function byWhom(card: ApprovalCard): string {
  return card.state.status !== 'pending' && card.state.decidedBy
    ? ` by ${card.state.decidedBy}`
    : '';
}

function unknownCard(cardId: string): DeputyError {
  return new DeputyError('not-found', `no approval card with id '${cardId.slice(0, 80)}'`);
}

function sameDecisionId(stored: unknown, decision: CardDecision): boolean {
  return (stored as CardDecision | null)?.decisionId === decision.decisionId;
}

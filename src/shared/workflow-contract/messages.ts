/**
 * Every signal, query and update of the delegation workflow, defined once. Clients and the
 * workflow import these constants; nothing sends a message by a string name.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type {
  ApprovalCard,
  CardDecision,
  DelegationEvent,
  DelegationState,
} from '../delegation.js';
import type { ChildReport, SessionMessage } from '../session.js';
import type { SteeringMessage, SteeringRequest } from '../steering.js';

export const decideCardSignal = defineSignal<[CardDecision]>('decideCard');

/** Same as the signal, but its validator rejects an unknown or already-decided card synchronously. */
export const decideCardUpdate = defineUpdate<ApprovalCard, [CardDecision]>('decideCardUpdate');

export const stateQuery = defineQuery<DelegationState>('state');

/** Events with `seq` greater than the argument, for live streams that resume. */
export const eventsQuery = defineQuery<DelegationEvent[], [number]>('events');

/** A user message for a session. A signal: stored durably even while no worker runs. */
export const sessionMessageSignal = defineSignal<[SessionMessage]>('sessionMessage');

/** A child delegation's progress, cards and end, sent to its session. */
export const childReportSignal = defineSignal<[ChildReport]>('childReport');

/**
 * A message to a running delegation: its validator refuses one for a delegation that
 * has finished or is finishing, and a blank or too long text, with a reason; the handler queues
 * it and answers at once. The model gets it at the next round boundary (workflows/steering.ts).
 */
export const sendMessageUpdate = defineUpdate<SteeringMessage, [SteeringRequest]>('sendMessage');

/**
 * Every signal, query and update of the delegation workflow, defined once. Clients and the
 * workflow import these constants; nothing sends a message by a string name.
 */
import { defineQuery, defineSignal, defineUpdate } from '@temporalio/workflow';
import type { ApprovalCard, CardDecision, DelegationEvent, DelegationState } from './delegation.js';

export const decideCardSignal = defineSignal<[CardDecision]>('decideCard');

/** Same as the signal, but its validator rejects an unknown or already-decided card synchronously. */
export const decideCardUpdate = defineUpdate<ApprovalCard, [CardDecision]>('decideCardUpdate');

export const stateQuery = defineQuery<DelegationState>('state');

/** Events with `seq` greater than the argument, for live streams that resume. */
export const eventsQuery = defineQuery<DelegationEvent[], [number]>('events');

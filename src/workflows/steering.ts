/**
 * Steering a running delegation: messages a person sends while it runs. The update's
 * handler only queues a message; the workflow delivers the queue as user messages at the next
 * round boundary (before the next model call), so a model never gets one between its tool call
 * and that call's result. A delegation parked on a card gets its messages after the card is
 * decided, at its next model call. Sandbox code.
 *
 * Replay: nothing here issues a command unless a message was accepted, and no history from
 * before this feature holds one, so those histories replay unchanged without a patch marker.
 */
import { ApplicationFailure, setHandler } from '@temporalio/workflow';
import type { DelegationStatus } from '../shared/delegation.js';
import { sendMessageUpdate } from '../shared/workflow-contract/messages.js';
import {
  STEERING_REFUSALS,
  steeringTextProblem,
  type SteeringMessage,
  type SteeringRequest,
} from '../shared/steering.js';
import type { DelegationRun } from './delegation-run.js';

const FINISHED: readonly DelegationStatus[] = ['completed', 'failed', 'stopped'];

/** Delivered messages a continue-as-new carries (waiting ones are always carried). */
export const CARRIED_DELIVERED_MESSAGES = 100;

export class SteeringQueue {
  private readonly messages: SteeringMessage[];
  private nextSeq: number;
  /** Set once the delegation starts finishing: a message then could never be delivered. */
  private closed = false;

  constructor(carried: SteeringMessage[] = []) {
    this.messages = carried.map((message) => ({ ...message }));
    this.nextSeq = Math.max(0, ...carried.map((message) => message.seq)) + 1;
  }

  /** Why a message cannot be taken, as the update's validator throws it; null when it can. */
  rejection(run: DelegationRun, request: SteeringRequest): ApplicationFailure | null {
    if (this.closed || FINISHED.includes(run.status)) {
      return ApplicationFailure.create({
        type: STEERING_REFUSALS.finished,
        message: `delegation ${run.identity().delegationId} has finished: resume it with a new message instead (deputy resume)`,
        nonRetryable: true,
      });
    }
    const problem =
      typeof request?.text === 'string' ? steeringTextProblem(request.text) : 'no text';
    if (problem === null) return null;
    return ApplicationFailure.create({
      type: STEERING_REFUSALS.invalid,
      message: problem,
      nonRetryable: true,
    });
  }

  accept(request: SteeringRequest): SteeringMessage {
    const message: SteeringMessage = {
      seq: this.nextSeq++,
      text: request.text,
      from: request.from ?? null,
      ...(request.messageId === undefined ? {} : { messageId: request.messageId }),
      sentAt: new Date().toISOString(),
      deliveredAt: null,
      deliveredBeforeRound: null,
    };
    this.messages.push(message);
    return { ...message };
  }

  /** True while a message waits for the next round boundary. */
  waiting(): boolean {
    return this.messages.some((message) => message.deliveredAt === null);
  }

  /** Every waiting message joins the transcript and the event stream, in order. */
  deliver(run: DelegationRun): void {
    for (const message of this.messages) {
      if (message.deliveredAt !== null) continue;
      run.recordMessage({ text: message.text, from: message.from });
      message.deliveredAt = new Date().toISOString();
      message.deliveredBeforeRound = run.roundsUsed + 1;
    }
  }

  /** No message is taken from here on (the delegation is finishing). */
  close(): void {
    this.closed = true;
  }

  list(): SteeringMessage[] {
    return this.messages.map((message) => ({ ...message }));
  }

  /** What the next run continues with: every waiting message, and the latest delivered ones. */
  carry(): SteeringMessage[] {
    const delivered = this.messages.filter((message) => message.deliveredAt !== null);
    const kept = new Set(delivered.slice(-CARRIED_DELIVERED_MESSAGES));
    return this.list().filter(
      (message, index) =>
        this.messages[index]!.deliveredAt === null || kept.has(this.messages[index]!),
    );
  }
}

/** Registers the update; call it before the workflow's first await, as every handler is. */
export function registerSteering(run: DelegationRun, queue: SteeringQueue): void {
  setHandler(sendMessageUpdate, (request) => queue.accept(request), {
    validator: (request) => {
      const rejection = queue.rejection(run, request);
      if (rejection) throw rejection;
    },
  });
}

/**
 * Steering a running delegation: a person's message that the delegation's model gets
 * as a user message at its next round boundary. Sandbox-safe contracts only: the workflow, the
 * facade and the doors all read the same limits and refusal types from here.
 */
import { MAX_TASK_BYTES } from './task-limit.js';

/** What a door sends: the text, who sends it, and an id that makes a repeated send harmless. */
export interface SteeringRequest {
  text: string;
  /** User id of the sender (null with auth off). */
  from: string | null;
  /** Names this send (the update's id too), so a retried send is not queued twice. */
  messageId?: string;
}

/** A message as the delegation holds it: queued, then delivered at a round boundary. */
export interface SteeringMessage {
  /** 1, 2, 3... in the order the delegation accepted them; delivered in this order. */
  seq: number;
  text: string;
  from: string | null;
  messageId?: string;
  /** When the delegation accepted it (workflow clock, ISO 8601). */
  sentAt: string;
  /** When it joined the transcript; null while it waits for the next round boundary. */
  deliveredAt: string | null;
  /** The model round that first saw it; null while it waits. */
  deliveredBeforeRound: number | null;
}

/** ApplicationFailure types of the update's refusals, read back into the API's kinds. */
export const STEERING_REFUSALS = {
  /** The delegation has finished (or is finishing): resume it instead. */
  finished: 'DelegationFinished',
  /** Blank, or over MAX_TASK_BYTES of UTF-8. */
  invalid: 'MessageInvalid',
} as const;

/** Why a message's text cannot be sent, or null when it can (same limit as a task). */
export function steeringTextProblem(text: string): string | null {
  if (text.trim() === '') return 'the message is empty';
  const bytes = utf8Length(text);
  if (bytes > MAX_TASK_BYTES) {
    return `the message is ${bytes} bytes of UTF-8; at most ${MAX_TASK_BYTES} are allowed`;
  }
  return null;
}

/** UTF-8 length without TextEncoder or Buffer, so the workflow sandbox can run it too. */
function utf8Length(text: string): number {
  let bytes = 0;
  for (const character of text) {
    const code = character.codePointAt(0)!;
    bytes += code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
  }
  return bytes;
}

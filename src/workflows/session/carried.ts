/** What a session carries into its next run when it continues-as-new. */
import type { SessionMessage } from '../../shared/session.js';
import type { SessionTask } from '../../shared/delegation.js';
import type { CarriedState } from '../continue-as-new/carried-state.js';

export interface SessionCarried {
  run: CarriedState;
  /** Every running task and the most recent finished ones (task-book.ts). */
  tasks: SessionTask[];
  /** Messages received and not yet taken up. */
  inbox: SessionMessage[];
  /**
   * The round the message being worked on started at, when the hand-over came mid-message:
   * the next run goes on with it instead of waiting for a new one. Null between messages.
   */
  messageStartedAtRound: number | null;
}

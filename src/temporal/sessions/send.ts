/**
 * Sending a message to a session. The message is a signal, stored durably in the run's history:
 * it is taken up whenever a worker runs the session, now or after a restart. It carries its own
 * id so that a send retried after a lost answer is recognised in the history and not sent twice
 * (signal-once.ts). A session that has ended takes no message: `conflict`, start a new one.
 */
import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError } from '@temporalio/client';
import { DeputyError } from '../../errors.js';
import { sessionMessageSignal } from '../../shared/workflow-contract/messages.js';
import type { SessionMessage } from '../../shared/session.js';
import { describe } from '../delegations/lookup.js';
import { signalOnce } from '../calls/signal-once.js';
import type { SessionHandleOf } from './handle.js';
import type { Sessions } from './types.js';

export function createSend(handleOf: SessionHandleOf): Sessions['send'] {
  return async function send(sessionId, message) {
    if (message.text.trim() === '') throw new DeputyError('invalid', 'message is empty');
    const handle = await handleOf(sessionId);
    const description = await describe(sessionId, handle);
    if (description.status.name !== 'RUNNING') {
      throw new DeputyError(
        'conflict',
        `session ${sessionId} has ended (${description.status.name.toLowerCase()}); start a new one`,
      );
    }
    const sent: SessionMessage = { ...message, messageId: randomUUID() };
    try {
      await signalOnce(handle, description.runId, sessionMessageSignal, sent, (stored) =>
        isSameMessage(stored, sent),
      );
    } catch (error) {
      // It closed between describe() and the signal.
      if (error instanceof WorkflowNotFoundError) {
        throw new DeputyError('conflict', `session ${sessionId} has ended; start a new one`);
      }
      throw error;
    }
  };
}

function isSameMessage(stored: unknown, sent: SessionMessage): boolean {
  return (stored as SessionMessage | null)?.messageId === sent.messageId;
}

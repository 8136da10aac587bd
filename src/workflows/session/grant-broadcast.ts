/**
 * Grants for the rest of a session reach the children already running: whenever the
 * session records or revokes one, it sends every running Task child the whole list (a
 * `sessionGrants` signal, which replaces the child's copy). Children started later get the list
 * in their input. Sandbox code.
 *
 * Replay: the loop only waits until a session grant changes, which no history recorded before
 * session grants existed ever did, so such histories record no signal here.
 */
import { condition, getExternalWorkflowHandle, isCancellation, log } from '@temporalio/workflow';
import { sessionGrantsSignal } from '../../shared/cards/grant-messages.js';
import type { OpenSession } from './state.js';

/** Starts the loop; it runs as long as the session's run does. */
export function broadcastSessionGrants(open: OpenSession): void {
  const { run, tasks } = open;
  let sent = run.grants.sessionChanges();
  void (async () => {
    for (;;) {
      // A stop cancels the wait: the loop ends with the session (caught below).
      await condition(() => run.grants.sessionChanges() !== sent);
      sent = run.grants.sessionChanges();
      const grants = run.grants.forSession();
      for (const task of tasks.running()) {
        try {
          await getExternalWorkflowHandle(task.workflowId).signal(sessionGrantsSignal, grants);
        } catch (error) {
          // The child ended meanwhile: it needs no grants any more.
          log.warn('a task did not take the session grants', {
            task: task.taskId,
            error: error instanceof Error ? error.message : String(error),
          });
        }
      }
    }
  })().catch((error: unknown) => {
    if (!isCancellation(error)) throw error;
  });
}

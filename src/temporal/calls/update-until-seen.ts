/**
 * An update the server rejects as `UnprocessedUpdate` never reached the delegation's code: the
 * worker completed the workflow task that carried it without answering it (CI saw it on the first
 * task of a worker started after a SIGKILL, which replays the run from its history). Nothing was
 * applied, so sending it again is safe, and the caller would otherwise read a refusal the
 * delegation never made. Every other answer passes through unchanged.
 */
import type { WorkflowHandle, WorkflowUpdateOptions } from '@temporalio/client';
import { WorkflowUpdateFailedError } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';

/** The server's failure type for an update no worker processed. */
const UNPROCESSED_UPDATE = 'UnprocessedUpdate';

/** Sends in all; a worker that has just replayed the run answers the next one. */
const ATTEMPTS = 3;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- the SDK's own bound on update args
export async function executeUpdateUntilSeen<Ret, Args extends [any, ...any[]]>(
  handle: WorkflowHandle,
  update: UpdateDefinition<Ret, Args>,
  options: WorkflowUpdateOptions & { args: Args },
): Promise<Ret> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await handle.executeUpdate(update, options);
    } catch (error) {
      if (attempt >= ATTEMPTS || !wasUnprocessed(error)) throw error;
    }
  }
}

function wasUnprocessed(error: unknown): boolean {
  return (
    error instanceof WorkflowUpdateFailedError &&
    (error.cause as { type?: string } | undefined)?.type === UNPROCESSED_UPDATE
  );
}

/**
 * A child delegation's reports to the session that started it: progress, cards and its
 * end, as `childReport` signals to `session/<id>` (no run id: after the session continued as new,
 * its current run gets them). Only a delegation started by a session has a parent, and runs
 * recorded before sessions existed have none, so their histories replay unchanged. Sandbox code.
 */
import { getExternalWorkflowHandle, log } from '@temporalio/workflow';
import type { DelegationInput } from '../shared/delegation.js';
import { childReportSignal } from '../shared/workflow-contract/messages.js';
import type { ChildReport } from '../shared/session.js';

/** Progress texts are clipped: the session keeps the latest per task, not a transcript. */
export const REPORT_TEXT_CHARS = 2_000;

/**
 * Reports in the order they were made, without holding up the child: each signal waits for the
 * one before it (signals sent in one workflow task may otherwise arrive in any order), and
 * `flush` waits for them all (before the child's last report, its end).
 */
export function parentReporter(input: DelegationInput): {
  send(report: ChildReport): void;
  flush(): Promise<void>;
} {
  let chain: Promise<void> = Promise.resolve();
  return {
    send(report) {
      if (input.parent === undefined) return;
      chain = chain.then(() => reportToParent(input, report));
    },
    flush: () => chain,
  };
}

async function reportToParent(input: DelegationInput, report: ChildReport): Promise<void> {
  if (input.parent === undefined) return;
  try {
    await getExternalWorkflowHandle(input.parent.workflowId).signal(childReportSignal, report);
  } catch (error) {
    // The session has ended (stopped, or terminated by ops): nobody is left to tell.
    log.warn('session did not take the report', {
      session: input.parent.sessionId,
      kind: report.kind,
      error: error instanceof Error ? error.message : String(error),
    });
  }
}

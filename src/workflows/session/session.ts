/**
 * The session workflow: a main agent that takes user messages one at a time, answers
 * each with the same rounds as a delegation (rounds.ts), and hands work to subagents with Task
 * (task-tools.ts), as child delegation workflows that report back here. Stopping it stops every
 * child it started and settles all their cards as denied. Sandbox code.
 */
import {
  ApplicationFailure,
  CancellationScope,
  condition,
  ContinueAsNew,
  isCancellation,
} from '@temporalio/workflow';
import type { DelegationResult } from '../../shared/delegation.js';
import { FAILURE_TYPES } from '../../shared/workflow-contract/failures.js';
import type { SessionInput } from '../../shared/session.js';
import type { ToolQueueInput } from '../../shared/workflow-contract/tool-queue.js';
import { workspaceQueue } from '../activity-options.js';
import { cardDeadlinesFor, type SettleCard } from '../cards/card-deadlines.js';
import { askCompactionPatchFirst, compactIfDue } from '../compaction.js';
import type { DelegationRun } from '../delegation-run.js';
import { failureNotice } from '../failure-notice.js';
import { handOverWhenIdle } from '../continue-as-new/hand-over.js';
import { historyNearLimit } from '../continue-as-new/history-limit.js';
import { runRounds, type RoundsEnd } from '../rounds.js';
import { denyPendingOnStop } from '../run-handlers.js';
import type { SessionCarried } from './carried.js';
import { broadcastSessionGrants } from './grant-broadcast.js';
import { openSession, registerSessionHandlers, type OpenSession } from './state.js';
import { cancelTask, taskTools } from './task-tools.js';
import { publish } from '../visibility.js';
import { showAsSession } from '../details.js';
import { resolveAgentNow } from '../resolve-agent.js';

/** How long a stopping session waits for its children to confirm they stopped. */
const CHILDREN_STOP_WAIT = '2 minutes';

/**
 * One session. `carried` is set only by continue-as-new, never by a client. With a `toolQueue`
 * its workspace-bound activities run there, and its children inherit it.
 */
export async function session(
  input: SessionInput & ToolQueueInput,
  carried?: SessionCarried,
): Promise<DelegationResult> {
  const toolQueue = workspaceQueue(input);
  const open = openSession(input, carried);
  const { run, tasks } = open;
  showAsSession(run, {
    tasks: () => tasks.list(),
    queuedMessages: () => open.inbox.length,
    messageStartedAtRound: () => open.messageStartedAtRound,
  });
  // Handlers first, before any await, so no message, report or query is ever missed.
  const settleCard = registerSessionHandlers(open);
  broadcastSessionGrants(open);
  askCompactionPatchFirst();
  try {
    const resolved =
      run.resolved ??
      (await resolveAgentNow(input, 'resolve main agent', toolQueue, { asSession: true }));
    run.recordResolved(resolved, cardDeadlinesFor(resolved.snapshot.cardDeadlines, {}));
    const workflowCall = taskTools({ input, run, resolved, tasks, finishTask: open.finishTask });
    for (;;) {
      if (open.messageStartedAtRound === null && !(await takeNextMessage(open))) continue;
      const since = open.messageStartedAtRound!;
      const end = await runRounds({
        run,
        resolved,
        unattended: input.options.unattended,
        toolQueue,
        settleCard,
        outOfTurns: () => run.outOfTurns(since),
        maxTokens: resolved.snapshot.limits.maxTokens,
        async betweenRounds() {
          // As a delegation does: the patch marker is asked only when one is due, so
          // a session history recorded before sessions compacted replays unchanged.
          await compactIfDue(run, resolved, toolQueue);
          await handOverIfLong(open, since);
        },
        workflowCall,
      });
      recordAnswer(run, end);
      open.messageStartedAtRound = null;
    }
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    return await endSession(open, error, settleCard);
  }
}

/**
 * Between messages: waits for one (handing over to a new run when history grows long while it
 * waits), records it and notes the round it starts at. False when it handed over nothing to do
 * yet and should look again.
 */
async function takeNextMessage(open: OpenSession): Promise<boolean> {
  const { run, inbox } = open;
  if (inbox.length === 0) {
    run.rest();
    publish(run);
    await condition(() => inbox.length > 0 || historyNearLimit());
    if (inbox.length === 0) {
      await handOverIfLong(open, null);
      return false;
    }
  }
  run.recordMessage(inbox.shift()!);
  publish(run);
  open.messageStartedAtRound = run.roundsUsed;
  return true;
}

/** The reply to the message: the model's answer, or what was cut and why. */
function recordAnswer(run: DelegationRun, end: RoundsEnd): void {
  if (end.kind === 'answered') {
    run.recordReply(end.turn.text);
    return;
  }
  const cut =
    end.kind === 'out-of-turns' ? run.cutAtMaxTurns(end.turn) : run.cutAtTokenBudget(end.maxTokens);
  run.recordReply([cut.text, cut.notice].filter(Boolean).join('\n\n'));
}

/** Continues as new when history nears its limit, once every handler has finished. */
async function handOverIfLong(open: OpenSession, inMessageSince: number | null): Promise<void> {
  if (!historyNearLimit()) return;
  await handOverWhenIdle<typeof session>(() => {
    // The first message is in the transcript or the inbox by now: the next run must not add it.
    const next: SessionInput & ToolQueueInput = { ...open.input };
    delete next.message;
    const carried: SessionCarried = {
      run: open.run.carryOver(),
      tasks: open.tasks.carryOver(),
      inbox: open.inbox,
      messageStartedAtRound: inMessageSince,
    };
    return [next, carried];
  });
}

/**
 * A stop (of every child too) or a failure: the children are stopped and, on a stop, the
 * pending cards denied, itself not cancellable. A stop returns the result; a failure throws.
 */
async function endSession(
  open: OpenSession,
  error: unknown,
  settleCard: SettleCard,
): Promise<DelegationResult> {
  const { run, inbox } = open;
  if (isCancellation(error)) {
    return await CancellationScope.nonCancellable(async () => {
      const children = await stopChildren(open);
      denyPendingOnStop(run, settleCard);
      const unanswered =
        inbox.length === 0 ? null : `${inbox.length} message(s) were not answered.`;
      const notice = [
        'Session stopped; its children were stopped and pending approval cards denied.',
        children,
        unanswered,
      ]
        .filter(Boolean)
        .join(' ');
      return finish(run, run.endedEarly('stopped', notice));
    });
  }
  const notice = failureNotice(error);
  await CancellationScope.nonCancellable(async () => {
    const children = await stopChildren(open);
    finish(run, run.endedEarly('failed', [notice, children].filter(Boolean).join(' ')));
  });
  throw ApplicationFailure.nonRetryable(notice, FAILURE_TYPES.delegationFailed);
}

/** Cancels every running child and waits for each to say it stopped. */
async function stopChildren(open: OpenSession): Promise<string | null> {
  const { tasks } = open;
  for (const task of tasks.running()) await cancelTask(task, open.finishTask);
  await condition(() => tasks.running().length === 0, CHILDREN_STOP_WAIT);
  const unconfirmed = tasks.running().map((task) => task.taskId);
  return unconfirmed.length === 0
    ? null
    : `Children asked to stop that had not confirmed it: ${unconfirmed.join(', ')}.`;
}

function finish(run: DelegationRun, result: DelegationResult): DelegationResult {
  run.finish(result);
  publish(run);
  return result;
}

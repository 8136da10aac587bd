/**
 * The session workflow (RUN-7): a main agent that takes user messages one at a time, answers
 * each with the same rounds as a delegation (rounds.ts), and hands work to subagents with Task
 * (task-tools.ts), as child delegation workflows that report back here. Stopping it stops every
 * child it started and settles all their cards as denied. Sandbox code.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  ContinueAsNew,
  continueAsNew,
  isCancellation,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { ResolvedAgent } from '../activities/types.js';
import type { DelegationInput, DelegationResult } from '../shared/delegation.js';
import { FAILURE_TYPES } from '../shared/failures.js';
import { childReportSignal, sessionMessageSignal } from '../shared/messages.js';
import type { SessionInput, SessionMessage, SessionState } from '../shared/session.js';
import type { SessionTask } from '../shared/delegation.js';
import type { ToolQueueInput } from '../shared/tool-queue.js';
import { activitiesWith, RESOLVE_AGENT, workspaceQueue } from './activity-options.js';
import { DelegationRun } from './delegation-run.js';
import { failureNotice } from './failure-notice.js';
import { historyNearLimit } from './history-limit.js';
import { cardDeadlinesFor } from './card-deadlines.js';
import { runRounds } from './rounds.js';
import { denyPendingOnStop, registerRunHandlers } from './run-handlers.js';
import type { SessionCarried } from './session-carried.js';
import { TaskBook } from './task-book.js';
import { cancelTask, taskTools } from './task-tools.js';
import { publish } from './visibility.js';
import { addUsage, emptyUsage } from '../shared/delegation.js';

/** How long a stopping session waits for its children to confirm they stopped. */
const CHILDREN_STOP_WAIT = '2 minutes';

/**
 * One session. `carried` is set only by continue-as-new, never by a client. With a `toolQueue`
 * (issue 16) its workspace-bound activities run there, and its children inherit it.
 */
export async function session(
  input: SessionInput & ToolQueueInput,
  carried?: SessionCarried,
): Promise<DelegationResult> {
  const toolQueue = workspaceQueue(input);
  const { resolveAgent } = activitiesWith(RESOLVE_AGENT, 'resolve main agent', toolQueue);
  // The session is a delegation-shaped run of its own: its cards, state and events are read
  // and decided the same way (the session id is its delegation id).
  const asDelegation: DelegationInput = {
    delegationId: input.sessionId,
    agent: input.agent,
    task: '',
    session: input.sessionId,
    caller: input.caller,
    options: input.options,
  };
  const run = new DelegationRun(asDelegation, workflowInfo().workflowId, carried?.run, []);
  const tasks = new TaskBook(carried?.tasks);
  const inbox: SessionMessage[] =
    carried?.inbox ??
    (input.message === undefined ? [] : [{ text: input.message, from: input.caller.id }]);
  let messageStartedAtRound = carried?.messageStartedAtRound ?? null;

  const finishTask = (task: SessionTask, result: DelegationResult): void => {
    if (task.result !== null) return;
    tasks.settle(task, result);
    run.recordTask('task-finished', task);
  };

  // Handlers first, before any await, so no message, report or query is ever missed.
  const decideCard = registerRunHandlers(run, (): SessionState => {
    const own = run.state();
    const children = tasks.list();
    return {
      ...own,
      // The session's own model calls and its children's: a finished one's result, a running
      // background one's latest progress (a foreground child reports none until it ends).
      usage: children.reduce((sum, task) => {
        const child = task.result?.usage ?? task.usage;
        return child ? addUsage(sum, child) : sum;
      }, own.usage ?? emptyUsage()),
      kind: 'session',
      tasks: children,
      queuedMessages: inbox.length,
    };
  });
  setHandler(sessionMessageSignal, (message) => {
    inbox.push(message);
  });
  setHandler(childReportSignal, (report) => {
    const task = tasks.get(report.taskId);
    // A child reports in order (parent-report.ts), its end last: nothing follows a result.
    if (task === undefined || task.result !== null) return;
    if (report.kind === 'finished') {
      finishTask(task, report.result);
      return;
    }
    tasks.apply(report);
    if (report.kind !== 'progress') run.recordChildCard(report.kind, report.card);
  });

  const handOverIfLong = async (inMessageSince: number | null): Promise<void> => {
    if (!historyNearLimit()) return;
    await condition(allHandlersFinished);
    // The first message is in the transcript or the inbox by now: the next run must not add it.
    const next: SessionInput & ToolQueueInput = { ...input };
    delete next.message;
    await continueAsNew<typeof session>(next, {
      run: run.carryOver(),
      tasks: tasks.carryOver(),
      inbox,
      messageStartedAtRound: inMessageSince,
    });
  };

  /** Cancels every running child and waits for each to say it stopped. */
  const stopChildren = async (): Promise<string | null> => {
    for (const task of tasks.running()) await cancelTask(task, finishTask);
    await condition(() => tasks.running().length === 0, CHILDREN_STOP_WAIT);
    const unconfirmed = tasks.running().map((task) => task.taskId);
    return unconfirmed.length === 0
      ? null
      : `Children asked to stop that had not confirmed it: ${unconfirmed.join(', ')}.`;
  };

  const finish = (result: DelegationResult): DelegationResult => {
    run.finish(result);
    publish(run);
    return result;
  };

  try {
    const resolved: ResolvedAgent =
      run.resolved ??
      (await resolveAgent({ agent: input.agent, caller: input.caller, asSession: true }));
    run.recordResolved(resolved, cardDeadlinesFor(resolved.snapshot.cardDeadlines, {}));
    const workflowCall = taskTools({ input, run, resolved, tasks, finishTask });

    for (;;) {
      if (messageStartedAtRound === null) {
        if (inbox.length === 0) {
          run.rest();
          publish(run);
          await condition(() => inbox.length > 0 || historyNearLimit());
          if (inbox.length === 0) {
            await handOverIfLong(null);
            continue;
          }
        }
        run.recordMessage(inbox.shift()!);
        publish(run);
        messageStartedAtRound = run.roundsUsed;
      }
      const since = messageStartedAtRound;
      const end = await runRounds({
        run,
        resolved,
        unattended: input.options.unattended,
        toolQueue,
        settleCard: decideCard,
        outOfTurns: () => run.outOfTurns(since),
        maxTokens: resolved.snapshot.limits.maxTokens,
        betweenRounds: () => handOverIfLong(since),
        workflowCall,
      });
      if (end.kind === 'answered') run.recordReply(end.turn.text);
      else {
        const cut =
          end.kind === 'out-of-turns'
            ? run.cutAtMaxTurns(end.turn)
            : run.cutAtTokenBudget(end.maxTokens);
        run.recordReply([cut.text, cut.notice].filter(Boolean).join('\n\n'));
      }
      messageStartedAtRound = null;
    }
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error)) {
      // Stopping the session (RUN-5 for every child too), itself not cancellable.
      return await CancellationScope.nonCancellable(async () => {
        const children = await stopChildren();
        denyPendingOnStop(run, decideCard);
        const unanswered =
          inbox.length === 0 ? null : `${inbox.length} message(s) were not answered.`;
        const notice = [
          'Session stopped; its children were stopped and pending approval cards denied.',
          children,
          unanswered,
        ]
          .filter(Boolean)
          .join(' ');
        return finish(run.endedEarly('stopped', notice));
      });
    }
    const notice = failureNotice(error);
    await CancellationScope.nonCancellable(async () => {
      const children = await stopChildren();
      finish(run.endedEarly('failed', [notice, children].filter(Boolean).join(' ')));
    });
    throw ApplicationFailure.nonRetryable(notice, FAILURE_TYPES.delegationFailed);
  }
}

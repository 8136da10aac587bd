/**
 * What a session keeps from one message to the next: its run (a delegation-shaped run of its own:
 * cards, state and events are read and decided the same way, the session id its delegation id),
 * the tasks it started, the messages waiting, and the round its current message started at. Also
 * the handlers that feed it (registered before any await, so nothing is missed) and the state
 * its query answers. Sandbox code.
 */
import { setHandler, workflowInfo } from '@temporalio/workflow';
import type { DelegationInput, DelegationResult, SessionTask } from '../../shared/delegation.js';
import { addUsage, emptyUsage } from '../../shared/delegation.js';
import {
  childReportSignal,
  sessionMessageSignal,
} from '../../shared/workflow-contract/messages.js';
import type { SessionInput, SessionMessage, SessionState } from '../../shared/session.js';
import type { ToolQueueInput } from '../../shared/workflow-contract/tool-queue.js';
import type { SettleCard } from '../cards/card-deadlines.js';
import { DelegationRun } from '../delegation-run.js';
import { showDetails } from '../details.js';
import { registerRunHandlers } from '../run-handlers.js';
import type { SessionCarried } from './carried.js';
import { TaskBook } from './task-book.js';

export interface OpenSession {
  input: SessionInput & ToolQueueInput;
  run: DelegationRun;
  tasks: TaskBook;
  /** User messages received and not yet taken up, oldest first. */
  inbox: SessionMessage[];
  /** The round the message being answered started at; null between messages. */
  messageStartedAtRound: number | null;
  /** Records a task's end once (a report and a stop may both tell it). */
  finishTask(task: SessionTask, result: DelegationResult): void;
}

/** The session as its input and, after a continue-as-new, what the last run carried over. */
export function openSession(
  input: SessionInput & ToolQueueInput,
  carried?: SessionCarried,
): OpenSession {
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
  run.grantHolder = 'session';
  return {
    input,
    run,
    tasks,
    inbox:
      carried?.inbox ??
      (input.message === undefined ? [] : [{ text: input.message, from: input.caller.id }]),
    messageStartedAtRound: carried?.messageStartedAtRound ?? null,
    finishTask(task, result) {
      if (task.result !== null) return;
      tasks.settle(task, result);
      run.recordTask('task-finished', task);
      showDetails(run);
    },
  };
}

/**
 * What the `state` query answers: the run's state with the tasks and the queue, its usage the
 * session's own model calls plus its children's (a finished one's result, a running background
 * one's latest progress; a foreground child reports none until it ends).
 */
export function sessionStateOf(session: OpenSession): SessionState {
  const own = session.run.state();
  const children = session.tasks.list();
  return {
    ...own,
    usage: children.reduce((sum, task) => {
      const child = task.result?.usage ?? task.usage;
      return child ? addUsage(sum, child) : sum;
    }, own.usage ?? emptyUsage()),
    kind: 'session',
    tasks: children,
    queuedMessages: session.inbox.length,
  };
}

/** Every handler of a session; returns the settling function, as registerRunHandlers does. */
export function registerSessionHandlers(session: OpenSession): SettleCard {
  const { run, tasks, inbox } = session;
  const settle = registerRunHandlers(run, () => sessionStateOf(session));
  setHandler(sessionMessageSignal, (message) => {
    inbox.push(message);
  });
  setHandler(childReportSignal, (report) => {
    const task = tasks.get(report.taskId);
    // A child reports in order (parent-report.ts), its end last: nothing follows a result.
    if (task === undefined || task.result !== null) return;
    if (report.kind === 'finished') {
      session.finishTask(task, report.result);
      return;
    }
    if (report.kind === 'grant') {
      // A child's card approved for the rest of the session: the session's grant now.
      run.grants.adopt(report.grant, report.taskId);
      return;
    }
    tasks.apply(report);
    if (report.kind !== 'progress') run.recordChildCard(report.kind, report.card);
    showDetails(run);
  });
  return settle;
}

/**
 * A session's delegation tools, run by the session workflow itself: `Task` starts a
 * child delegation workflow, `TaskOutput` reads (or waits for) what its reports said, `TaskStop`
 * cancels it. No activity: starting, waiting and cancelling are workflow commands, recorded in
 * the session's history. Sandbox code.
 */
import {
  condition,
  getExternalWorkflowHandle,
  isCancellation,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { ResolvedAgent, ToolOutcome } from '../../shared/workflow-contract/activities.js';
import {
  TASK_OUTPUT_DEFAULT_WAIT_MS,
  TASK_OUTPUT_MAX_WAIT_MS,
  TASK_OUTPUT_TOOL,
  TASK_STOP_TOOL,
  TASK_TOOL,
} from '../../shared/tools/delegation-tools.js';
import {
  delegationWorkflowId,
  firstLine,
  type DelegationInput,
  type DelegationResult,
  type FinishedStatus,
} from '../../shared/delegation.js';
import { initialSearchAttributes } from '../../shared/workflow-contract/search-attributes.js';
import type { SessionInput } from '../../shared/session.js';
import type { SessionTask } from '../../shared/delegation.js';
import type { Grant } from '../../shared/policy-contract.js';
import { TOOL_QUEUE_MEMO, type ToolQueueInput } from '../../shared/workflow-contract/tool-queue.js';
import { toolFailureText } from '../../shared/tools/tool-contract.js';
import { staticSummaryOf } from '../../shared/workflow-contract/workflow-summary.js';
import { delegation } from '../delegation.js';
import type { DelegationRun } from '../delegation-run.js';
import { causeOf } from '../failure-notice.js';
import { showDetails } from '../details.js';
import type { TaskBook } from './task-book.js';
import type { PlannedCall } from '../tool-calls.js';
import { newTaskId } from './task-id.js';

/** How long TaskStop waits for the child to confirm it stopped. */
const STOP_CONFIRM_WAIT = '1 minute';

export interface TaskToolsContext {
  input: SessionInput & ToolQueueInput;
  run: DelegationRun;
  resolved: ResolvedAgent;
  tasks: TaskBook;
  /** Records a task's end on the session's stream, once. */
  finishTask(task: SessionTask, result: DelegationResult): void;
}

/** The session's `workflowCall`: runs a delegation tool, or null for any other call. */
export function taskTools(context: TaskToolsContext) {
  return (item: PlannedCall): Promise<ToolOutcome> | null => {
    const args = item.call.arguments;
    switch (item.call.name) {
      case TASK_TOOL:
        return startTask(context, args, item.call.id);
      case TASK_OUTPUT_TOOL:
        return taskOutput(context, args);
      case TASK_STOP_TOOL:
        return stopTask(context, args);
      default:
        return null;
    }
  };
}

async function startTask(
  context: TaskToolsContext,
  args: Record<string, unknown>,
  callId: string,
): Promise<ToolOutcome> {
  const { input, run, resolved, tasks } = context;
  const prompt = text(args.prompt);
  const agent = text(args.subagent_type);
  const description = text(args.description) || firstLine(prompt);
  const model = text(args.model);
  const targets = resolved.snapshot.delegation?.targets ?? [];
  const target = targets.find((candidate) => candidate.name === agent);
  if (target === undefined) {
    const names = targets.map((candidate) => candidate.name).join(', ') || 'none';
    return failed(
      TASK_TOOL,
      `no agent named '${agent}' to hand this to; subagent_type is one of: ${names}`,
    );
  }
  if (prompt === '') return failed(TASK_TOOL, 'prompt is empty: say what the subagent should do');
  const background = args.run_in_background === true || target.background;
  const taskId = newTaskId(context.run.roundsUsed, callId);
  const workflowId = delegationWorkflowId(input.sessionId, taskId);
  const child: ChildTask = { taskId, agent, prompt, description, background, model };
  const task = newSessionTask(child, workflowId);
  let handle;
  try {
    handle = await startChild(delegation, {
      workflowId,
      args: [childInputOf(context, child)],
      ...childStartOptions(context, child),
    });
  } catch (error) {
    if (isCancellation(error)) throw error;
    return failed(TASK_TOOL, `the subagent could not be started: ${causeOf(error)}`);
  }
  tasks.add(task);
  run.recordTask('task-started', task);
  showDetails(run);
  if (background) {
    return {
      content:
        `Started ${agent} in the background as task_id ${taskId}. Follow it with ` +
        `TaskOutput({"task_id": "${taskId}"}); stop it with TaskStop({"task_id": "${taskId}"}).`,
      isError: false,
    };
  }
  try {
    context.finishTask(task, (await handle.result()) as DelegationResult);
  } catch (error) {
    if (isCancellation(error)) throw error;
    // A failed child reported its failure before it closed; otherwise say what is known.
    if (task.result === null) {
      context.finishTask(task, endedAsIs(task, 'failed', `the subagent failed: ${causeOf(error)}`));
    }
  }
  return outputOf(task);
}

/** What `Task` asked for, checked: the child to start. */
interface ChildTask {
  taskId: string;
  agent: string;
  prompt: string;
  description: string;
  background: boolean;
  /** Empty: the child's own model (or the session's, for `inherit`). */
  model: string;
}

/** The child's input: the session's caller (its roles travel) and workspace, never more. */
function childInputOf(
  context: TaskToolsContext,
  child: ChildTask,
): DelegationInput & ToolQueueInput {
  const { input, resolved } = context;
  return {
    delegationId: child.taskId,
    agent: child.agent,
    task: child.prompt,
    session: input.sessionId,
    // Roles travel: the child resolves under the session's caller, never more.
    caller: input.caller,
    options: {
      ...(input.options.unattended === undefined ? {} : { unattended: input.options.unattended }),
      // The caller's ceiling travels too: a child never runs wider than its caller.
      ...(input.options.callerMode === undefined ? {} : { callerMode: input.options.callerMode }),
      background: child.background,
    },
    parent: { sessionId: input.sessionId, workflowId: workflowInfo().workflowId },
    // Grants for the rest of the session; only when there are any, so a child
    // started before any grant is started with the same input as before.
    ...sessionGrantsOf(context.run),
    ...(child.model === '' ? {} : { model: child.model }),
    parentModel: resolved.snapshot.model,
    // The child works in the session's workspace: its tools run where the session's do.
    ...(input.toolQueue === undefined ? {} : { toolQueue: input.toolQueue }),
  };
}

/** The task as the session's state lists it, before the child has said anything. */
function newSessionTask(child: ChildTask, workflowId: string): SessionTask {
  return {
    taskId: child.taskId,
    workflowId,
    agent: child.agent,
    description: child.description,
    background: child.background,
    status: 'running',
    roundsUsed: 0,
    pendingCards: 0,
    lastText: '',
    result: null,
    startedAt: new Date().toISOString(),
  };
}

/** How the child runs beside its session: close policies, search attributes, memo, summary. */
function childStartOptions(context: TaskToolsContext, child: ChildTask) {
  const { input } = context;
  const { agent, taskId, background, description } = child;
  return {
    workflowIdReusePolicy: 'REJECT_DUPLICATE' as const,
    // A foreground child ends with the session. A background one must outlive the session's
    // continue-as-new, where a parent close policy would already apply: the session cancels
    // it itself when it stops (session.ts).
    parentClosePolicy: background ? ('ABANDON' as const) : ('REQUEST_CANCEL' as const),
    cancellationType: background ? ('ABANDON' as const) : ('WAIT_CANCELLATION_COMPLETED' as const),
    typedSearchAttributes: initialSearchAttributes({
      agent,
      session: input.sessionId,
      delegationId: taskId,
      parent: input.sessionId,
    }),
    memo: {
      task: firstLine(child.prompt),
      description,
      ...(input.caller.id === null ? {} : { startedBy: input.caller.id }),
      ...(input.toolQueue === undefined ? {} : { [TOOL_QUEUE_MEMO]: input.toolQueue }),
    },
    staticSummary: staticSummaryOf(agent, description),
  };
}

async function taskOutput(
  context: TaskToolsContext,
  args: Record<string, unknown>,
): Promise<ToolOutcome> {
  const task = known(context, TASK_OUTPUT_TOOL, args);
  if (!('taskId' in task)) return task;
  const timeout =
    typeof args.timeout === 'number' && args.timeout >= 0
      ? args.timeout
      : TASK_OUTPUT_DEFAULT_WAIT_MS;
  if (args.block !== false && task.result === null) {
    await condition(() => task.result !== null, Math.min(timeout, TASK_OUTPUT_MAX_WAIT_MS));
  }
  return outputOf(task);
}

async function stopTask(
  context: TaskToolsContext,
  args: Record<string, unknown>,
): Promise<ToolOutcome> {
  const task = known(context, TASK_STOP_TOOL, args);
  if (!('taskId' in task)) return task;
  if (task.result !== null) {
    return {
      content: `Task ${task.taskId} had already ${task.result.status}; nothing to stop.\n${outputOf(task).content}`,
      isError: false,
    };
  }
  await cancelTask(task, context.finishTask);
  if (task.result === null) await condition(() => task.result !== null, STOP_CONFIRM_WAIT);
  if (task.result === null) {
    return failed(
      TASK_STOP_TOOL,
      `task ${task.taskId} was asked to stop but has not confirmed yet; TaskOutput shows when it has`,
    );
  }
  return outputOf(task);
}

/**
 * Asks a child to stop (in the child: its cards are denied, it closes as `stopped` and
 * reports so). A child that is already gone without a report is settled here.
 */
export async function cancelTask(
  task: SessionTask,
  finishTask: TaskToolsContext['finishTask'],
): Promise<void> {
  try {
    await getExternalWorkflowHandle(task.workflowId).cancel();
  } catch (error) {
    if (isCancellation(error)) throw error;
    if (task.result === null) {
      const notice = `the subagent had already closed without reporting (${causeOf(error)})`;
      finishTask(task, endedAsIs(task, 'stopped', notice));
    }
  }
}

/** The result of a child whose own result never came: what its reports last said. */
function endedAsIs(task: SessionTask, status: FinishedStatus, notice: string): DelegationResult {
  return { status, text: task.lastText, notice, roundsUsed: task.roundsUsed, deniedCalls: [] };
}

/** What the model reads about a task: its result once finished, else how it stands. */
function outputOf(task: SessionTask): ToolOutcome {
  const head = `[task ${task.taskId} (${task.agent})`;
  if (task.result === null) {
    const cards = task.pendingCards > 0 ? `, waiting on ${task.pendingCards} approval card(s)` : '';
    const sofar = task.lastText === '' ? '(no answer yet)' : task.lastText;
    return {
      content: `${head} ${task.status}, ${task.roundsUsed} round(s)${cards}]\nSo far: ${sofar}`,
      isError: false,
    };
  }
  const { result } = task;
  const lines = [`${head} ${result.status} after ${result.roundsUsed} round(s)]`, result.text];
  if (result.notice) lines.push(`Notice: ${result.notice}`);
  for (const denied of result.deniedCalls ?? []) {
    lines.push(`Not done: ${denied.tool} was denied (${denied.by}): ${denied.reason}`);
  }
  return { content: lines.join('\n'), isError: result.status !== 'completed' };
}

function known(
  context: TaskToolsContext,
  tool: string,
  args: Record<string, unknown>,
): SessionTask | ToolOutcome {
  const taskId = text(args.task_id);
  const task = context.tasks.get(taskId);
  if (task !== undefined) return task;
  const ids =
    context.tasks
      .list()
      .map((entry) => entry.taskId)
      .join(', ') || 'none yet';
  return failed(tool, `no task with task_id '${taskId}' in this session (tasks: ${ids})`);
}

function failed(tool: string, cause: string): ToolOutcome {
  return { content: toolFailureText(tool, cause), isError: true };
}

function text(value: unknown): string {
  return typeof value === 'string' ? value.trim() : '';
}

/** The session's grants for the rest of the session, as a child's input carries them. */
function sessionGrantsOf(run: DelegationRun): { sessionGrants?: Grant[] } {
  const grants = run.grants.forSession();
  return grants.length === 0 ? {} : { sessionGrants: grants };
}

/**
 * The delegation workflow. Sandbox code: everything here must be
 * deterministic. Side effects (model calls, tools, file reads) happen only in activities,
 * which the workflow reaches through `proxyActivities` and activity *types*.
 */
import {
  ApplicationFailure,
  CancellationScope,
  ContinueAsNew,
  isCancellation,
  workflowInfo,
} from '@temporalio/workflow';
import type { DelegationInput, DelegationResult, DelegationState } from '../shared/delegation.js';
import { FAILURE_TYPES } from '../shared/workflow-contract/failures.js';
import type { ToolQueueInput } from '../shared/workflow-contract/tool-queue.js';
import { activitiesWith, STOP_HOOKS, workspaceQueue } from './activity-options.js';
import type { CarriedState } from './continue-as-new/carried-state.js';
import { cardDeadlinesFor } from './cards/card-deadlines.js';
import { askCompactionPatchFirst, compactIfDue } from './compaction.js';
import { DelegationRun } from './delegation-run.js';
import { failureNotice } from './failure-notice.js';
import { handOverWhenIdle } from './continue-as-new/hand-over.js';
import { historyNearLimit } from './continue-as-new/history-limit.js';
import { parentReporter, REPORT_TEXT_CHARS } from './parent-report.js';
import { runRounds, type RoundsOptions } from './rounds.js';
import { denyPendingOnStop, registerRunHandlers } from './run-handlers.js';
import { notify } from './notify.js';
import { registerSteering, SteeringQueue } from './steering.js';
import { asOwnRun } from './scheduled-run.js';
import { publish } from './visibility.js';
import { resolveAgentNow } from './resolve-agent.js';

/**
 * One delegation. `carried` is set only by continue-as-new, never by a client. With a
 * `toolQueue` its workspace-bound activities run there; its webhooks do not.
 */
export async function delegation(
  started: DelegationInput & ToolQueueInput,
  carried?: CarriedState,
): Promise<DelegationResult> {
  const input = asOwnRun(started);
  const toolQueue = workspaceQueue(input);
  const run = new DelegationRun(input, workflowInfo().workflowId, carried);
  const background = input.options.background === true;
  const reports = parentReporter(input);
  // Handlers first, before any await, so no signal or query is ever missed.
  const steering = new SteeringQueue(carried?.messages);
  const decideCard = registerRunHandlers(
    run,
    () => withMessages(run.state(), steering),
    (card) => reports.send({ kind: 'card-decided', taskId: input.delegationId, card }),
  );
  registerSteering(run, steering);
  askCompactionPatchFirst();

  const ending: Ending = { input, run, toolQueue, background, reports };
  // A card approved for the rest of the session: the session records it.
  run.onSessionGrant = (grant) =>
    reports.send({ kind: 'grant', taskId: input.delegationId, grant });
  const finish = (next: DelegationResult) => {
    // From here a message could never reach the model: the update refuses it.
    steering.close();
    return finishDelegation(ending, next);
  };

  try {
    const resolved =
      run.resolved ??
      (await resolveAgentNow(input, 'resolve agent', toolQueue, {
        ...(input.model === undefined ? {} : { model: input.model }),
        ...(input.parentModel === undefined ? {} : { parentModel: input.parentModel }),
      }));
    run.recordResolved(resolved, cardDeadlinesFor(resolved.snapshot.cardDeadlines, input.options));

    const end = await runRounds({
      run,
      resolved,
      unattended: input.options.unattended,
      toolQueue,
      settleCard: decideCard,
      outOfTurns: () => run.outOfTurns(),
      maxTokens: input.options.maxTokens ?? resolved.snapshot.limits.maxTokens,
      async betweenRounds() {
        // Compaction first: a message delivered now stays word for word among the kept rounds.
        await compactIfDue(run, resolved, toolQueue);
        steering.deliver(run);
        if (!historyNearLimit()) return;
        // Hand over between rounds: no card pending, no tool running, no handler mid-flight,
        // no report on its way to the session.
        await reports.flush();
        await handOverWhenIdle<typeof delegation>(() => [input, carryOver(run, steering)]);
      },
      messagesWaiting: () => steering.waiting(),
      ...reportsToSession(ending),
    });
    return await finish(
      end.kind === 'answered'
        ? run.completedWith(end.turn.text)
        : end.kind === 'out-of-turns'
          ? run.cutAtMaxTurns(end.turn)
          : run.cutAtTokenBudget(end.maxTokens),
    );
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error)) {
      // Stopped. Settling must itself not be cancelled, or cards stay pending forever.
      return await CancellationScope.nonCancellable(async () => {
        denyPendingOnStop(run, decideCard);
        return finish(
          run.endedEarly('stopped', 'Stopped by TaskStop; pending approval cards were denied.'),
        );
      });
    }
    const notice = failureNotice(error);
    await finish(run.endedEarly('failed', notice));
    throw ApplicationFailure.nonRetryable(notice, FAILURE_TYPES.delegationFailed);
  }
}

/** The state query's answer: the run's, with the messages sent to it when there are any. */
function withMessages(state: DelegationState, steering: SteeringQueue): DelegationState {
  const messages = steering.list();
  return messages.length === 0 ? state : { ...state, messages };
}

/** What the next run continues from; `messages` only when some were sent (older shape else). */
function carryOver(run: DelegationRun, steering: SteeringQueue): CarriedState {
  const messages = steering.carry();
  return messages.length === 0 ? run.carryOver() : { ...run.carryOver(), messages };
}

/** What the end of a delegation needs: its run, where its hooks run, and its session's reports. */
interface Ending {
  input: DelegationInput;
  run: DelegationRun;
  toolQueue: string | undefined;
  background: boolean;
  reports: ReturnType<typeof parentReporter>;
}

/**
 * The last steps of every end: the Stop hooks (a failing one is noted on the result), the final
 * state, the webhook, and a background child's result to its session.
 */
async function finishDelegation(ending: Ending, next: DelegationResult): Promise<DelegationResult> {
  const { input, run, toolQueue, background, reports } = ending;
  let final = next;
  const hooks = run.resolved?.snapshot.hooks;
  if ((hooks?.Stop ?? []).length > 0) {
    const { runStopHooks } = activitiesWith(STOP_HOOKS, 'Stop hooks', toolQueue);
    const failure = await runStopHooks({ hooks, agent: input.agent, result: next });
    if (failure) {
      final = {
        ...next,
        notice: [next.notice, `Stop hook failed: ${failure}`].filter(Boolean).join(' '),
      };
    }
  }
  run.finish(final);
  publish(run);
  if (run.resolved)
    await notify(run, run.resolved, `delegation.${final.status}`, { result: final });
  // A foreground child's session reads its result from the child's completion instead.
  if (background) reports.send({ kind: 'finished', taskId: input.delegationId, result: final });
  await reports.flush();
  return final;
}

/**
 * What a child tells its session as the rounds go. Not awaited: a report mirrors state onto the
 * session's stream and must not hold up the child's next command. Progress matters only for a
 * background child, which TaskOutput reads; a foreground one's session just waits for its result.
 */
function reportsToSession(ending: Ending): Pick<RoundsOptions, 'onProgress' | 'onCardsOpened'> {
  const { input, run, background, reports } = ending;
  const taskId = input.delegationId;
  return {
    async onProgress() {
      if (!background) return;
      reports.send({
        kind: 'progress',
        taskId,
        status: run.status,
        roundsUsed: run.roundsUsed,
        text: run.latestText().slice(0, REPORT_TEXT_CHARS),
        usage: run.usageTotals(),
      });
    },
    async onCardsOpened(items) {
      for (const item of items) {
        if (item.card) reports.send({ kind: 'card-opened', taskId, card: item.card });
      }
    },
  };
}

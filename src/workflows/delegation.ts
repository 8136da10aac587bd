/**
 * The delegation workflow (SPEC section 4). Sandbox code: everything here must be
 * deterministic. Side effects (model calls, tools, file reads) happen only in activities,
 * which the workflow reaches through `proxyActivities` and activity *types*.
 */
import {
  allHandlersFinished,
  ApplicationFailure,
  CancellationScope,
  condition,
  ContinueAsNew,
  continueAsNew,
  isCancellation,
  log,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { ModelTurn } from '../activities/types.js';
import type { CardDecision, DelegationInput, DelegationResult } from '../shared/delegation.js';
import { FAILURE_TYPES } from '../shared/failures.js';
import { decideCardSignal, decideCardUpdate, eventsQuery, stateQuery } from '../shared/messages.js';
import { activitiesWith, MODEL_CALL, RESOLVE_AGENT, STOP_HOOKS } from './activity-options.js';
import { HISTORY_BYTES_LIMIT, HISTORY_EVENTS_LIMIT, type CarriedState } from './carried-state.js';
import { applyClaudePreToolHooks } from './claude-hooks.js';
import { DelegationRun } from './delegation-run.js';
import { failureNotice } from './failure-notice.js';
import { planCalls, settleCall } from './tool-calls.js';
import { publish, publishDecision } from './visibility.js';

const { resolveAgent } = activitiesWith(RESOLVE_AGENT, 'resolve agent');

/**
 * One delegation. `carried` is set only by continue-as-new, never by a client.
 */
export async function delegation(
  input: DelegationInput,
  carried?: CarriedState,
): Promise<DelegationResult> {
  const run = new DelegationRun(input, workflowInfo().workflowId, carried);
  const decideCard = (decision: CardDecision) => {
    const card = run.decideCard(decision);
    if (card) publishDecision(run);
    return card;
  };

  // Handlers first, before any await, so no signal or query is ever missed.
  setHandler(stateQuery, () => run.state());
  setHandler(eventsQuery, (afterSeq: number) => run.eventsAfter(afterSeq));
  setHandler(decideCardSignal, (decision) => {
    // Signals cannot answer; a bad decision is logged and changes nothing.
    if (!decideCard(decision))
      log.warn('ignored card decision', { ...decision, reason: undefined });
  });
  setHandler(
    decideCardUpdate,
    (decision) => {
      const card = decideCard(decision);
      if (!card) throw ApplicationFailure.nonRetryable(`card ${decision.cardId} cannot be decided`);
      return card;
    },
    {
      validator: (decision) => {
        const rejection = run.cardRejection(decision);
        if (rejection) {
          throw ApplicationFailure.create({ ...rejection, nonRetryable: true });
        }
      },
    },
  );

  const finish = async (next: DelegationResult): Promise<DelegationResult> => {
    let final = next;
    const hooks = run.resolved?.snapshot.hooks;
    if ((hooks?.Stop ?? []).length > 0) {
      const { runStopHooks } = activitiesWith(STOP_HOOKS, 'Stop hooks');
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
    return final;
  };

  try {
    const resolved =
      run.resolved ?? (await resolveAgent({ agent: input.agent, caller: input.caller }));
    run.recordResolved(resolved);
    const { snapshot } = resolved;

    for (;;) {
      if (historyNearLimit()) {
        // Hand over between rounds: no card pending, no tool running, no handler mid-flight.
        await condition(allHandlersFinished);
        await continueAsNew<typeof delegation>(input, run.carryOver());
      }
      const { callModel } = activitiesWith(MODEL_CALL, `model round ${run.roundsUsed + 1}`);
      const turn: ModelTurn = await callModel({
        agentName: snapshot.agentName,
        level: snapshot.level,
        model: snapshot.model,
        system: snapshot.systemPrompt,
        tools: snapshot.tools,
        transcript: run.transcript,
      });
      run.recordModelTurn(turn);
      if (turn.toolCalls.length === 0) return finish(run.completedWith(turn.text));
      if (run.outOfTurns()) return finish(run.cutAtMaxTurns(turn));

      const planned = planCalls(turn, resolved, input.options.unattended);
      await applyClaudePreToolHooks(planned, turn, resolved, input.options.unattended);
      for (const item of planned) {
        if (item.verdict.kind === 'ask') item.card = run.openCard(item.call, item.verdict.reason);
      }
      if (run.hasPendingCards()) {
        run.park();
        publish(run);
        await condition(() => !run.hasPendingCards());
        run.resume();
        publish(run);
      }

      for (const item of planned) {
        const outcome = await settleCall(item, resolved);
        run.recordToolResult(item, outcome);
      }
    }
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error)) {
      // TaskStop (RUN-5). Settling must itself not be cancelled, or cards stay pending forever.
      return await CancellationScope.nonCancellable(async () => {
        for (const card of run.pendingCards()) {
          decideCard({
            cardId: card.id,
            decision: 'deny',
            reason: 'stopped',
            decidedBy: 'TaskStop',
          });
        }
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

function historyNearLimit(): boolean {
  const info = workflowInfo();
  return (
    info.continueAsNewSuggested ||
    info.historyLength > HISTORY_EVENTS_LIMIT ||
    info.historySize > HISTORY_BYTES_LIMIT
  );
}

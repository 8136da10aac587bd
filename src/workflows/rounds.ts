/**
 * The round loop, shared by a delegation and a session: one model call per round, then policy
 * on every tool call, cards for those that ask, and the calls themselves. Sandbox code.
 */
import type {
  ModelTurn,
  ResolvedAgent,
  ToolOutcome,
} from '../shared/workflow-contract/activities.js';
import type { UnattendedVerdict } from '../shared/policy-contract.js';
import { toolFailureText } from '../shared/tools/tool-contract.js';
import { activitiesWith, MODEL_CALL } from './activity-options.js';
import { awaitCardDecisions, type SettleCard } from './cards/card-deadlines.js';
import { applyClaudePreToolHooks } from './claude-hooks.js';
import type { DelegationRun } from './delegation-run.js';
import { modelPromptOf, withSnapshot } from './continue-as-new/snapshot-carrier.js';
import { planCalls, settleCall, type PlannedCall } from './tool-calls.js';
import { countCardOpened, countVerdicts } from './metric-sink.js';
import { notify } from './notify.js';
import { catchUpMemo, publish, publishResume } from './visibility.js';
import { showDoing } from './details.js';
import { roundSpans } from './tracing/spans.js';

export interface RoundsOptions {
  run: DelegationRun;
  resolved: ResolvedAgent;
  unattended: UnattendedVerdict | undefined;
  /**
   * The queue of the workspace-bound activities (model calls, tools, hooks): `workspaceQueue`'s
   * answer; undefined runs them on the workflow's own queue, as older runs did.
   */
  toolQueue?: string | undefined;
  /** True when the next round would pass this pass's `maxTurns`. */
  outOfTurns(): boolean;
  /** The token budget, checked before each model call; absent: none. */
  maxTokens?: number | undefined;
  /**
   * Runs between rounds (no card pending, no tool running), before the next model call: delivers
   * messages sent meanwhile, and may continue-as-new.
   */
  betweenRounds(): Promise<void>;
  /**
   * True while a message sent to the delegation waits for delivery: an answer then is
   * not the end, the model gets the message first. Absent: never (a session).
   */
  messagesWaiting?(): boolean;
  /** Calls the workflow runs itself (a session's Task tools); null for every other call. */
  workflowCall?(item: PlannedCall): Promise<ToolOutcome> | null;
  /** Told after each model turn and each park or resume (a child reports to its session). */
  onProgress?(): Promise<void>;
  /** Settles cards whose deadline passed, as a decision does (registerRunHandlers). */
  settleCard: SettleCard;
  /** Told when a round opens cards (a child forwards them to its session). */
  onCardsOpened?(items: PlannedCall[]): Promise<void>;
}

/**
 * How a pass of rounds ended: the model answered, it asked for tools with no turn left, or the
 * token budget was used up before the next model call.
 */
export type RoundsEnd =
  | { kind: 'answered'; turn: ModelTurn }
  | { kind: 'out-of-turns'; turn: ModelTurn }
  | { kind: 'out-of-tokens'; maxTokens: number };

export async function runRounds(options: RoundsOptions): Promise<RoundsEnd> {
  const { run, resolved, unattended, toolQueue } = options;
  const { snapshot } = resolved;
  for (;;) {
    await options.betweenRounds();
    if (options.maxTokens !== undefined && run.tokensUsed() >= options.maxTokens) {
      return { kind: 'out-of-tokens', maxTokens: options.maxTokens };
    }
    // The model call too: it computes the calls' real paths in the workspace, and the scripted
    // model reads its script from there.
    showDoing(run, run.roundsUsed + 1, 'waiting for the model');
    const { callModel } = activitiesWith(
      MODEL_CALL,
      `model round ${run.roundsUsed + 1}`,
      toolQueue,
    );
    const turn: ModelTurn = await withSnapshot(resolved, (carrier) =>
      callModel({
        agentName: snapshot.agentName,
        level: snapshot.level,
        model: snapshot.model,
        transcript: run.transcript,
        ...modelPromptOf(carrier),
      }),
    );
    run.recordModelTurn(turn);
    await options.onProgress?.();
    if (turn.toolCalls.length === 0) {
      // A message that arrived while the model answered is delivered in one more round.
      if (options.messagesWaiting?.() === true && !options.outOfTurns()) continue;
      return { kind: 'answered', turn };
    }
    if (options.outOfTurns()) return { kind: 'out-of-turns', turn };

    const planned = planCalls(turn, resolved, unattended, run.grants.active());
    await applyClaudePreToolHooks(planned, turn, resolved, unattended, toolQueue);
    countVerdicts(planned, resolved);
    const spans = roundSpans(planned);
    try {
      const carded: PlannedCall[] = [];
      for (const item of planned) {
        if (item.verdict.kind === 'ask') {
          item.card = run.openCard(item.call, item.verdict.reason, item);
          countCardOpened(item, resolved);
          spans.cardOpened(item);
          carded.push(item);
        }
      }
      if (run.hasPendingCards()) {
        run.park();
        publish(run);
        await options.onCardsOpened?.(carded);
        for (const item of carded) await notify(run, resolved, 'card.opened', { card: item.card! });
        await awaitCardDecisions(run, options.settleCard, (card) =>
          notify(run, resolved, 'card.expiring', { card }),
        );
        spans.cardsSettled(carded);
        run.resume();
        publishResume(run);
        await options.onProgress?.();
      }

      for (const item of planned) {
        showDoing(run, run.roundsUsed, `running \`${item.call.name}\``);
        const outcome =
          item.invalid === undefined
            ? await spans.within(
                item,
                () => options.workflowCall?.(item) ?? settleCall(item, resolved, toolQueue),
              )
            : { content: toolFailureText(item.call.name, item.invalid), isError: true };
        run.recordToolResult(item, outcome);
        spans.callDone(item, outcome);
      }
    } catch (error) {
      // A stop or a failure mid-round: the open spans end with it instead of never.
      spans.abandon(error);
      throw error;
    }
    catchUpMemo(run);
  }
}

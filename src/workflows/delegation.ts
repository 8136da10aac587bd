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
  patched,
  setHandler,
  upsertMemo,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { ModelTurn } from '../activities/types.js';
import { decide } from '../policy/decide.js';
import type { CapabilitySnapshot } from '../shared/capability-snapshot.js';
import type {
  ApprovalCard,
  DelegationEvent,
  DelegationInput,
  DelegationResult,
  DelegationState,
  DelegationStatus,
} from '../shared/delegation.js';
import { cardIdFor } from '../shared/delegation.js';
import { FAILURE_TYPES } from '../shared/failures.js';
import { decideCardSignal, decideCardUpdate, eventsQuery, stateQuery } from '../shared/messages.js';
import type { TranscriptEntry } from '../shared/model-contract.js';
import type { Verdict } from '../shared/policy-contract.js';
import { redactSecrets } from '../shared/redact.js';
import { PENDING_CARDS_ATTRIBUTE, STATUS_ATTRIBUTE } from '../shared/search-attributes.js';
import { activitiesWith, MODEL_CALL, RESOLVE_AGENT, STOP_HOOKS } from './activity-options.js';
import { CardBook } from './card-book.js';
import {
  CARRIED_DECIDED_CARDS,
  CARRIED_EVENTS,
  HISTORY_BYTES_LIMIT,
  HISTORY_EVENTS_LIMIT,
  type CarriedState,
} from './carried-state.js';
import { failureNotice } from './failure-notice.js';
import { settleCall, unknownToolText, type PlannedCall } from './tool-calls.js';
import { summarizeEntry } from './transcript-summary.js';

const { resolveAgent } = activitiesWith(RESOLVE_AGENT, 'resolve agent');

/**
 * One delegation. `carried` is set only by continue-as-new, never by a client.
 */
export async function delegation(
  input: DelegationInput,
  carried?: CarriedState,
): Promise<DelegationResult> {
  const { workflowId } = workflowInfo();
  const cards = new CardBook();
  cards.restore(carried?.decidedCards ?? []);
  const events: DelegationEvent[] = carried?.events ?? [];
  const transcript: TranscriptEntry[] = carried?.transcript ?? [
    { role: 'user', content: input.task },
  ];
  let status: DelegationStatus = 'running';
  let roundsUsed = carried?.roundsUsed ?? 0;
  let maxTurns = carried?.resolved.snapshot.limits.maxTurns ?? 0;
  let model: string | null = carried?.resolved.snapshot.model ?? null;
  let definitionHash: string | null = carried?.resolved.snapshot.definitionHash ?? null;
  let result: DelegationResult | null = null;
  let cardSequence = carried?.cardSequence ?? 0;
  let nextEventSeq = carried?.nextEventSeq ?? 1;

  const now = (): string => new Date().toISOString();
  const emit = (event: DistributiveOmit<DelegationEvent, 'seq' | 'at'>): void => {
    events.push({ ...event, seq: nextEventSeq++, at: now() } as DelegationEvent);
  };
  /**
   * Status and pending cards, where ops and clients can see them without a worker: search
   * attributes for the UI's lists, and a copy of the pending cards in the memo (POL-2).
   */
  const publish = (): void => {
    upsertSearchAttributes([
      { key: STATUS_ATTRIBUTE, value: status },
      { key: PENDING_CARDS_ATTRIBUTE, value: cards.pending().length },
    ]);
    if (patched(CARDS_IN_MEMO)) upsertMemo({ pendingCards: cards.pending().map(cardForMemo) });
  };
  const setStatus = (next: DelegationStatus): void => {
    status = next;
    publish();
  };
  const decideCard = (decision: Parameters<CardBook['apply']>[0]): ApprovalCard | null => {
    const card = cards.apply(decision, now());
    if (card) {
      emit({ type: 'card-decided', card });
      if (patched(CARDS_IN_MEMO)) publish();
    }
    return card;
  };

  // Handlers first, before any await, so no signal or query is ever missed.
  setHandler(stateQuery, (): DelegationState => ({
    delegationId: input.delegationId,
    workflowId,
    agent: input.agent,
    session: input.session,
    status,
    roundsUsed,
    maxTurns,
    model,
    definitionHash,
    pendingCards: cards.pending(),
    decidedCards: cards.decided(),
    transcriptSummary: transcript.map(summarizeEntry),
    result,
  }));
  setHandler(eventsQuery, (afterSeq: number) => events.filter((event) => event.seq > afterSeq));
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
        const rejection = cards.rejectionOf(decision);
        if (rejection) {
          throw ApplicationFailure.create({ ...rejection, nonRetryable: true });
        }
      },
    },
  );

  const lastAnswer = (): string => {
    for (let index = transcript.length - 1; index >= 0; index--) {
      const entry = transcript[index]!;
      if (entry.role === 'assistant' && entry.content.trim()) return entry.content;
    }
    return '';
  };
  let hooks: CapabilitySnapshot['hooks'];
  const finish = async (next: DelegationResult): Promise<DelegationResult> => {
    let final = next;
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
    result = final;
    emit({ type: 'finished', result: final });
    setStatus(final.status);
    return final;
  };

  try {
    const resolved =
      carried?.resolved ?? (await resolveAgent({ agent: input.agent, caller: input.caller }));
    const { snapshot } = resolved;
    hooks = snapshot.hooks;
    model = snapshot.model;
    definitionHash = snapshot.definitionHash;
    maxTurns = snapshot.limits.maxTurns;
    if (!carried) emit({ type: 'started', agent: snapshot.agentName, model: snapshot.model });
    const toolsByName = new Map(snapshot.tools.map((tool) => [tool.name, tool]));

    for (;;) {
      if (historyNearLimit()) {
        // Hand over between rounds: no card pending, no tool running, no handler mid-flight.
        await condition(allHandlersFinished);
        await continueAsNew<typeof delegation>(input, {
          resolved,
          transcript,
          roundsUsed,
          cardSequence,
          decidedCards: cards.decided().slice(-CARRIED_DECIDED_CARDS),
          events: events.slice(-CARRIED_EVENTS),
          nextEventSeq,
          previousRuns: (carried?.previousRuns ?? 0) + 1,
        });
      }
      const { callModel } = activitiesWith(MODEL_CALL, `model round ${roundsUsed + 1}`);
      const turn: ModelTurn = await callModel({
        agentName: snapshot.agentName,
        level: snapshot.level,
        model: snapshot.model,
        system: snapshot.systemPrompt,
        tools: snapshot.tools,
        transcript,
      });
      roundsUsed += 1;
      // The adapter's own label says what really answered ("... (scripted model)").
      model = turn.modelLabel;
      transcript.push({ role: 'assistant', content: turn.text, toolCalls: turn.toolCalls });
      emit({
        type: 'model-turn',
        round: roundsUsed,
        text: turn.text,
        toolCalls: turn.toolCalls.map((call) => call.name),
      });
      if (turn.toolCalls.length === 0) {
        return finish({ status: 'completed', text: turn.text, notice: null, roundsUsed });
      }
      if (roundsUsed >= maxTurns) {
        const skipped = turn.toolCalls.map((call) => call.name).join(', ');
        return finish({
          status: 'completed',
          text: lastAnswer(),
          notice: `Stopped at maxTurns (${maxTurns}) before finishing; the requested call(s) ${skipped} were not run.`,
          roundsUsed,
        });
      }

      const planned = turn.toolCalls.map((call): PlannedCall => {
        const schema = toolsByName.get(call.name);
        const verdict: Verdict = schema
          ? decide(
              {
                approvalMode: snapshot.approvalMode,
                workspaceRoot: resolved.workspaceRoot,
                writableRoots: resolved.writableRoots,
                unattended: input.options.unattended ?? 'ask',
              },
              {
                toolName: call.name,
                toolClass: schema.toolClass,
                paths: turn.callPaths[call.id] ?? [],
                confined: schema.confined === true,
              },
            )
          : { kind: 'deny', reason: unknownToolText(call.name, snapshot.tools) };
        return { call, schema, verdict, card: null };
      });

      for (const item of planned) {
        if (item.verdict.kind !== 'ask') continue;
        cardSequence += 1;
        item.card = {
          id: cardIdFor(input.delegationId, cardSequence),
          delegationId: input.delegationId,
          workflowId,
          session: input.session,
          agent: snapshot.agentName,
          tool: item.call.name,
          arguments: redactSecrets(item.call.arguments) as Record<string, unknown>,
          reason: item.verdict.reason,
          openedAt: now(),
          state: { status: 'pending' },
        };
        cards.open(item.card);
        emit({ type: 'card-opened', card: item.card });
      }
      if (cards.pending().length > 0) {
        setStatus('parked');
        await condition(() => cards.pending().length === 0);
        setStatus('running');
      }

      for (const item of planned) {
        const outcome = await settleCall(item, resolved);
        transcript.push({
          role: 'tool',
          toolCallId: item.call.id,
          toolName: item.call.name,
          content: outcome.content,
          isError: outcome.isError,
          ...(outcome.blob ? { blob: outcome.blob } : {}),
        });
        emit({
          type: 'tool-call',
          tool: item.call.name,
          verdict: item.card ? `ask:${item.card.state.status}` : item.verdict.kind,
          summary: outcome.content.slice(0, 200),
        });
      }
    }
  } catch (error) {
    if (error instanceof ContinueAsNew) throw error;
    if (isCancellation(error)) {
      // TaskStop (RUN-5). Settling must itself not be cancelled, or cards stay pending forever.
      return await CancellationScope.nonCancellable(async () => {
        for (const card of cards.pending()) {
          decideCard({
            cardId: card.id,
            decision: 'deny',
            reason: 'stopped',
            decidedBy: 'TaskStop',
          });
        }
        return finish({
          status: 'stopped',
          text: lastAnswer(),
          notice: 'Stopped by TaskStop; pending approval cards were denied.',
          roundsUsed,
        });
      });
    }
    const notice = failureNotice(error);
    await finish({ status: 'failed', text: lastAnswer(), notice, roundsUsed });
    throw ApplicationFailure.nonRetryable(notice, FAILURE_TYPES.delegationFailed);
  }
}

/**
 * Patch id: pending cards mirrored into the memo, and status published on every decision.
 * Histories recorded before it replay without those commands.
 */
const CARDS_IN_MEMO = 'cards-in-memo';

/** Memo copies are bounded: a `write` card's full content stays in the state query. */
const MEMO_ARGUMENT_CHARS = 1_000;

function cardForMemo(card: ApprovalCard): ApprovalCard {
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(card.arguments)) {
    args[key] =
      typeof value === 'string' && value.length > MEMO_ARGUMENT_CHARS
        ? `${value.slice(0, MEMO_ARGUMENT_CHARS)}… [${value.length - MEMO_ARGUMENT_CHARS} more characters]`
        : value;
  }
  return { ...card, arguments: args };
}

function historyNearLimit(): boolean {
  const info = workflowInfo();
  return (
    info.continueAsNewSuggested ||
    info.historyLength > HISTORY_EVENTS_LIMIT ||
    info.historySize > HISTORY_BYTES_LIMIT
  );
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

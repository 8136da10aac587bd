/**
 * The state of one delegation run: status, transcript, events, counters, cards and result.
 * Sandbox code: deterministic and free of Temporal commands (the workflow issues those), so
 * the `state` and `events` queries read it directly. `new Date()` is the workflow clock here.
 */
import type {
  ModelTurn,
  ResolvedAgent,
  ToolOutcome,
} from '../shared/workflow-contract/activities.js';
import type { CardDeadlines } from '../shared/capability-snapshot.js';
import type {
  ApprovalCard,
  CardDecision,
  DelegationEvent,
  DelegationInput,
  DelegationResult,
  DelegationState,
  DelegationStatus,
  DeniedCall,
} from '../shared/delegation.js';
import { addUsage, cardIdFor, emptyUsage, type UsageTotals } from '../shared/delegation.js';
import type { CompactionReport } from '../shared/delegation.js';
import { estimatedTokens } from '../shared/compaction.js';
import type { TokenUsage, ToolCallRequest, TranscriptEntry } from '../shared/model-contract.js';
import { permissionInEffect } from '../shared/permission-in-effect.js';
import { argumentsPreview, redactSecrets } from '../shared/redact.js';
import type { SessionMessage } from '../shared/session.js';
import type { SessionTask } from '../shared/delegation.js';
import { CardBook, type CardRejection } from './cards/card-book.js';
import { GrantBook, type GrantHolder } from './cards/grant-book.js';
import { FAILURE_TYPES } from '../shared/workflow-contract/failures.js';
import type { Grant } from '../shared/policy-contract.js';
import { CardEdits } from './cards/card-edits.js';
import {
  CARRIED_DECIDED_CARDS,
  CARRIED_DENIED_CALLS,
  CARRIED_EVENTS,
  type CarriedState,
} from './continue-as-new/carried-state.js';
import type { PlannedCall } from './tool-calls.js';
import { summarizeEntry } from './transcript-summary.js';

export class DelegationRun {
  readonly transcript: TranscriptEntry[];
  private readonly cards = new CardBook();
  /** What a person allowed for the rest of this delegation. */
  readonly grants: GrantBook;
  /** Where its grants sit: a session sets `session`; a Task child is `child`. */
  grantHolder: GrantHolder;
  /** Told of a grant for the rest of the session approved on this child's card. */
  onSessionGrant: ((grant: Grant) => void) | null = null;
  /** The calls behind pending cards, for approvals with edited arguments. */
  private readonly edits = new CardEdits();
  /** The agent as resolved; a continued run starts with the one it carried. */
  private resolvedAgent: ResolvedAgent | null;
  private readonly firstRun: boolean;
  private readonly events: DelegationEvent[];
  private readonly denied: DeniedCall[];
  private currentStatus: DelegationStatus = 'running';
  private rounds: number;
  private maxTurns: number;
  private model: string | null;
  private definitionHash: string | null;
  private result: DelegationResult | null = null;
  private cardSequence: number;
  private nextEventSeq: number;
  private readonly previousRuns: number;
  private usage: UsageTotals;
  /** The last model call's input tokens and context window, for compaction. */
  private lastCall: { inputTokens?: number; contextTokens?: number } = {};
  /** Deadlines new cards get (card-deadlines.ts); null: they wait as long as it takes. */
  private cardDeadlines: CardDeadlines | null = null;

  constructor(
    private readonly input: DelegationInput,
    private readonly workflowId: string,
    carried?: CarriedState,
    /** What the transcript starts with: the task; a session starts empty (messages follow). */
    opening: TranscriptEntry[] = [{ role: 'user', content: input.task }],
  ) {
    this.firstRun = !carried;
    this.cards.restore(carried?.decidedCards ?? []);
    this.grants = new GrantBook(carried?.grants, carried?.sessionGrants ?? input.sessionGrants);
    this.grantHolder = input.parent === undefined ? 'delegation' : 'child';
    this.events = carried?.events ?? [];
    this.denied = carried?.deniedCalls ?? [];
    this.transcript = carried?.transcript ?? input.fork?.transcript ?? opening;
    // A resumed delegation is a new run with its own turns; a fork counts on.
    this.rounds = carried?.roundsUsed ?? (input.fork?.resumed ? 0 : input.fork?.fromRound) ?? 0;
    this.resolvedAgent = carried?.resolved ?? null;
    this.maxTurns = carried?.resolved.snapshot.limits.maxTurns ?? 0;
    this.model = carried?.resolved.snapshot.model ?? null;
    this.definitionHash = carried?.resolved.snapshot.definitionHash ?? null;
    this.cardSequence = carried?.cardSequence ?? 0;
    this.nextEventSeq = carried?.nextEventSeq ?? 1;
    this.previousRuns = carried?.previousRuns ?? 0;
    this.usage = carried?.usage ?? emptyUsage();
  }

  get resolved(): ResolvedAgent | null {
    return this.resolvedAgent;
  }

  /** Who this run is, as notifications name it. */
  identity(): { delegationId: string; workflowId: string; agent: string; session: string } {
    return {
      delegationId: this.input.delegationId,
      workflowId: this.workflowId,
      agent: this.input.agent,
      session: this.input.session,
    };
  }

  get status(): DelegationStatus {
    return this.currentStatus;
  }

  get roundsUsed(): number {
    return this.rounds;
  }

  /** What the `state` query answers. */
  state(): DelegationState {
    return {
      delegationId: this.input.delegationId,
      workflowId: this.workflowId,
      agent: this.input.agent,
      session: this.input.session,
      status: this.currentStatus,
      roundsUsed: this.rounds,
      maxTurns: this.maxTurns,
      model: this.model,
      definitionHash: this.definitionHash,
      pendingCards: this.cards.pending(),
      decidedCards: this.cards.decided(),
      transcriptSummary: this.transcript.map(summarizeEntry),
      deniedCalls: [...this.denied],
      usage: this.usageTotals(),
      ...grantsField(this.grants.all()),
      ...(this.resolvedAgent === null
        ? {}
        : {
            permission: permissionInEffect(this.resolvedAgent.snapshot),
            sandbox: this.resolvedAgent.snapshot.sandbox ?? null,
          }),
      result: this.result,
    };
  }

  /** What the `events` query answers: every event after `afterSeq`. */
  eventsAfter(afterSeq: number): DelegationEvent[] {
    return this.events.filter((event) => event.seq > afterSeq);
  }

  /** The snapshot this run works with; only a delegation's first run records `started`. */
  recordResolved(resolved: ResolvedAgent, cardDeadlines: CardDeadlines | null = null): void {
    const { snapshot } = resolved;
    this.resolvedAgent = resolved;
    this.cardDeadlines = cardDeadlines;
    this.model = snapshot.model;
    this.definitionHash = snapshot.definitionHash;
    this.maxTurns = snapshot.limits.maxTurns;
    if (this.firstRun)
      this.emit({ type: 'started', agent: snapshot.agentName, model: snapshot.model });
  }

  recordModelTurn(turn: ModelTurn): void {
    this.rounds += 1;
    this.usage = addUsage(this.usage, {
      ...(turn.usage ?? { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }),
      modelCalls: 1,
      modelCallsWithoutUsage: turn.usage === undefined ? 1 : 0,
    });
    this.lastCall = {
      ...(turn.usage === undefined ? {} : { inputTokens: turn.usage.inputTokens }),
      ...(turn.contextTokens === undefined ? {} : { contextTokens: turn.contextTokens }),
    };
    // The adapter's own label says what really answered ("... (scripted model)").
    this.model = turn.modelLabel;
    this.transcript.push({ role: 'assistant', content: turn.text, toolCalls: turn.toolCalls });
    this.emit({
      type: 'model-turn',
      round: this.rounds,
      text: turn.text,
      toolCalls: turn.toolCalls.map((call) => call.name),
    });
  }

  /** The last model call's input tokens and the model's context window, when known. */
  lastModelCall(): { inputTokens?: number; contextTokens?: number } {
    return { ...this.lastCall };
  }

  /**
   * Replaces transcript entries `[from, to)` by `entry` (compaction.ts), counts the
   * summary call (`usage` null: it ran but reported none; undefined: no summary was written),
   * and announces it.
   */
  recordCompaction(
    range: { from: number; to: number },
    entry: TranscriptEntry,
    report: Omit<CompactionReport, 'round' | 'tokensAfter'>,
    usage?: TokenUsage | null,
  ): void {
    this.transcript.splice(range.from, range.to - range.from, entry);
    if (usage !== undefined) {
      this.usage = addUsage(this.usage, {
        ...(usage ?? { inputTokens: 0, outputTokens: 0, cachedInputTokens: 0 }),
        modelCalls: 1,
        modelCallsWithoutUsage: usage === null ? 1 : 0,
      });
    }
    this.emit({
      type: 'compacted',
      ...report,
      round: this.rounds,
      tokensAfter: estimatedTokens(this.transcript),
    });
  }

  /** True once `maxTurns` rounds ran since round `since` (a session counts per message). */
  outOfTurns(since = 0): boolean {
    return this.rounds - since >= this.maxTurns;
  }

  /**
   * Opens the approval card of a call policy answered with `ask`. `planned`: the planned call,
   * for an approval with `allow: 'delegation'` or with edited arguments.
   */
  openCard(call: ToolCallRequest, reason: string, planned?: PlannedCall): ApprovalCard {
    this.cardSequence += 1;
    const card: ApprovalCard = {
      id: cardIdFor(this.input.delegationId, this.cardSequence),
      delegationId: this.input.delegationId,
      workflowId: this.workflowId,
      session: this.input.session,
      agent: this.resolvedOrThrow().snapshot.agentName,
      tool: call.name,
      arguments: redactSecrets(call.arguments) as Record<string, unknown>,
      reason,
      openedAt: now(),
      ...this.deadlineFields(),
      state: { status: 'pending' },
    };
    this.cards.open(card);
    if (planned?.scope !== undefined) this.grants.remember(card.id, planned.scope);
    if (planned !== undefined) this.edits.remember(card.id, planned);
    this.emit({ type: 'card-opened', card });
    return card;
  }

  /** A new card's deadline and reminder, from the workflow clock. */
  private deadlineFields(): Pick<ApprovalCard, 'deadline' | 'remindAt'> {
    if (this.cardDeadlines === null) return {};
    const { timeoutMs, reminderMs } = this.cardDeadlines;
    const deadline = Date.now() + timeoutMs;
    return {
      deadline: new Date(deadline).toISOString(),
      ...(reminderMs === undefined
        ? {}
        : { remindAt: new Date(deadline - reminderMs).toISOString() }),
    };
  }

  /**
   * The earliest deadline of the pending cards, for ops (the memo's `earliestCardDeadline`):
   * null when none has one, undefined when this run gives its cards no deadlines.
   */
  earliestCardDeadline(): string | null | undefined {
    if (this.cardDeadlines === null) return undefined;
    const deadlines = this.cards.pending().flatMap((card) => card.deadline ?? []);
    return deadlines.length === 0 ? null : deadlines.sort()[0]!;
  }

  /** What a card becomes when its deadline passes. */
  cardTimeoutOutcome(): CardDeadlines['outcome'] {
    return this.cardDeadlines?.outcome ?? 'deny';
  }

  /** A pending card's reminder: recorded on the card and in the stream, once. */
  remindCard(card: ApprovalCard): void {
    card.remindedAt = now();
    this.emit({ type: 'card-reminder', card: { ...card } });
  }

  pendingCards(): ApprovalCard[] {
    return this.cards.pending();
  }

  hasPendingCards(): boolean {
    return this.cards.pending().length > 0;
  }

  /** Why a decision cannot apply, or null when it can (the update's validator). */
  cardRejection(decision: CardDecision): CardRejection | null {
    return (
      this.cards.rejectionOf(decision) ??
      this.sessionGrantRejection(decision) ??
      this.edits.rejectionOf(decision, this.resolvedAgent)
    );
  }

  /** `allow: 'session'` needs a session: a delegation outside one has none to allow it for. */
  private sessionGrantRejection(decision: CardDecision): CardRejection | null {
    if (decision.allow !== 'session' || this.grantHolder !== 'delegation') return null;
    return {
      type: FAILURE_TYPES.cardDecisionInvalid,
      message: `card ${decision.cardId}'s delegation is not in a session (session '${this.input.session}' is no session workflow), so allow: 'session' has no session to allow for; use allow: 'delegation'`,
    };
  }

  /** Applies a decision to a pending card; returns the card, or null when it does not apply. */
  decideCard(decision: CardDecision, expired = false): ApprovalCard | null {
    if (this.cardRejection(decision) !== null) return null;
    const at = now();
    const recorded = this.grants.record(decision, at, this.grantHolder);
    const grant = recorded.n;
    const editedArguments = this.edits.settle(decision);
    const card = this.cards.apply(decision, at, expired, {
      ...(grant === undefined ? {} : { grant }),
      ...(editedArguments === undefined ? {} : { editedArguments }),
    });
    if (card) this.emit({ type: 'card-decided', card });
    if (card && recorded.forSession !== undefined) this.onSessionGrant?.(recorded.forSession);
    return card;
  }

  park(): void {
    this.currentStatus = 'parked';
  }

  /** A session between messages: nothing to do until the next one arrives. */
  rest(): void {
    this.currentStatus = 'idle';
  }

  /** A session takes up a user message: it joins the transcript and the stream. */
  recordMessage(message: SessionMessage): void {
    this.currentStatus = 'running';
    this.transcript.push({ role: 'user', content: message.text });
    this.emit({ type: 'message', text: message.text, from: message.from });
  }

  /** A session's answer to the message it worked on. */
  recordReply(text: string): void {
    this.emit({ type: 'reply', text, roundsUsed: this.rounds });
  }

  /** A session's child started or finished. */
  recordTask(type: 'task-started' | 'task-finished', task: SessionTask): void {
    this.emit({ type, task: { ...task } });
  }

  /** A child's card, on the session's stream: the card names the child and its agent. */
  recordChildCard(type: 'card-opened' | 'card-decided', card: ApprovalCard): void {
    this.emit({ type, card });
  }

  resume(): void {
    this.currentStatus = 'running';
  }

  recordToolResult(item: PlannedCall, outcome: ToolOutcome): void {
    const denial = deniedBy(item);
    if (denial) this.denied.push({ tool: item.call.name, ...denial });
    this.transcript.push({
      role: 'tool',
      toolCallId: item.call.id,
      toolName: item.call.name,
      content: outcome.content,
      isError: outcome.isError,
      ...(outcome.blob ? { blob: outcome.blob } : {}),
    });
    this.emit({
      type: 'tool-call',
      tool: item.call.name,
      verdict: verdictLabel(item),
      summary: outcome.content.slice(0, 200),
      arguments: argumentsPreview(item.call.arguments),
    });
  }

  /** The model answered without asking for a tool. */
  completedWith(text: string): DelegationResult {
    return { status: 'completed', text, notice: null, ...this.tally() };
  }

  /** The model asked for more tools, but the run has no turn left to show it their results. */
  cutAtMaxTurns(turn: ModelTurn): DelegationResult {
    const skipped = turn.toolCalls.map((call) => call.name).join(', ');
    return this.endedEarly(
      'completed',
      `Stopped at maxTurns (${this.maxTurns}) before finishing; the requested call(s) ${skipped} were not run.`,
    );
  }

  /** A result that ends the run before the model's final answer: its last answer so far. */
  endedEarly(status: DelegationResult['status'], notice: string): DelegationResult {
    return { status, text: this.latestText(), notice, ...this.tally() };
  }

  finish(result: DelegationResult): void {
    this.result = result;
    this.emit({ type: 'finished', result });
    this.currentStatus = result.status;
  }

  /** What the next run continues from (continue-as-new). */
  carryOver(): CarriedState {
    return {
      resolved: this.resolvedOrThrow(),
      transcript: this.transcript,
      roundsUsed: this.rounds,
      cardSequence: this.cardSequence,
      decidedCards: this.cards.decided().slice(-CARRIED_DECIDED_CARDS),
      events: this.events.slice(-CARRIED_EVENTS),
      nextEventSeq: this.nextEventSeq,
      previousRuns: this.previousRuns + 1,
      deniedCalls: this.denied.slice(-CARRIED_DENIED_CALLS),
      usage: this.usageTotals(),
      ...grantsField(this.grants.all()),
      ...sessionGrantsField(this.grants.heldForSession()),
    };
  }

  /** What every result reports besides its text: rounds used and calls denied. */
  private tally(): Pick<DelegationResult, 'roundsUsed' | 'deniedCalls' | 'usage'> {
    return { roundsUsed: this.rounds, deniedCalls: [...this.denied], usage: this.usageTotals() };
  }

  /** The token totals so far (a copy). */
  usageTotals(): UsageTotals {
    return { ...this.usage };
  }

  /** Input and output tokens of every model call so far. */
  tokensUsed(): number {
    return this.usage.inputTokens + this.usage.outputTokens;
  }

  /** The token budget was used up before the next model call could be made. */
  cutAtTokenBudget(maxTokens: number): DelegationResult {
    return this.endedEarly(
      'completed',
      `Stopped at the token budget (maxTokens ${maxTokens}) before model round ${this.rounds + 1}: ${this.tokensUsed()} tokens used.`,
    );
  }

  private resolvedOrThrow(): ResolvedAgent {
    if (!this.resolvedAgent) throw new Error('the delegation is not resolved yet');
    return this.resolvedAgent;
  }

  /** The latest answer text so far (what a session's TaskOutput shows of a running child). */
  latestText(): string {
    for (let index = this.transcript.length - 1; index >= 0; index--) {
      const entry = this.transcript[index]!;
      if (entry.role === 'assistant' && entry.content.trim()) return entry.content;
    }
    return '';
  }

  private emit(event: DistributiveOmit<DelegationEvent, 'seq' | 'at'>): void {
    this.events.push({ ...event, seq: this.nextEventSeq++, at: now() } as DelegationEvent);
  }
}

/** Who refused a settled call, and why; null when it ran (or failed on its own). */
function deniedBy(item: PlannedCall): Omit<DeniedCall, 'tool'> | null {
  if (item.card?.state.status === 'denied') {
    return { by: item.card.state.expired ? 'deadline' : 'human', reason: item.card.state.reason };
  }
  if (!item.card && item.verdict.kind === 'deny')
    return { by: 'policy', reason: item.verdict.reason };
  return null;
}

/** `allow`, `deny`, `ask:approved`, ...; `allow:grant-2` when a grant allowed it. */
function verdictLabel(item: PlannedCall): string {
  if (item.card) return `ask:${item.card.state.status}`;
  const { verdict } = item;
  return verdict.kind === 'allow' && verdict.grant !== undefined
    ? `allow:grant-${verdict.grant}`
    : verdict.kind;
}

/** Grants travel and show only when there are any: states and hand-overs stay as they were. */
function sessionGrantsField(sessionGrants: Grant[]): { sessionGrants?: Grant[] } {
  return sessionGrants.length === 0 ? {} : { sessionGrants };
}

function grantsField(grants: Grant[]): { grants?: Grant[] } {
  return grants.length === 0 ? {} : { grants };
}

function now(): string {
  return new Date().toISOString();
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

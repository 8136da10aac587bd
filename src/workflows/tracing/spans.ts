/**
 * deputy's own spans in the workflow: one per tool call a model turn asks for (its
 * verdict, its card), and one per wait on a card (opened to decided, and by whom). Sandbox code.
 *
 * They are made only in a traced worker's bundle, whose interceptors (./interceptors.ts) turn
 * them on; elsewhere every function here returns at once. Like Temporal's own workflow spans
 * their ids come from the workflow's seeded random numbers and their times from workflow time,
 * so a worker that replays a run after a crash makes the same spans: a wait on a card that
 * began before a SIGKILL ends, with the same id and parent, on the worker that took over.
 * Nothing here records commands, so traced and untraced workers replay each other's runs.
 */
import { context, SpanStatusCode, trace, type Span, type Tracer } from '@opentelemetry/api';
import type { ToolOutcome } from '../../shared/workflow-contract/activities.js';
import type { PlannedCall } from '../tool-calls.js';

let tracer: Tracer | null = null;

/** Called by the tracing interceptors: from then on this bundle's workflows make spans. */
export function enableWorkflowSpans(): void {
  tracer ??= trace.getTracer('deputy');
}

/** The spans of one round's tool calls; every method does nothing when tracing is off. */
export interface RoundSpans {
  /** The call's card was opened: its wait begins, under the call's span. */
  cardOpened(item: PlannedCall): void;
  /** The round's cards are settled: each wait ends at its card's decision. */
  cardsSettled(items: readonly PlannedCall[]): void;
  /** Runs the call under its span, so the activity it schedules is the span's child. */
  within<T>(item: PlannedCall, run: () => Promise<T>): Promise<T>;
  /** The call's result is in: its span ends. */
  callDone(item: PlannedCall, outcome: ToolOutcome): void;
  /** The round ended without finishing (a stop, a failure): what is open ends with the reason. */
  abandon(error: unknown): void;
}

const NO_SPANS: RoundSpans = {
  cardOpened() {},
  cardsSettled() {},
  within: (_item, run) => run(),
  callDone() {},
  abandon() {},
};

/** Starts a span per planned call, as children of the workflow's span. */
export function roundSpans(planned: readonly PlannedCall[]): RoundSpans {
  if (tracer === null) return NO_SPANS;
  const active = tracer;
  const calls = new Map<PlannedCall, Span>();
  const waits = new Map<PlannedCall, Span>();
  for (const item of planned) {
    calls.set(
      item,
      active.startSpan(`execute_tool ${item.call.name}`, {
        attributes: {
          'gen_ai.operation.name': 'execute_tool',
          'gen_ai.tool.name': item.call.name,
          'gen_ai.tool.call.id': item.call.id,
          'deputy.tool.verdict': item.invalid === undefined ? item.verdict.kind : 'invalid',
        },
      }),
    );
  }
  return {
    cardOpened(item) {
      const call = calls.get(item);
      if (call === undefined || item.card === null) return;
      call.setAttribute('deputy.card.id', item.card.id);
      const parent = trace.setSpan(context.active(), call);
      waits.set(
        item,
        active.startSpan(
          `await approval ${item.call.name}`,
          { attributes: { 'deputy.card.id': item.card.id, 'deputy.card.tool': item.call.name } },
          parent,
        ),
      );
    },
    cardsSettled(items) {
      for (const item of items) {
        const wait = waits.get(item);
        const state = item.card?.state;
        if (wait === undefined || state === undefined || state.status === 'pending') continue;
        wait.setAttributes({
          'deputy.card.decision': state.status,
          'deputy.card.decided_by': state.decidedBy ?? 'anonymous',
          ...(state.expired === true ? { 'deputy.card.expired': true } : {}),
        });
        wait.end(new Date(state.decidedAt));
        waits.delete(item);
      }
    },
    within(item, run) {
      const call = calls.get(item);
      if (call === undefined) return run();
      return context.with(trace.setSpan(context.active(), call), run);
    },
    callDone(item, outcome) {
      const call = calls.get(item);
      if (call === undefined) return;
      const status = item.card?.state.status;
      const denied = item.verdict.kind === 'deny' || status === 'denied';
      call.setAttribute(
        'deputy.tool.outcome',
        denied ? 'denied' : status === 'answered' ? 'answered' : outcome.isError ? 'error' : 'ok',
      );
      if (outcome.isError && !denied) call.setStatus({ code: SpanStatusCode.ERROR });
      call.end();
      calls.delete(item);
    },
    abandon(error) {
      const message = error instanceof Error ? error.message : String(error);
      for (const span of [...waits.values(), ...calls.values()]) {
        span.setStatus({ code: SpanStatusCode.ERROR, message });
        span.end();
      }
      waits.clear();
      calls.clear();
    },
  };
}

/**
 * The workflow interceptors of a traced worker. Sandbox code, bundled only into a
 * traced worker's workflows (src/tracing/worker-tracing.ts); an untraced worker's bundle has none
 * of it.
 *
 * They make the spans Temporal's OpenTelemetry workflow interceptors make, under the same names and
 * with the same parents (the run's span under the starter's, from the start's headers; a span for
 * each child started, signal sent, signal and update handled; the context carried to activities
 * and children in Temporal's trace header), and turn deputy's own spans (./spans.ts) on. What
 * differs is the tracer: ./run-tracer.ts, on `@opentelemetry/api` alone, where Temporal's loads
 * OpenTelemetry's SDK into every run's sandbox; and the span around a call: ./instrument.ts, which
 * adds no async frame to every stack of the run. The context of async code is Temporal's own
 * workflow context manager (AsyncLocalStorage), and the helpers that carry the context in headers
 * are Temporal's, so what the worker side reads is unchanged.
 */
import { context, propagation, trace } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core/build/src/trace/W3CTraceContextPropagator.js';
import {
  extractContextFromHeaders,
  headersWithContext,
  UPDATE_ID_ATTR_KEY,
} from '@temporalio/interceptors-opentelemetry/lib/instrumentation.js';
import { ContextManager } from '@temporalio/interceptors-opentelemetry/lib/workflow/context-manager.js';
import {
  ContinueAsNew,
  workflowInfo,
  type ActivityInput,
  type ContinueAsNewInput,
  type DisposeInput,
  type GetLogAttributesInput,
  type LocalActivityInput,
  type Next,
  type SignalInput,
  type SignalWorkflowInput,
  type StartChildWorkflowExecutionInput,
  type UpdateInput,
  type WorkflowExecuteInput,
  type WorkflowInboundCallsInterceptor,
  type WorkflowInterceptors,
  type WorkflowInternalsInterceptor,
  type WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import { RunTracer } from './run-tracer.js';
import { instrument } from './instrument.js';
import { enableWorkflowSpans } from './spans.js';

const isContinueAsNew = (error: unknown) => error instanceof ContinueAsNew;

/** The call's input with the active trace context added to its headers. */
const carried = <T extends { headers: ActivityInput['headers'] }>(input: T): T => ({
  ...input,
  headers: headersWithContext(input.headers),
});

/**
 * No span for a query or an update's validation. Neither is in the history, so a span for one
 * would draw span ids from the workflow's random numbers on one worker and not on the one that
 * replays the run: every later span id would differ between them. And queries are how the API and
 * the console read a delegation, many times a minute: spans that change nothing would bury the
 * ones that do.
 */
class TracingInbound implements WorkflowInboundCallsInterceptor {
  constructor(private readonly tracer: RunTracer) {}

  execute(
    input: WorkflowExecuteInput,
    next: Next<WorkflowInboundCallsInterceptor, 'execute'>,
  ): Promise<unknown> {
    return instrument({
      tracer: this.tracer,
      spanName: `RunWorkflow:${workflowInfo().workflowType}`,
      fn: () => next(input),
      context: extractContextFromHeaders(input.headers),
      acceptableErrors: isContinueAsNew,
    });
  }

  handleSignal(
    input: SignalInput,
    next: Next<WorkflowInboundCallsInterceptor, 'handleSignal'>,
  ): Promise<void> {
    return instrument({
      tracer: this.tracer,
      spanName: `HandleSignal:${input.signalName}`,
      fn: () => next(input),
      context: extractContextFromHeaders(input.headers),
    });
  }

  handleUpdate(
    input: UpdateInput,
    next: Next<WorkflowInboundCallsInterceptor, 'handleUpdate'>,
  ): Promise<unknown> {
    return instrument({
      tracer: this.tracer,
      spanName: `HandleUpdate:${input.name}`,
      fn: (span) => {
        span.setAttribute(UPDATE_ID_ATTR_KEY, input.updateId);
        return next(input);
      },
      context: extractContextFromHeaders(input.headers),
    });
  }
}

/**
 * No `StartActivity` span: the activity's context goes in its headers, and the worker's
 * `RunActivity` span (the activity's run) is the child of the workflow's span that scheduled it.
 * A span per scheduled activity doubled the spans of every step and was most of what tracing
 * cost a step before this tracer (the trace-cost bench: 1.19x with them, 1.12x without); the
 * queue wait it showed is the gap before its `RunActivity`.
 */
class TracingOutbound implements WorkflowOutboundCallsInterceptor {
  constructor(private readonly tracer: RunTracer) {}

  scheduleActivity(
    input: ActivityInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>,
  ): Promise<unknown> {
    return next(carried(input));
  }

  scheduleLocalActivity(
    input: LocalActivityInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>,
  ): Promise<unknown> {
    return next(carried(input));
  }

  startChildWorkflowExecution(
    input: StartChildWorkflowExecutionInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'startChildWorkflowExecution'>,
  ): Promise<[Promise<string>, Promise<unknown>]> {
    return instrument({
      tracer: this.tracer,
      spanName: `StartChildWorkflow:${input.workflowType}`,
      fn: () => next(carried(input)),
    });
  }

  continueAsNew(
    input: ContinueAsNewInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'continueAsNew'>,
  ): Promise<never> {
    return instrument({
      tracer: this.tracer,
      spanName: `ContinueAsNew:${input.options.workflowType}`,
      fn: () => next(carried(input)),
      acceptableErrors: isContinueAsNew,
    });
  }

  signalWorkflow(
    input: SignalWorkflowInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'signalWorkflow'>,
  ): Promise<void> {
    return instrument({
      tracer: this.tracer,
      spanName: `SignalWorkflow:${input.signalName}`,
      fn: () => next(carried(input)),
    });
  }

  /** The workflow's log lines carry the trace and span they were written under. */
  getLogAttributes(
    input: GetLogAttributesInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'getLogAttributes'>,
  ): Record<string, unknown> {
    const span = trace.getSpan(context.active())?.spanContext();
    if (span === undefined) return next(input);
    return next({
      trace_id: span.traceId,
      span_id: span.spanId,
      trace_flags: `0${span.traceFlags.toString(16)}`,
      ...input,
    });
  }
}

class TracingInternals implements WorkflowInternalsInterceptor {
  constructor(private readonly contextManager: ContextManager) {}

  dispose(input: DisposeInput, next: Next<WorkflowInternalsInterceptor, 'dispose'>): void {
    this.contextManager.disable();
    next(input);
  }
}

/** Called once per run: each run has its own sandbox globals, so its own registrations. */
export const interceptors = (): WorkflowInterceptors => {
  const contextManager = new ContextManager();
  context.setGlobalContextManager(contextManager);
  propagation.setGlobalPropagator(new W3CTraceContextPropagator());
  const tracer = new RunTracer();
  trace.setGlobalTracerProvider({ getTracer: () => tracer });
  enableWorkflowSpans();
  return {
    inbound: [new TracingInbound(tracer)],
    outbound: [new TracingOutbound(tracer)],
    internals: [new TracingInternals(contextManager)],
  };
};

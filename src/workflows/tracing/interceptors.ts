/**
 * The workflow interceptors of a traced worker (issue 32): Temporal's OpenTelemetry ones, which
 * open a span for the run (its parent the starter's span, from the start's headers), for each
 * child and signal, and carry the context to activities and children in headers; and
 * deputy's own spans (./spans.ts) turned on. Bundled only into a traced worker's workflows
 * (src/tracing/worker-tracing.ts); an untraced worker's bundle has none of it. Sandbox code.
 */
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import { headersWithContext } from '@temporalio/interceptors-opentelemetry/lib/instrumentation.js';
import type {
  ActivityInput,
  LocalActivityInput,
  Next,
  QueryInput,
  UpdateInput,
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptors,
  WorkflowOutboundCallsInterceptor,
} from '@temporalio/workflow';
import { enableWorkflowSpans } from './spans.js';

/**
 * No span for a query or an update's validation. Neither is in the history, so a span for one
 * would draw span ids from the workflow's random numbers on one worker and not on the one that
 * replays the run: every later span id (and the run's own Task ids) would differ between them.
 * And queries are how the API and the console read a delegation, many times a minute: spans
 * that change nothing would bury the ones that do.
 */
class DeputyInboundInterceptor extends OpenTelemetryInboundInterceptor {
  override handleQuery(
    input: QueryInput,
    next: Next<WorkflowInboundCallsInterceptor, 'handleQuery'>,
  ): Promise<unknown> {
    return next(input);
  }

  override validateUpdate(
    input: UpdateInput,
    next: Next<WorkflowInboundCallsInterceptor, 'validateUpdate'>,
  ): void {
    next(input);
  }
}

/**
 * No `StartActivity` span: the activity's context goes in its headers as Temporal's interceptor
 * sends it, and the worker's `RunActivity` span (the activity's run) is the workflow span's child.
 * A span per scheduled activity doubled the spans of every step, and was most of what tracing
 * cost a step (the trace-cost bench: 1.19x with them, 1.12x without); the queue wait it showed
 * is the gap before its `RunActivity`.
 */
class DeputyOutboundInterceptor extends OpenTelemetryOutboundInterceptor {
  override scheduleActivity(
    input: ActivityInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'scheduleActivity'>,
  ): Promise<unknown> {
    return next({ ...input, headers: headersWithContext(input.headers) });
  }

  override scheduleLocalActivity(
    input: LocalActivityInput,
    next: Next<WorkflowOutboundCallsInterceptor, 'scheduleLocalActivity'>,
  ): Promise<unknown> {
    return next({ ...input, headers: headersWithContext(input.headers) });
  }
}

export const interceptors = (): WorkflowInterceptors => {
  enableWorkflowSpans();
  return {
    inbound: [new DeputyInboundInterceptor()],
    outbound: [new DeputyOutboundInterceptor()],
    internals: [new OpenTelemetryInternalsInterceptor()],
  };
};

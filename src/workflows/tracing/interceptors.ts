/**
 * The workflow interceptors of a traced worker (issue 32): Temporal's OpenTelemetry ones, which
 * open a span for the run (its parent the starter's span, from the start's headers), for each
 * activity, child and signal, and carry the context to activities and children in headers; and
 * deputy's own spans (./spans.ts) turned on. Bundled only into a traced worker's workflows
 * (src/tracing/worker-tracing.ts); an untraced worker's bundle has none of it. Sandbox code.
 */
import {
  OpenTelemetryInboundInterceptor,
  OpenTelemetryInternalsInterceptor,
  OpenTelemetryOutboundInterceptor,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/index.js';
import type {
  Next,
  QueryInput,
  UpdateInput,
  WorkflowInboundCallsInterceptor,
  WorkflowInterceptors,
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

export const interceptors = (): WorkflowInterceptors => {
  enableWorkflowSpans();
  return {
    inbound: [new DeputyInboundInterceptor()],
    outbound: [new OpenTelemetryOutboundInterceptor()],
    internals: [new OpenTelemetryInternalsInterceptor()],
  };
};

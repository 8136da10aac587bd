/**
 * A call under a span of its own, as Temporal's `instrument` helper makes it (same status, same
 * exception event, a ContinueAsNew or other acceptable error ends it OK), without async functions.
 * Sandbox code.
 *
 * Why not Temporal's: it nests three async functions around the call, and the one around a run's
 * `execute` holds the whole run. Every promise a workflow creates has its stack captured and
 * formatted by the SDK's promise hook (for the stack-trace query), and V8 appends the frames of
 * each awaiting async function to that stack: the traced run paid for three more frames on every
 * promise of every step. `.then` adds no frame.
 */
import {
  context,
  SpanStatusCode,
  trace,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';

export interface Instrumented<T> {
  tracer: Tracer;
  spanName: string;
  fn: (span: Span) => T | Promise<T>;
  /** The parent; the active context when absent. */
  context?: Context;
  /** Errors that end the call but not in failure (a ContinueAsNew). */
  acceptableErrors?: (error: unknown) => boolean;
}

export function instrument<T>(call: Instrumented<T>): Promise<T> {
  const parent = call.context ?? context.active();
  const span = call.tracer.startSpan(call.spanName, {}, parent);
  let result: T | Promise<T>;
  try {
    result = context.with(trace.setSpan(parent, span), call.fn, undefined, span);
  } catch (error) {
    result = Promise.reject(error); // a synchronous throw ends the span as a rejection does
  }
  return Promise.resolve(result).then(
    (value) => {
      span.setStatus({ code: SpanStatusCode.OK });
      span.end();
      return value;
    },
    (error: unknown) => {
      endInError(span, error, call.acceptableErrors);
      throw error;
    },
  );
}

function endInError(
  span: Span,
  error: unknown,
  acceptable: ((error: unknown) => boolean) | undefined,
): void {
  if (acceptable?.(error) === true) {
    span.setStatus({ code: SpanStatusCode.OK });
  } else {
    const benign =
      error instanceof ApplicationFailure && error.category === ApplicationFailureCategory.BENIGN;
    const said = (error as { message?: unknown } | null | undefined)?.message;
    const message = typeof said === 'string' ? said : String(error);
    span.setStatus({ code: benign ? SpanStatusCode.UNSET : SpanStatusCode.ERROR, message });
    span.recordException(error as Error);
  }
  span.end();
}

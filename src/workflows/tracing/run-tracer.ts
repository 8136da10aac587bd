/**
 * The tracer of a traced worker's workflows, on `@opentelemetry/api` alone. Sandbox code.
 *
 * Temporal's workflow interceptors make their spans with OpenTelemetry's SDK, and the sandbox gives
 * every run its own module cache: each run evaluated the SDK again (its tracer provider, its
 * resources, its semantic conventions' constant maps), and each span went through the SDK's
 * attribute sanitising and processor chain on the way to the sink. That was most of what tracing
 * cost a step (docs/performance.md). A span here is a plain record: ids from the workflow's seeded
 * random numbers (one hex digit a draw, as the SDK's browser id generator, so a replay makes the
 * same ids), times from workflow time, and on `end` one call of Temporal's exporter sink (which
 * the worker turns back into SDK spans and batches over OTLP, and never calls during replay).
 * Sampling is the SDK default's: a child of an unsampled parent records nothing; the rest record.
 */
import {
  isSpanContextValid,
  SpanKind,
  SpanStatusCode,
  trace,
  TraceFlags,
  context as contexts,
  type Attributes,
  type AttributeValue,
  type Context,
  type Exception,
  type HrTime,
  type Link,
  type Span,
  type SpanContext,
  type SpanOptions,
  type SpanStatus,
  type TimeInput,
  type Tracer,
} from '@opentelemetry/api';
import type {
  OpenTelemetrySinks,
  SerializableSpan,
} from '@temporalio/interceptors-opentelemetry/lib/workflow/definitions.js';
import { proxySinks } from '@temporalio/workflow';

type TimedEvent = SerializableSpan['events'][number];

/** What the spans are named after in the trace store (`otel.scope.name`). */
const SCOPE = { name: 'deputy-workflow' };

export class RunTracer implements Tracer {
  private readonly sink = proxySinks<OpenTelemetrySinks>().exporter;

  startSpan(name: string, options: SpanOptions = {}, parentContext?: Context): Span {
    const context = options.root
      ? trace.deleteSpan(parentContext ?? contexts.active())
      : (parentContext ?? contexts.active());
    const parent = trace.getSpanContext(context);
    const spanId = randomHex(16);
    const isChild = parent !== undefined && isSpanContextValid(parent);
    const traceId = isChild ? parent.traceId : randomHex(32);
    const traceState = isChild ? parent.traceState : undefined;
    if (isChild && (parent.traceFlags & TraceFlags.SAMPLED) === 0) {
      return trace.wrapSpanContext({ traceId, spanId, traceFlags: TraceFlags.NONE, traceState });
    }
    return new RunSpan(
      (span) => this.sink.export([span]),
      name,
      { traceId, spanId, traceFlags: TraceFlags.SAMPLED, ...(traceState ? { traceState } : {}) },
      options.kind ?? SpanKind.INTERNAL,
      isChild ? parent.spanId : undefined,
      hrTime(options.startTime ?? Date.now()),
      options.links ?? [],
      options.attributes ?? {},
    );
  }

  startActiveSpan<F extends (span: Span) => unknown>(name: string, fn: F): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    options: SpanOptions,
    context: Context,
    fn: F,
  ): ReturnType<F>;
  startActiveSpan<F extends (span: Span) => unknown>(
    name: string,
    ...rest: [F] | [SpanOptions, F] | [SpanOptions, Context, F]
  ): ReturnType<F> {
    const fn = rest[rest.length - 1] as F;
    const options = rest.length > 1 ? (rest[0] as SpanOptions) : {};
    const parent = rest.length > 2 ? (rest[1] as Context) : contexts.active();
    const span = this.startSpan(name, options, parent);
    const run = fn as (span: Span) => ReturnType<F>;
    return contexts.with(trace.setSpan(parent, span), run, undefined, span);
  }
}

class RunSpan implements Span {
  private readonly attributes: Attributes = {};
  private readonly events: TimedEvent[] = [];
  private readonly links: Link[];
  private status: SpanStatus = { code: SpanStatusCode.UNSET };
  private endTime: HrTime | null = null;

  constructor(
    private readonly send: (span: SerializableSpan) => void,
    private name: string,
    private readonly context: SpanContext,
    private readonly kind: SpanKind,
    private readonly parentSpanId: string | undefined,
    private readonly startTime: HrTime,
    links: Link[],
    attributes: Attributes,
  ) {
    this.links = [...links];
    this.setAttributes(attributes);
  }

  spanContext(): SpanContext {
    return this.context;
  }

  setAttribute(key: string, value: AttributeValue | undefined): this {
    if (this.endTime === null && value !== undefined && value !== null) {
      this.attributes[key] = value;
    }
    return this;
  }

  setAttributes(attributes: Attributes): this {
    for (const [key, value] of Object.entries(attributes)) this.setAttribute(key, value);
    return this;
  }

  addEvent(name: string, attributesOrTime?: Attributes | TimeInput, time?: TimeInput): this {
    if (this.endTime !== null) return this;
    const attributes = isTimeInput(attributesOrTime) ? {} : (attributesOrTime ?? {});
    const at = isTimeInput(attributesOrTime) ? attributesOrTime : (time ?? Date.now());
    this.events.push({ name, attributes, time: hrTime(at), droppedAttributesCount: 0 });
    return this;
  }

  addLink(link: Link): this {
    this.links.push(link);
    return this;
  }

  addLinks(links: Link[]): this {
    this.links.push(...links);
    return this;
  }

  setStatus(status: SpanStatus): this {
    if (this.endTime === null) this.status = { ...status };
    return this;
  }

  updateName(name: string): this {
    if (this.endTime === null) this.name = name;
    return this;
  }

  end(endTime?: TimeInput): void {
    if (this.endTime !== null) return;
    const end = hrTime(endTime ?? Date.now());
    this.endTime = end;
    const { traceState, ...identity } = this.context;
    this.send({
      name: this.name,
      kind: this.kind,
      spanContext: { ...identity, ...(traceState ? { traceState: traceState.serialize() } : {}) },
      ...(this.parentSpanId === undefined ? {} : { parentSpanId: this.parentSpanId }),
      startTime: this.startTime,
      endTime: end,
      duration: difference(end, this.startTime),
      status: this.status,
      attributes: this.attributes,
      links: this.links,
      events: this.events,
      ended: true,
      droppedAttributesCount: 0,
      droppedEventsCount: 0,
      droppedLinksCount: 0,
      instrumentationLibrary: SCOPE,
    });
  }

  isRecording(): boolean {
    return this.endTime === null;
  }

  recordException(exception: Exception, time?: TimeInput): void {
    const attributes: Attributes =
      typeof exception === 'string'
        ? { 'exception.message': exception }
        : {
            ...(exception.name === undefined ? {} : { 'exception.type': exception.name }),
            ...(exception.message === undefined ? {} : { 'exception.message': exception.message }),
            ...(exception.stack === undefined ? {} : { 'exception.stacktrace': exception.stack }),
          };
    this.addEvent('exception', attributes, time);
  }
}

/** `digits` hex digits, one draw of the workflow's seeded `Math.random` each. */
function randomHex(digits: number): string {
  let id = '';
  for (let index = 0; index < digits; index++) id += Math.floor(Math.random() * 16).toString(16);
  // An all-zero id is invalid in W3C trace context; the SDK makes its last digit 1.
  return /^0+$/.test(id) ? `${id.slice(0, -1)}1` : id;
}

function isTimeInput(value: unknown): value is TimeInput {
  return typeof value === 'number' || value instanceof Date || Array.isArray(value);
}

/** Epoch milliseconds, a Date or an HrTime as an HrTime; workflow time when none is given. */
function hrTime(time: TimeInput): HrTime {
  if (Array.isArray(time)) return time as HrTime;
  const millis = time instanceof Date ? time.getTime() : time;
  const seconds = Math.floor(millis / 1000);
  return [seconds, Math.round((millis - seconds * 1000) * 1e6)];
}

function difference(end: HrTime, start: HrTime): HrTime {
  let seconds = end[0] - start[0];
  let nanos = end[1] - start[1];
  if (nanos < 0) {
    seconds -= 1;
    nanos += 1e9;
  }
  return [seconds, nanos];
}

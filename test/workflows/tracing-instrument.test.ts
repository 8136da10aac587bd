/**
 * The workflow interceptors' `instrument` (src/workflows/tracing/instrument.ts), outside the
 * sandbox: its spans are recorded by OpenTelemetry's own SDK (an in-memory exporter), so what is
 * checked is what a trace store would get, and it is checked against Temporal's helper of the same
 * name, whose spans it must match.
 */
import { context, propagation, SpanStatusCode, trace } from '@opentelemetry/api';
import { InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ApplicationFailure, ApplicationFailureCategory } from '@temporalio/common';
import { instrument as temporalInstrument } from '@temporalio/interceptors-opentelemetry/lib/instrumentation.js';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { instrument } from '../../src/workflows/tracing/instrument.js';

const exporter = new InMemorySpanExporter();
const provider = new NodeTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');

// The context of async code as a traced worker's has it (AsyncLocalStorage).
beforeAll(() => provider.register());
afterAll(async () => {
  await provider.shutdown();
  context.disable();
  trace.disable();
  propagation.disable();
});
beforeEach(() => exporter.reset());

/** What a trace store would show of the one span recorded. */
function recorded() {
  const spans = exporter.getFinishedSpans();
  expect(spans).toHaveLength(1);
  const [span] = spans;
  return {
    name: span!.name,
    status: span!.status,
    events: span!.events.map((event) => ({
      name: event.name,
      message: event.attributes?.['exception.message'],
    })),
  };
}

const helpers = { deputy: instrument, temporal: temporalInstrument } as const;

describe.each(Object.entries(helpers))('instrument (%s)', (_name, helper) => {
  it('ends the span OK with the call, the call active under it', async () => {
    const result = await helper({
      tracer,
      spanName: 'RunWorkflow:x',
      fn: async (span) => {
        await Promise.resolve();
        // Still the active span after an await: what activities scheduled later are parented to.
        expect(trace.getActiveSpan()?.spanContext().spanId).toBe(span.spanContext().spanId);
        return span.spanContext().spanId;
      },
    });
    expect(result).toMatch(/^[0-9a-f]{16}$/);
    expect(recorded()).toEqual({
      name: 'RunWorkflow:x',
      status: { code: SpanStatusCode.OK },
      events: [],
    });
  });

  it('ends it in error with the exception when the call rejects, and rejects the same', async () => {
    const failure = new Error('tool exploded');
    await expect(
      helper({ tracer, spanName: 'a', fn: async () => Promise.reject(failure) }),
    ).rejects.toBe(failure);
    expect(recorded()).toEqual({
      name: 'a',
      status: { code: SpanStatusCode.ERROR, message: 'tool exploded' },
      events: [{ name: 'exception', message: 'tool exploded' }],
    });
  });

  it('ends it OK on an acceptable error (a ContinueAsNew), still rejecting', async () => {
    const carryOn = new Error('continue as new');
    await expect(
      helper({
        tracer,
        spanName: 'b',
        fn: async () => Promise.reject(carryOn),
        acceptableErrors: (error) => error === carryOn,
      }),
    ).rejects.toBe(carryOn);
    expect(recorded()).toEqual({ name: 'b', status: { code: SpanStatusCode.OK }, events: [] });
  });

  it('leaves a benign failure unset, not in error', async () => {
    const benign = ApplicationFailure.create({
      message: 'stopped',
      category: ApplicationFailureCategory.BENIGN,
    });
    await expect(
      helper({ tracer, spanName: 'c', fn: async () => Promise.reject(benign) }),
    ).rejects.toBe(benign);
    expect(recorded()).toMatchObject({
      status: { code: SpanStatusCode.UNSET, message: 'stopped' },
    });
  });
});

describe('instrument (deputy) only', () => {
  it('turns a synchronous throw into a rejection and ends the span in error', async () => {
    const failure = new Error('bad input');
    const result = instrument({
      tracer,
      spanName: 'd',
      fn: () => {
        throw failure;
      },
    });
    await expect(result).rejects.toBe(failure);
    expect(recorded()).toMatchObject({ status: { code: SpanStatusCode.ERROR } });
  });

  it('adds no async frame to the stacks of the code it runs (the reason it exists)', async () => {
    const stackUnder = (helper: (typeof helpers)[keyof typeof helpers]) =>
      helper({
        tracer,
        spanName: 'e',
        fn: async function theRun() {
          await Promise.resolve();
          return new Error('here').stack ?? '';
        },
      });
    // Temporal's helper shows in every stack of the run (the check that this test can fail)...
    expect(await stackUnder(temporalInstrument)).toMatch(/at async (wrapWithSpan|instrument) /);
    // ... deputy's in none.
    expect(await stackUnder(instrument)).not.toMatch(/at (async )?(instrument|wrapWithSpan) /);
  });
});

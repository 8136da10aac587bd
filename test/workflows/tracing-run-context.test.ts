/**
 * The traced run's context manager (src/workflows/tracing/run-context.ts) and deputy's tool-call
 * spans that set its base (src/workflows/tracing/spans.ts), outside the sandbox, recorded by
 * OpenTelemetry's own SDK: what is checked is which span a trace store would see as the parent.
 */
import { context, propagation, ROOT_CONTEXT, trace, type Context } from '@opentelemetry/api';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
} from '@opentelemetry/sdk-trace-base';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { RunContextManager, runContexts } from '../../src/workflows/tracing/run-context.js';
import { enableWorkflowSpans, roundSpans } from '../../src/workflows/tracing/spans.js';
import type { PlannedCall } from '../../src/workflows/tool-calls.js';

const exporter = new InMemorySpanExporter();
const provider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] });
const tracer = provider.getTracer('test');

beforeAll(() => {
  context.setGlobalContextManager(runContexts);
  trace.setGlobalTracerProvider(provider);
  enableWorkflowSpans();
});
afterAll(async () => {
  await provider.shutdown();
  context.disable();
  trace.disable();
  propagation.disable();
});
beforeEach(() => exporter.reset());

const spanIdOf = (active: Context) => trace.getSpanContext(active)?.spanId;
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('RunContextManager', () => {
  it('is the context given to `with` for the synchronous call, and what it was after', () => {
    const manager = new RunContextManager();
    const span = tracer.startSpan('signal');
    const inside = trace.setSpan(ROOT_CONTEXT, span);
    expect(manager.active()).toBe(ROOT_CONTEXT);
    expect(manager.with(inside, () => manager.active())).toBe(inside);
    expect(manager.active()).toBe(ROOT_CONTEXT);
    expect(() =>
      manager.with(inside, () => {
        throw new Error('handler failed');
      }),
    ).toThrow('handler failed');
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it('keeps a base for code after an await until the call settles, and gives it back', async () => {
    const manager = new RunContextManager();
    const run = trace.setSpan(ROOT_CONTEXT, tracer.startSpan('RunWorkflow'));
    const tool = trace.setSpan(run, tracer.startSpan('execute_tool'));
    const seen = await manager.withBase(run, async () => {
      const before = manager.active();
      await tick();
      const afterAwait = manager.active();
      const underTool = await manager.withBase(tool, async () => {
        await tick();
        return manager.active();
      });
      return { before, afterAwait, underTool, afterTool: manager.active() };
    });
    expect(seen).toEqual({ before: run, afterAwait: run, underTool: tool, afterTool: run });
    expect(manager.active()).toBe(ROOT_CONTEXT);

    await expect(
      manager.withBase(tool, async () => {
        await tick();
        throw new Error('tool failed');
      }),
    ).rejects.toThrow('tool failed');
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });

  it("does not undo a later call's base when an earlier one settles", async () => {
    const manager = new RunContextManager();
    const first = trace.setSpan(ROOT_CONTEXT, tracer.startSpan('first'));
    const second = trace.setSpan(ROOT_CONTEXT, tracer.startSpan('second'));
    let finishFirst = () => {};
    const pending = manager.withBase(
      first,
      () => new Promise<void>((resolve) => (finishFirst = resolve)),
    );
    let finishSecond = () => {};
    const later = manager.withBase(
      second,
      () => new Promise<void>((resolve) => (finishSecond = resolve)),
    );
    finishFirst();
    await pending;
    expect(manager.active()).toBe(second);
    finishSecond();
    await later;
    expect(manager.active()).toBe(first); // what the second call found when it began
  });

  it('binds a function to a context', () => {
    const manager = new RunContextManager();
    const inside = trace.setSpan(ROOT_CONTEXT, tracer.startSpan('bound'));
    const bound = manager.bind(
      inside,
      (suffix: string) => `${spanIdOf(manager.active())}${suffix}`,
    );
    expect(bound('!')).toBe(`${spanIdOf(inside)}!`);
    expect(manager.active()).toBe(ROOT_CONTEXT);
  });
});

describe("a tool call's span as the base (roundSpans.within)", () => {
  const planned: PlannedCall = {
    call: { id: 'call-1', name: 'read_file', arguments: { path: 'a.txt' } },
    schema: undefined,
    verdict: { kind: 'allow' },
    card: null,
  };

  it('is the parent of what the call schedules, before and after an await', async () => {
    const run = tracer.startSpan('RunWorkflow:delegation');
    const parents = await runContexts.withBase(trace.setSpan(ROOT_CONTEXT, run), async () => {
      const spans = roundSpans([planned]);
      const seen = await spans.within(planned, async () => {
        const first = spanIdOf(context.active());
        await tick(); // a local read past its budget, run again as an activity
        return { first, fallback: spanIdOf(context.active()) };
      });
      spans.callDone(planned, { content: 'ok', isError: false });
      return { ...seen, afterCall: spanIdOf(context.active()) };
    });
    run.end();
    const toolSpan = exporter
      .getFinishedSpans()
      .find((span) => span.name === 'execute_tool read_file');
    expect(toolSpan?.parentSpanId).toBe(run.spanContext().spanId);
    expect(parents).toEqual({
      first: toolSpan?.spanContext().spanId,
      fallback: toolSpan?.spanContext().spanId,
      afterCall: run.spanContext().spanId,
    });
  });
});

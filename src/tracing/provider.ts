/**
 * The process's tracer provider when tracing is on (src/tracing/settings.ts): OTLP over HTTP,
 * batched, registered globally with an AsyncLocalStorage context so an activity's own spans
 * (the model call's) find the span Temporal's interceptor opened around it. Every package is
 * imported here, on demand: with tracing off none of them is loaded.
 */
import type { Resource } from '@opentelemetry/resources';
import type { SpanProcessor } from '@opentelemetry/sdk-trace-base';
import { tracingSettings, type TracingSettings } from './settings.js';

export interface Tracing {
  /** Where the workflows' spans go too (Temporal's sink hands them to it). */
  processor: SpanProcessor;
  resource: Resource;
  settings: Extract<TracingSettings, { on: true }>;
  /** Sends what is batched now (a worker that stops calls it). */
  flush(): Promise<void>;
}

let processTracing: Promise<Tracing | null> | null = null;
let started: Tracing | null = null;

/** The process's tracing once started, else null: what activities check before making a span. */
export function activeTracing(): Tracing | null {
  return started;
}

/**
 * The process's tracing from OpenTelemetry's environment variables (src/tracing/settings.ts):
 * null when off; a bad value (gRPC, an unknown exporter) rejects with its reason. One provider
 * per process, started by the first caller (`deputy dev` runs the worker and the API in one, and
 * there is one global provider), which also names the service unless OTEL_SERVICE_NAME does.
 */
export function tracingFromEnvironment(
  role: 'worker' | 'api',
  env: NodeJS.ProcessEnv = process.env,
): Promise<Tracing | null> {
  processTracing ??= (async () => {
    const settings = tracingSettings(role, env);
    return settings.on ? startTracing(settings) : null;
  })();
  return processTracing;
}

/**
 * Starts exporting. Spans are sent in batches (`OTEL_BSP_SCHEDULE_DELAY`, 5 s by default): a
 * process killed outright loses what it had not sent yet, as with any batching exporter; a span
 * still open at the kill (a workflow, a wait on a card) is ended and sent by the worker that
 * takes the run over.
 */
async function startTracing(settings: Extract<TracingSettings, { on: true }>): Promise<Tracing> {
  const [{ NodeTracerProvider }, { BatchSpanProcessor }, { Resource }, exporter] =
    await Promise.all([
      import('@opentelemetry/sdk-trace-node'),
      import('@opentelemetry/sdk-trace-base'),
      import('@opentelemetry/resources'),
      settings.protocol === 'http/json'
        ? import('@opentelemetry/exporter-trace-otlp-http')
        : import('@opentelemetry/exporter-trace-otlp-proto'),
    ]);
  // The pid tells spans of a worker that was killed from those of the one that took over.
  const resource = new Resource({
    'service.name': settings.serviceName,
    'process.pid': process.pid,
  });
  // The exporter reads its endpoint, headers, timeout and compression from OTEL_EXPORTER_OTLP_*.
  const processor = new BatchSpanProcessor(new exporter.OTLPTraceExporter());
  const provider = new NodeTracerProvider({ resource, spanProcessors: [processor] });
  provider.register();
  started = {
    processor,
    resource,
    settings,
    flush: () => provider.forceFlush(),
  };
  return started;
}

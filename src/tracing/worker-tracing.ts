/**
 * What a traced worker adds to Temporal's worker options: Temporal's OpenTelemetry
 * interceptor for activities, deputy's for workflows (in the traced bundle, src/workflows/tracing/:
 * Temporal's spans made without OpenTelemetry's SDK in the sandbox), and Temporal's sink through
 * which the workflows' spans leave the sandbox. Untraced workers add
 * nothing: no interceptor, no sink, the bundle without OpenTelemetry in it.
 */
import { join } from 'node:path';
import { trace } from '@opentelemetry/api';
import {
  makeWorkflowExporter,
  OpenTelemetryActivityInboundInterceptor,
  type OpenTelemetrySinks,
} from '@temporalio/interceptors-opentelemetry';
import type { InjectedSinks, WorkerOptions } from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import { PROJECT_ROOT } from '../config/load.js';
import type { Tracing } from './provider.js';

/** The workflows' interceptors: Temporal's spans, minus those deputy leaves out (see the module). */
export const TRACING_INTERCEPTORS_PATH = join(
  PROJECT_ROOT,
  'src',
  'workflows',
  'tracing',
  'interceptors.ts',
);

type WorkerInterceptors = NonNullable<WorkerOptions['interceptors']>;

/**
 * The shared queue's worker: the workflows' interceptors and the activities'. A prebuilt bundle
 * has the workflows' in it already (built with TRACING_INTERCEPTORS_PATH); from source, webpack
 * bundles them in at start.
 */
export function workerInterceptors({ bundled }: { bundled: boolean }): WorkerInterceptors {
  return {
    ...(bundled ? {} : { workflowModules: [TRACING_INTERCEPTORS_PATH] }),
    activity: activityInterceptors(),
  };
}

/**
 * Each activity runs under a span whose parent is the workflow's span that scheduled it. One
 * tracer for all: Temporal's interceptor, made for each activity, would otherwise look its tracer
 * up through OpenTelemetry's global registry (and its version check) every time.
 */
export function activityInterceptors(): NonNullable<WorkerInterceptors['activity']> {
  const tracer = trace.getTracer('@temporalio/interceptor-activity');
  return [(ctx) => ({ inbound: new OpenTelemetryActivityInboundInterceptor(ctx, { tracer }) })];
}

/**
 * The sink the workflows' spans are exported through (never during replay: the worker that ran
 * the task sent them). Temporal's exporter copies the whole WorkflowInfo onto each span, memo
 * and search attributes included, which hold the task's text; only the run's identity is kept.
 */
export function workflowSpanSink(tracing: Tracing): InjectedSinks<OpenTelemetrySinks> {
  const inner = makeWorkflowExporter(tracing.processor, tracing.resource);
  return {
    exporter: {
      export: {
        fn: (info, spans) => inner.export.fn(identityOf(info), spans),
      },
    },
  };
}

function identityOf(info: WorkflowInfo): WorkflowInfo {
  const identity = {
    workflowId: info.workflowId,
    runId: info.runId,
    workflowType: info.workflowType,
    taskQueue: info.taskQueue,
    namespace: info.namespace,
  };
  // Only these keys reach the span (Temporal's sink assigns the object's keys as attributes).
  return identity as unknown as WorkflowInfo;
}

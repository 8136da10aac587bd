/**
 * A traced process's Temporal client: each start and signal gets a span, and the run's
 * spans join the starter's trace through the start's headers. Untraced: nothing, not even loaded.
 */
import type { ClientOptions } from '@temporalio/client';
import { tracingFromEnvironment } from './provider.js';

export async function clientTracing(): Promise<Pick<ClientOptions, 'interceptors'>> {
  if ((await tracingFromEnvironment('api')) === null) return {};
  const { OpenTelemetryWorkflowClientInterceptor } =
    await import('@temporalio/interceptors-opentelemetry');
  return { interceptors: { workflow: [new OpenTelemetryWorkflowClientInterceptor()] } };
}

/**
 * The span of one model call, as OpenTelemetry's GenAI semantic conventions name its
 * parts: `chat <model>`, a client span under the activity's own, with the provider, the model
 * asked and the one that answered, input, output and cached tokens, and the finish reason. The
 * prompt and the answer are left out unless OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT
 * is on, and then masked like everything else deputy records. Without tracing, the call runs
 * as it is: no span, no attribute computed.
 */
import { SpanKind, SpanStatusCode, trace, type Attributes, type Tracer } from '@opentelemetry/api';
import type { ModelRequest, ModelResponse } from '../shared/model-contract.js';
import type { SecretMasker } from '../secrets/masker.js';
import { activeTracing } from './provider.js';

export interface ModelCallAbout {
  provider: string;
  model: string;
  request: ModelRequest;
  secrets: SecretMasker;
}

/** Looked up once: the global registry's lookup checks API versions on every call. */
let tracer: Tracer | undefined;

export function withModelCallSpan(
  about: ModelCallAbout,
  call: () => Promise<ModelResponse>,
): Promise<ModelResponse> {
  const tracing = activeTracing();
  // Only under a traced activity's span: a worker of this process without tracing makes none.
  if (tracing === null || trace.getActiveSpan() === undefined) return call();
  const attributes: Attributes = {
    'gen_ai.operation.name': 'chat',
    'gen_ai.provider.name': about.provider,
    'gen_ai.request.model': about.model,
  };
  if (tracing.settings.captureContent) {
    attributes['gen_ai.system_instructions'] = about.secrets.text(about.request.system);
    attributes['gen_ai.input.messages'] = about.secrets.text(
      JSON.stringify(about.request.transcript),
    );
  }
  tracer ??= trace.getTracer('deputy');
  return tracer.startActiveSpan(
    `chat ${about.model}`,
    { kind: SpanKind.CLIENT, attributes },
    async (span) => {
      try {
        const response = await call();
        span.setAttributes(responseAttributes(response));
        if (tracing.settings.captureContent) {
          span.setAttribute(
            'gen_ai.output.messages',
            about.secrets.text(
              JSON.stringify([{ text: response.text, toolCalls: response.toolCalls }]),
            ),
          );
        }
        return response;
      } catch (error) {
        // The error's kind, never its text: a provider's message may quote the request.
        span.setStatus({ code: SpanStatusCode.ERROR });
        span.setAttribute('error.type', error instanceof Error ? error.name : 'unknown');
        throw error;
      } finally {
        span.end();
      }
    },
  );
}

function responseAttributes(response: ModelResponse): Attributes {
  return {
    ...(response.responseModel === undefined
      ? {}
      : { 'gen_ai.response.model': response.responseModel }),
    ...(response.finishReason === undefined
      ? {}
      : { 'gen_ai.response.finish_reasons': [response.finishReason] }),
    ...(response.usage === undefined
      ? {}
      : {
          'gen_ai.usage.input_tokens': response.usage.inputTokens,
          'gen_ai.usage.output_tokens': response.usage.outputTokens,
          'gen_ai.usage.cache_read.input_tokens': response.usage.cachedInputTokens,
        }),
  };
}

/**
 * Whether this process exports traces, read from OpenTelemetry's own environment
 * variables, the ones every collector's documentation names: tracing is on when
 * `OTEL_EXPORTER_OTLP_ENDPOINT` or `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` is set, and off otherwise
 * (then nothing is loaded and no interceptor runs). `OTEL_SDK_DISABLED=true` and
 * `OTEL_TRACES_EXPORTER=none` turn it off as the specification says. The exporter reads the rest
 * (headers, timeout, compression) itself; those values are never logged, since headers carry keys.
 */

/** What the OTLP exporter sends; gRPC is refused with a clear message rather than half-supported. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

export type TracingSettings =
  | { on: false; reason: string }
  | {
      on: true;
      protocol: OtlpProtocol;
      /** `OTEL_SERVICE_NAME`, else the process's role (`deputy-worker`, `deputy-api`). */
      serviceName: string;
      /**
       * Prompt and answer text on model-call spans (masked): the GenAI conventions' switch
       * `OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true`. Off by default.
       */
      captureContent: boolean;
    };

export class TracingConfigError extends Error {
  override readonly name = 'TracingConfigError';
}

const TRUE = new Set(['true', '1', 'on', 'yes']);
const FALSE = new Set(['false', '0', 'off', 'no', '']);

export function tracingSettings(
  role: 'worker' | 'api',
  env: NodeJS.ProcessEnv = process.env,
): TracingSettings {
  const endpoint =
    env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim();
  if (!endpoint) return { on: false, reason: 'no OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set' };
  if (flag(env, 'OTEL_SDK_DISABLED')) return { on: false, reason: 'OTEL_SDK_DISABLED is true' };
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'otlp').split(',').map((one) => one.trim());
  if (exporters.includes('none')) return { on: false, reason: 'OTEL_TRACES_EXPORTER is none' };
  if (!exporters.every((one) => one === 'otlp' || one === '')) {
    throw new TracingConfigError(
      `OTEL_TRACES_EXPORTER=${env.OTEL_TRACES_EXPORTER}: deputy exports traces over OTLP only (set it to otlp, or none)`,
    );
  }
  return {
    on: true,
    protocol: protocolOf(env),
    serviceName: env.OTEL_SERVICE_NAME?.trim() || `deputy-${role}`,
    captureContent: flag(env, 'OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT'),
  };
}

function protocolOf(env: NodeJS.ProcessEnv): OtlpProtocol {
  const name = 'OTEL_EXPORTER_OTLP_TRACES_PROTOCOL';
  const raw = (
    env[name]?.trim() ||
    env.OTEL_EXPORTER_OTLP_PROTOCOL?.trim() ||
    'http/protobuf'
  ).toLowerCase();
  if (raw === 'http/protobuf' || raw === 'http/json') return raw;
  throw new TracingConfigError(
    `OTEL_EXPORTER_OTLP_PROTOCOL=${raw}: deputy sends OTLP over HTTP (http/protobuf, the default, or http/json), usually to port 4318; gRPC is not supported`,
  );
}

/** A boolean variable as the specification reads them; anything else is refused, not guessed. */
function flag(env: NodeJS.ProcessEnv, name: string): boolean {
  const value = env[name]?.trim().toLowerCase() ?? '';
  if (TRUE.has(value)) return true;
  if (FALSE.has(value)) return false;
  throw new TracingConfigError(`${name}=${env[name]} is not a boolean: use true or false`);
}

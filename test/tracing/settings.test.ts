/**
 * When tracing is on: OpenTelemetry's own variables decide, and a value deputy cannot
 * honour stops the start with its reason instead of exporting nothing in silence.
 */
import { describe, expect, it } from 'vitest';
import { tracingSettings, TracingConfigError } from '../../src/tracing/settings.js';

const ENDPOINT = { OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:4318' };

describe('tracing settings', () => {
  it('is off without an OTLP endpoint, and says why', () => {
    expect(tracingSettings('worker', {})).toEqual({
      on: false,
      reason: 'no OTEL_EXPORTER_OTLP_(TRACES_)ENDPOINT is set',
    });
  });

  it('is on with either endpoint variable, named after the role unless OTEL_SERVICE_NAME says', () => {
    expect(tracingSettings('worker', ENDPOINT)).toEqual({
      on: true,
      protocol: 'http/protobuf',
      serviceName: 'deputy-worker',
      captureContent: false,
    });
    expect(
      tracingSettings('api', {
        OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://collector:4318/v1/traces',
        OTEL_SERVICE_NAME: 'ops-deputy',
        OTEL_EXPORTER_OTLP_PROTOCOL: 'http/json',
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'true',
      }),
    ).toEqual({ on: true, protocol: 'http/json', serviceName: 'ops-deputy', captureContent: true });
  });

  it('honours OTEL_SDK_DISABLED and OTEL_TRACES_EXPORTER=none', () => {
    expect(tracingSettings('worker', { ...ENDPOINT, OTEL_SDK_DISABLED: 'true' }).on).toBe(false);
    expect(tracingSettings('worker', { ...ENDPOINT, OTEL_TRACES_EXPORTER: 'none' }).on).toBe(false);
  });

  it('refuses gRPC, other exporters and booleans it cannot read, naming the variable', () => {
    expect(() =>
      tracingSettings('worker', { ...ENDPOINT, OTEL_EXPORTER_OTLP_PROTOCOL: 'grpc' }),
    ).toThrow(/OTEL_EXPORTER_OTLP_PROTOCOL=grpc: .*http\/protobuf/);
    expect(() =>
      tracingSettings('worker', { ...ENDPOINT, OTEL_TRACES_EXPORTER: 'zipkin' }),
    ).toThrow(TracingConfigError);
    expect(() =>
      tracingSettings('worker', {
        ...ENDPOINT,
        OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT: 'maybe',
      }),
    ).toThrow(/OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=maybe is not a boolean/);
  });
});

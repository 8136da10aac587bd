/**
 * A real Jaeger (the all-in-one binary, src/servers/jaeger/jaeger-tool.ts) for tests that export
 * traces and read them back: in-memory storage, OTLP over HTTP and the query API each on a free
 * loopback port, so it never meets another process's ports. Built from the Go module it has no UI
 * assets; DEPUTY_JAEGER_UI_ASSETS names a built jaeger-ui (`packages/jaeger-ui/build`) to serve.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureJaeger } from '../../src/servers/jaeger/jaeger-tool.js';
import { freePort } from '../../src/servers/dev/dev-server.js';
import { eventually } from './eventually.js';

export interface Jaeger {
  /** Where OTLP goes: OTEL_EXPORTER_OTLP_ENDPOINT. */
  otlpEndpoint: string;
  /** The UI and its query API (`/api/traces`, `/api/services`). */
  queryUrl: string;
  traces(service: string): Promise<JaegerTrace[]>;
  stop(): Promise<void>;
}

/** A trace as Jaeger's query API answers it. */
export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string; tags: JaegerTag[] }>;
}

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: Array<{ refType: string; traceID: string; spanID: string }>;
  startTime: number;
  duration: number;
  tags: JaegerTag[];
  processID: string;
}

export interface JaegerTag {
  key: string;
  value: unknown;
}

export async function startJaeger(): Promise<Jaeger> {
  const binary = await ensureJaeger(process.env);
  const [otlp, http, grpc, health] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const dir = await mkdtemp(join(tmpdir(), 'deputy-jaeger-'));
  const config = join(dir, 'config.yaml');
  const ui = process.env.DEPUTY_JAEGER_UI_ASSETS;
  await writeFile(config, configYaml({ otlp, http, grpc, health }, ui));
  const child: ChildProcess = spawn(binary, ['--config', config], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  child.stderr!.on('data', (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  });
  const queryUrl = `http://127.0.0.1:${http}`;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await eventually(
      async () => {
        if (child.exitCode !== null) throw new Error(`jaeger exited: ${log}`);
        const answer = await fetch(`${queryUrl}/api/services`).catch(() => null);
        return answer?.ok === true ? true : undefined;
      },
      'Jaeger to answer',
      30_000,
    );
  } catch (error) {
    child.kill('SIGKILL');
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
  return {
    otlpEndpoint: `http://127.0.0.1:${otlp}`,
    queryUrl,
    async traces(service) {
      const answer = await fetch(
        `${queryUrl}/api/traces?service=${encodeURIComponent(service)}&limit=100&lookback=1h`,
      );
      if (!answer.ok) throw new Error(`jaeger /api/traces: ${answer.status}`);
      return ((await answer.json()) as { data: JaegerTrace[] | null }).data ?? [];
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}

/** Jaeger's all-in-one configuration, trimmed to what a test needs, on the given ports. */
function configYaml(
  ports: { otlp: number; http: number; grpc: number; health: number },
  uiAssets: string | undefined,
): string {
  return `service:
  extensions: [jaeger_storage, jaeger_query, healthcheckv2]
  pipelines:
    traces:
      receivers: [otlp]
      processors: [batch]
      exporters: [jaeger_storage_exporter]
  telemetry:
    metrics:
      level: none
    logs:
      level: warn
extensions:
  healthcheckv2:
    use_v2: true
    http:
      endpoint: 127.0.0.1:${ports.health}
  jaeger_query:
    storage:
      traces: memstore
    http:
      endpoint: 127.0.0.1:${ports.http}
    grpc:
      endpoint: 127.0.0.1:${ports.grpc}
${uiAssets === undefined ? '' : `    ui:\n      assets_path: ${JSON.stringify(uiAssets)}\n`}  jaeger_storage:
    backends:
      memstore:
        memory:
          max_traces: 10000
receivers:
  otlp:
    protocols:
      http:
        endpoint: 127.0.0.1:${ports.otlp}
processors:
  batch:
    timeout: 100ms
exporters:
  jaeger_storage_exporter:
    trace_storage: memstore
`;
}

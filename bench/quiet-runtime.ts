/**
 * The Temporal runtime every bench runs under, alone or from bench/run.ts: worker INFO lines and
 * core's warnings (one per local-activity heartbeat) would drown the figures, so the SDK's
 * warnings and errors show and core's errors only. Install once per process, before any worker
 * or connection is created.
 */
import { Runtime, makeTelemetryFilterString } from '@temporalio/worker';

export function installQuietRuntime(): void {
  Runtime.install({
    logger: {
      log: () => {},
      trace: () => {},
      debug: () => {},
      info: () => {},
      warn: (message) => console.warn(message),
      error: (message) => console.error(message),
    },
    telemetryOptions: { logging: { filter: makeTelemetryFilterString({ core: 'ERROR' }) } },
  });
}

/** How the Temporal SDK logs inside the CLI's long-running commands. */
import { format } from 'node:util';
import { DefaultLogger, Runtime, type LogEntry } from '@temporalio/worker';
import type { SecretMasker } from '../../secrets/masker.js';

let runtimeInstalled = false;

/**
 * The SDK logs every worker state change at INFO; a CLI user wants warnings only. Lines are
 * written as the SDK's default writes them, masked: a failed activity is logged with its error,
 * and an error can quote what the call carried.
 */
export function quietTemporalRuntime(
  secrets: SecretMasker,
  /** `host:port` of the SDK's own Prometheus exporter (metrics.temporalAddress); null: none. */
  prometheusAddress: string | null = null,
): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  const logFunction = (entry: LogEntry): void => {
    process.stderr.write(maskedLogLine(entry, secrets));
  };
  // No SDK signal handlers: the commands stop worker, API and dev server in their own order.
  // The SDK's runtime metrics (task slots, polls, latencies) come from its Core, which serves
  // them itself; only at install, once per process, hence read at start (docs: "Metrics").
  Runtime.install({
    logger: new DefaultLogger('WARN', logFunction),
    shutdownSignals: [],
    ...(prometheusAddress === null
      ? {}
      : {
          telemetryOptions: {
            metrics: {
              prometheus: {
                bindAddress: prometheusAddress,
                countersTotalSuffix: true,
                useSecondsForDurations: true,
                unitSuffix: true,
              },
            },
          },
        }),
  });
}

/** One SDK log entry as a line, in the SDK's default layout, with secrets masked. */
export function maskedLogLine(entry: LogEntry, secrets: SecretMasker): string {
  const date = new Date(Number(entry.timestampNanos / 1_000_000n));
  const meta = entry.meta === undefined ? '' : ` ${format(entry.meta)}`;
  return `${secrets.text(`${format(date)} [${entry.level}] ${entry.message}${meta}`)}\n`;
}

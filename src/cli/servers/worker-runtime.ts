/** The worker runtime as `deputy worker` and `deputy dev` start it. */
import type { LiveConfig } from '../../config/live-config.js';
import type { Io } from '../io.js';
import type { WorkerRuntime } from '../../worker/worker.js';

/** The worker pulls in the native bridge and the bundler: load it only for commands that run one. */
export async function startWorkerRuntime(
  settings: LiveConfig,
  address: string,
  io: Io,
): Promise<WorkerRuntime> {
  const { quietTemporalRuntime } = await import('./temporal-logging.js');
  const { liveSecretMasker } = await import('../../secrets/live-masker.js');
  const masker = liveSecretMasker(settings);
  const { metricsSettings } = await import('../../metrics/settings.js');
  const metrics = metricsSettings(settings.current());
  quietTemporalRuntime(masker, metrics.enabled ? metrics.temporalAddress : null);
  const worker = await import('../../worker/worker.js');
  // MCP news (a server connected, lost, or held back until a person approves it) is the
  // operator's to see; the lines name servers and reasons, and are masked all the same.
  return worker.startWorkerRuntime(settings, address, {
    log: (line) => io.err(`mcp: ${masker.text(line)}`),
  });
}

/** Which queues a worker runtime serves, for its start line. */
export function queuesLine(worker: WorkerRuntime): string {
  const { taskQueue, toolQueue } = worker.queues;
  const shared = `task queue ${taskQueue} (workflows and activities)`;
  return toolQueue === null
    ? shared
    : `${shared} and tool queue ${toolQueue} (this workspace's activities)`;
}

/**
 * A worker with everything it needs: a native connection, the definition registry and the agent
 * resolver built on it. Used by `deputy worker` and `deputy dev`.
 */
import { DefaultLogger, NativeConnection, Runtime } from '@temporalio/worker';
import { createAgentResolver } from '../activities/agent-resolver.js';
import type { DeputyConfig } from '../config.js';
import { createRegistry } from '../definitions/registry.js';
import { createDeputyWorker } from '../worker.js';

export interface WorkerRuntime {
  /** Settles when the worker stops (after stop(), or on a fatal worker error). */
  done: Promise<void>;
  /** Graceful: stop polling, let running activities finish, close the connection. */
  stop(): Promise<void>;
}

let runtimeInstalled = false;

/** The SDK logs every worker state change at INFO; a CLI user wants warnings only. */
export function quietTemporalRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  // No SDK signal handlers: the commands stop worker, API and dev server in their own order.
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
}

export async function startWorkerRuntime(
  config: DeputyConfig,
  address: string,
): Promise<WorkerRuntime> {
  quietTemporalRuntime();
  const registry = createRegistry({ config });
  await registry.load();
  // Hand-edited definitions are picked up without a restart (DEF-4); runs keep their snapshot.
  await registry.watch();
  const agents = createAgentResolver(config, registry);
  const connection = await NativeConnection.connect({ address });
  let worker;
  try {
    worker = await createDeputyWorker({ config, connection, agents });
  } catch (error) {
    await connection.close();
    await registry.close();
    throw error;
  }
  const done = worker.run().finally(async () => {
    await connection.close();
    await registry.close();
  });
  let stopping: Promise<void> | null = null;
  return {
    done,
    stop() {
      stopping ??= (async () => {
        if (worker.getState() === 'RUNNING') worker.shutdown();
        await done.catch(() => {});
      })();
      return stopping;
    },
  };
}

/** How the Temporal SDK logs inside the CLI's long-running commands. */
import { DefaultLogger, Runtime } from '@temporalio/worker';

let runtimeInstalled = false;

/** The SDK logs every worker state change at INFO; a CLI user wants warnings only. */
export function quietTemporalRuntime(): void {
  if (runtimeInstalled) return;
  runtimeInstalled = true;
  // No SDK signal handlers: the commands stop worker, API and dev server in their own order.
  Runtime.install({ logger: new DefaultLogger('WARN'), shutdownSignals: [] });
}

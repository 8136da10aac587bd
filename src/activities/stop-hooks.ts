import { Context } from '@temporalio/activity';
import type { DeputyConfig } from '../config.js';
import { runHooks } from './hooks.js';
import type { StopHooksInput } from './types.js';

/** Runs the definition's `Stop` hooks once the delegation has its result; returns a failure or null. */
export async function runStopHooksActivity(
  config: DeputyConfig,
  { hooks, agent, result }: StopHooksInput,
): Promise<string | null> {
  const failure = await runHooks(
    hooks,
    'Stop',
    { agent, status: result.status, text: result.text },
    { cwd: config.workspace, signal: Context.current().cancellationSignal },
  );
  return failure ? `${failure.command}: ${failure.reason}` : null;
}

import { Context } from '@temporalio/activity';
import type { DeputyConfig } from '../config/schema.js';
import { runClaudeStopHooks } from './claude-hooks.js';
import { runHooks } from './hooks.js';
import type { StopHooksInput } from '../shared/workflow-contract/activities.js';

/** Runs the definition's `Stop` hooks once the delegation has its result; returns a failure or null. */
export async function runStopHooksActivity(
  config: DeputyConfig,
  { hooks, agent, result }: StopHooksInput,
): Promise<string | null> {
  const options = { cwd: config.workspace, signal: Context.current().cancellationSignal };
  const failure = await runHooks(
    hooks,
    'Stop',
    { agent, status: result.status, text: result.text },
    options,
  );
  if (failure) return `${failure.command}: ${failure.reason}`;
  const claude = (hooks?.Stop ?? []).filter((hook) => hook.format === 'claude');
  return claude.length === 0 ? null : runClaudeStopHooks(claude, options);
}

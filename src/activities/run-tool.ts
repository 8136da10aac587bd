import { CancelledFailure, Context } from '@temporalio/activity';
import type { DeputyConfig } from '../config.js';
import { toolFailureText } from '../shared/tool-contract.js';
import { limitText } from '../tools/output-limit.js';
import { buildToolbox } from '../tools/toolbox.js';
import { offloadLongResult, type BlobStore } from './blob-store.js';
import { whileHeartbeating } from './heartbeat.js';
import { runHooks } from './hooks.js';
import type { RunToolInput, ToolOutcome } from './types.js';

/**
 * Runs one tool call. A tool's own failure is a result the model reads (`[tool 'X' failed] ...`),
 * never an activity failure: only a lost worker or a stop makes this activity fail.
 */
export async function runToolActivity(
  config: DeputyConfig,
  blobs: BlobStore,
  { snapshot, call }: RunToolInput,
): Promise<ToolOutcome> {
  const context = Context.current();
  const tool = buildToolbox(snapshot, { workspaceRoot: config.workspace }).get(call.name);
  if (!tool) {
    return { content: toolFailureText(call.name, "you don't have that tool"), isError: true };
  }
  const hookOptions = { cwd: config.workspace, signal: context.cancellationSignal };
  const blocked = await runHooks(
    snapshot.hooks,
    'PreToolUse',
    { tool: call.name, arguments: call.arguments },
    hookOptions,
  );
  if (blocked) {
    return {
      content: `[tool '${call.name}' blocked by a PreToolUse hook] ${blocked.reason}`,
      isError: true,
    };
  }
  try {
    const content = await whileHeartbeating(() =>
      tool.run(call.arguments, {
        workspaceRoot: config.workspace,
        snapshot,
        signal: context.cancellationSignal,
        heartbeat: (details) => context.heartbeat(details),
      }),
    );
    const afterHook = await runHooks(
      snapshot.hooks,
      'PostToolUse',
      { tool: call.name, arguments: call.arguments, result: content },
      hookOptions,
    );
    const bounded =
      limitText(content, snapshot.limits.toolResultMaxChars) +
      (afterHook ? `\n[PostToolUse hook failed: ${afterHook.reason}]` : '');
    return { ...(await offloadLongResult(blobs, bounded)), isError: false };
  } catch (error) {
    if (context.cancellationSignal.aborted) {
      throw new CancelledFailure(`tool '${call.name}' cancelled: the delegation was stopped`);
    }
    const cause = error instanceof Error ? error.message : String(error);
    return { content: toolFailureText(call.name, cause), isError: true };
  }
}

import { CancelledFailure, Context } from '@temporalio/activity';
import type { DeputyConfig } from '../config/schema.js';
import { mcpTarget } from '../policy/mcp-scope.js';
import type { CapabilitySnapshot } from '../shared/capability-snapshot.js';
import { claudeHooksFor, claudeToolName } from '../shared/claude-hooks.js';
import type { ToolCallRequest } from '../shared/model-contract.js';
import type { SecretMasker } from '../secrets/masker.js';
import { toolFailureText } from '../shared/tools/tool-contract.js';
import { limitText } from '../tools/output-limit.js';
import { deputyRoots } from '../paths/deputy-roots.js';
import { createMcpTools, type McpGatewayDeps } from '../mcp-client/gateway-tools.js';
import { ToolError } from '../tools/tool.js';
import { buildToolbox } from '../tools/toolbox.js';
import { offloadLongResult, type BlobStore } from './blob-store.js';
import { heartbeatOf, whileHeartbeating } from './heartbeat.js';
import { runPostToolHooks } from './claude-hooks.js';
import { runHooks } from './hooks.js';
import type { ToolOutcome, ToolRun } from '../shared/workflow-contract/activities.js';
import { deputyMetrics, type ToolRunOutcome } from '../metrics/deputy-metrics.js';

/** The built-in tools that list or search a tree, and so consult the hidden roots themselves. */
const WALKS_TREES = new Set(['glob', 'grep', 'kb_search']);

/**
 * Runs one tool call. A tool's own failure is a result the model reads (`[tool 'X' failed] ...`),
 * never an activity failure: only a lost worker or a stop makes this activity fail. The outcome
 * is masked (`secrets`): it goes to the model, into history and out through the API.
 */
export async function runToolActivity(
  config: DeputyConfig,
  blobs: BlobStore,
  input: ToolRun,
  secrets: SecretMasker,
  mcp?: McpGatewayDeps,
): Promise<ToolOutcome> {
  const outcome = await runTool(config, blobs, input, secrets, mcp);
  deputyMetrics.toolRun(toolLabel(input), outcome.isError ? runFailure(input, outcome) : 'ok');
  return { ...outcome, content: secrets.text(outcome.content) };
}

async function runTool(
  config: DeputyConfig,
  blobs: BlobStore,
  { snapshot, call }: ToolRun,
  secrets: SecretMasker,
  mcp: McpGatewayDeps | undefined,
): Promise<ToolOutcome> {
  const context = Context.current();
  const tool = buildToolbox(snapshot, {
    workspaceRoot: config.workspace,
    // Recomputed per call like the resolver does (a link may have moved since), but only for
    // the tools that walk a tree and must skip them, and a sandboxed bash that must cover them:
    // a call that names one of these paths was refused by policy before it got here, and
    // resolving them costs a dozen system calls.
    hiddenRoots:
      WALKS_TREES.has(call.name) || (call.name === 'bash' && snapshot.sandbox !== undefined)
        ? deputyRoots(config).hiddenRoots
        : [],
    ...(mcp === undefined ? {} : { extra: createMcpTools(snapshot, mcp) }),
  }).get(call.name);
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
    // Masked before anything else sees it: before the cut (a secret cut in half would no longer
    // match), before the blob store keeps the full text, before a PostToolUse hook reads it.
    const content = secrets.text(
      await whileHeartbeating(() =>
        tool.run(call.arguments, {
          workspaceRoot: config.workspace,
          snapshot,
          signal: context.cancellationSignal,
          heartbeat: heartbeatOf(context),
        }),
      ),
    );
    const afterHook = await runHooks(
      snapshot.hooks,
      'PostToolUse',
      { tool: call.name, arguments: call.arguments, result: content },
      hookOptions,
    );
    // Claude Code's form: matched by its tool name, told the result as `tool_response`.
    const claudeName = claudeToolName(call.name, mcpTargetOf(snapshot, call));
    const claudeHooks = claudeHooksFor(snapshot.hooks, 'PostToolUse', claudeName);
    const claudeNotes =
      claudeHooks.length === 0
        ? ''
        : await runPostToolHooks(claudeHooks, claudeName, call, content, hookOptions);
    const bounded =
      limitText(content, snapshot.limits.toolResultMaxChars) +
      (afterHook ? `\n[PostToolUse hook failed: ${afterHook.reason}]` : '') +
      (claudeNotes ? `\n${claudeNotes}` : '');
    return { ...(await offloadLongResult(blobs, bounded)), isError: false };
  } catch (error) {
    if (context.cancellationSignal.aborted) {
      throw new CancelledFailure(`tool '${call.name}' cancelled: the delegation was stopped`);
    }
    const cause = error instanceof Error ? error.message : String(error);
    const name = error instanceof ToolError && error.tool !== undefined ? error.tool : call.name;
    return { content: toolFailureText(name, cause), isError: true };
  }
}

/** The MCP server and tool a call reaches, or null for a built-in tool. */
function mcpTargetOf(snapshot: CapabilitySnapshot, call: ToolCallRequest) {
  const schema = snapshot.tools.find((tool) => tool.name === call.name);
  return schema === undefined ? null : mcpTarget(schema, call.arguments);
}

/** The call's tool when the agent has it; any other name (a model's invention) is `unknown`. */
function toolLabel({ snapshot, call }: ToolRun): string {
  return snapshot.tools.some((tool) => tool.name === call.name) ? call.name : 'unknown';
}

/** A failed run: stopped by a PreToolUse hook, or the tool's own error. */
function runFailure({ call }: ToolRun, outcome: ToolOutcome): ToolRunOutcome {
  const blocked = `[tool '${call.name}' blocked by a PreToolUse hook]`;
  return outcome.content.startsWith(blocked) ? 'blocked' : 'error';
}

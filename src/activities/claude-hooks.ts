/**
 * Hooks written in Claude Code's form, run with Claude Code's contract: its input
 * JSON on stdin (`session_id, cwd, hook_event_name, tool_name, tool_input`, PostToolUse adds
 * `tool_response`); exit 0 = ok, its stdout may be JSON with
 * `hookSpecificOutput.permissionDecision: allow|deny|ask` (or the older `decision:
 * approve|block`); exit 2 = block, stderr is the reason; any other exit = a non-blocking error,
 * logged, and the call goes on. A hook that times out is such an error too. Output is bounded
 * (src/activities/hooks.ts `spawnHook`).
 */
import { isAbsolute, resolve } from 'node:path';
import { CancelledFailure, Context, log } from '@temporalio/activity';
import type { DeputyConfig } from '../config/schema.js';
import type { HookCommandRef } from '../shared/capability-snapshot.js';
import type { ToolCallRequest } from '../shared/model-contract.js';
import type {
  ClaudeDecision,
  PreToolHooksAnswer,
  PreToolHooksInput,
} from '../shared/workflow-contract/activities.js';
import { REASON_CHARS, spawnHook, STDOUT_CHARS, type HookRun } from './hooks.js';

/** Claude Code's input for a tool event, from a deputy call. */
export function claudeToolInput(
  cwd: string,
  event: 'PreToolUse' | 'PostToolUse',
  toolName: string,
  call: ToolCallRequest,
  extra: Record<string, unknown> = {},
): string {
  return JSON.stringify({
    session_id: sessionId(),
    cwd,
    hook_event_name: event,
    tool_name: toolName,
    tool_input: claudeArguments(cwd, toolName, call.arguments),
    tool_use_id: call.id,
    ...extra,
  });
}

/**
 * deputy's arguments, plus Claude Code's names for them where they differ: its file tools take
 * an absolute `file_path` where deputy's take a workspace-relative `path`.
 */
function claudeArguments(
  cwd: string,
  toolName: string,
  args: Record<string, unknown>,
): Record<string, unknown> {
  if (['Read', 'Write', 'Edit'].includes(toolName) && typeof args.path === 'string') {
    return { ...args, file_path: isAbsolute(args.path) ? args.path : resolve(cwd, args.path) };
  }
  return args;
}

/** The delegation's workflow id: the session Claude Code's hooks know of. */
function sessionId(): string {
  try {
    return Context.current().info.workflowExecution?.workflowId ?? 'deputy';
  } catch {
    return 'deputy';
  }
}

/** Runs the call's matching PreToolUse hooks and combines their answers. */
export async function runPreToolHooksActivity(
  config: DeputyConfig,
  { hooks, toolName, call }: PreToolHooksInput,
  signal: AbortSignal = Context.current().cancellationSignal,
): Promise<PreToolHooksAnswer> {
  const input = claudeToolInput(config.workspace, 'PreToolUse', toolName, call);
  const answer: PreToolHooksAnswer = { decision: null, reason: '', errors: [] };
  for (const hook of hooks) {
    const run = await spawnHook(hook, input, claudeEnv(config.workspace), {
      cwd: config.workspace,
      signal,
    });
    if (signal.aborted) throw new CancelledFailure('PreToolUse hook cancelled');
    const outcome = readOutcome(run, hook);
    if (outcome.error !== null) {
      answer.errors.push(outcome.error);
      warn('PreToolUse hook failed (non-blocking)', hook.command, outcome.error);
    }
    if (outcome.decision !== null && rank(outcome.decision) > rank(answer.decision)) {
      answer.decision = outcome.decision;
      answer.reason = outcome.reason;
    }
    if (answer.decision === 'deny') break;
  }
  return answer;
}

/**
 * Runs the call's matching PostToolUse hooks after the tool ran; returns what the model reads
 * next to the result (exit 2's stderr, `decision: block`'s reason, `additionalContext`, and
 * failures), or '' when there is nothing to say.
 */
export async function runPostToolHooks(
  hooks: HookCommandRef[],
  toolName: string,
  call: ToolCallRequest,
  result: string,
  { cwd, signal }: { cwd: string; signal: AbortSignal },
): Promise<string> {
  const input = claudeToolInput(cwd, 'PostToolUse', toolName, call, {
    tool_response: { output: result, success: true },
  });
  const notes: string[] = [];
  for (const hook of hooks) {
    const run = await spawnHook(hook, input, claudeEnv(cwd), { cwd, signal });
    const outcome = readOutcome(run, hook);
    if (outcome.decision === 'deny') notes.push(`[PostToolUse hook: ${outcome.reason}]`);
    if (outcome.error !== null) notes.push(`[PostToolUse hook failed: ${outcome.error}]`);
    if (outcome.context) notes.push(`[PostToolUse hook: ${outcome.context}]`);
  }
  return notes.join('\n');
}

/**
 * Runs Stop hooks in Claude Code's form (`Stop` and `SubagentStop`) once the delegation has its
 * result; returns a failure (exit 2, `decision: block`, or another error) or null. deputy cannot
 * make a finished delegation continue: the failure goes into the result's notice.
 */
export async function runClaudeStopHooks(
  hooks: HookCommandRef[],
  { cwd, signal }: { cwd: string; signal: AbortSignal },
): Promise<string | null> {
  const input = JSON.stringify({
    session_id: sessionId(),
    cwd,
    hook_event_name: 'SubagentStop',
    stop_hook_active: false,
  });
  for (const hook of hooks) {
    const outcome = readOutcome(
      await spawnHook(hook, input, claudeEnv(cwd), { cwd, signal }),
      hook,
    );
    if (outcome.decision === 'deny') return `${hook.command}: ${outcome.reason}`;
    if (outcome.error !== null) return `${hook.command}: ${outcome.error}`;
  }
  return null;
}

interface Outcome {
  decision: ClaudeDecision | null;
  reason: string;
  error: string | null;
  /** `hookSpecificOutput.additionalContext`, for PostToolUse. */
  context: string;
}

/** Claude Code's output contract, for one hook run. */
export function readOutcome(run: HookRun, hook: HookCommandRef): Outcome {
  const none: Outcome = { decision: null, reason: '', error: null, context: '' };
  const stderr = run.stderr.trim().slice(0, REASON_CHARS);
  if (run.startError !== null) return { ...none, error: `could not start: ${run.startError}` };
  if (run.stoppedBy !== null) {
    return { ...none, error: `${run.stoppedBy}${stderr ? `: ${stderr}` : ''}` };
  }
  if (run.code === 2) {
    return { ...none, decision: 'deny', reason: stderr || `hook '${hook.command}' exited 2` };
  }
  if (run.code !== 0) {
    return {
      ...none,
      error: `exited with code ${run.code ?? 'unknown'}${stderr ? `: ${stderr}` : ''}`,
    };
  }
  const text = run.stdout.trim();
  if (!text.startsWith('{')) return none;
  if (run.stdoutCut) {
    return {
      ...none,
      error: `its JSON output is longer than ${STDOUT_CHARS} characters and was ignored`,
    };
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ...none, error: 'its output starts like JSON but is not JSON; ignored' };
  }
  return readJsonOutput(json);
}

function readJsonOutput(json: unknown): Outcome {
  const out: Outcome = { decision: null, reason: '', error: null, context: '' };
  if (json === null || typeof json !== 'object') return out;
  const top = json as Record<string, unknown>;
  const specific =
    top.hookSpecificOutput !== null && typeof top.hookSpecificOutput === 'object'
      ? (top.hookSpecificOutput as Record<string, unknown>)
      : {};
  const text = (value: unknown): string =>
    typeof value === 'string' ? value.slice(0, REASON_CHARS) : '';
  out.context = text(specific.additionalContext);
  const decision = specific.permissionDecision;
  if (decision === 'allow' || decision === 'deny' || decision === 'ask') {
    return { ...out, decision, reason: text(specific.permissionDecisionReason) };
  }
  // The older form: `decision: approve|block` with `reason`.
  if (top.decision === 'approve') return { ...out, decision: 'allow', reason: text(top.reason) };
  if (top.decision === 'block') {
    return { ...out, decision: 'deny', reason: text(top.reason) || 'blocked by a hook' };
  }
  // `continue: false` stops Claude Code itself; the nearest here is refusing the call.
  if (top.continue === false) {
    return {
      ...out,
      decision: 'deny',
      reason: text(top.stopReason) || 'a hook said not to continue',
    };
  }
  return out;
}

function rank(decision: ClaudeDecision | null): number {
  return decision === 'deny' ? 3 : decision === 'ask' ? 2 : decision === 'allow' ? 1 : 0;
}

/** What Claude Code's hooks find in their environment besides the minimal one. */
function claudeEnv(cwd: string): Record<string, string> {
  return { CLAUDE_PROJECT_DIR: cwd };
}

/** The worker's log, when running as an activity (tests call these functions directly). */
function warn(message: string, command: string, error: string): void {
  try {
    log.warn(message, { command, error });
  } catch {
    // No activity context.
  }
}

/**
 * PreToolUse hooks in Claude Code's form: they run before a call's verdict is final,
 * each call's matching hooks in one short activity, and their answer changes the verdict:
 * `deny` (or exit 2) denies with the hook's reason; `ask` opens a card through the usual card
 * flow (so it survives a worker restart, and TaskStop denies it); `allow` lets through a call
 * policy would have carded, except a write into a protected path, which still asks; no answer
 * leaves policy's verdict. A call policy denies stays denied and its hooks do not run. Sandbox code.
 */
import { ActivityFailure, isCancellation, patched } from '@temporalio/workflow';
import type {
  ModelTurn,
  PreToolHooksAnswer,
  ResolvedAgent,
} from '../shared/workflow-contract/activities.js';
import { mcpTarget } from '../policy/mcp-scope.js';
import { claudeHooksFor, claudeToolName } from '../shared/claude-hooks.js';
import { isInside } from '../shared/path-containment.js';
import type { UnattendedVerdict, Verdict } from '../shared/policy-contract.js';
import { activitiesWith } from './activity-options.js';
import { causeOf } from './failure-notice.js';
import type { PlannedCall } from './tool-calls.js';

/** Marks runs that run Claude Code's PreToolUse hooks in the workflow. */
export const CLAUDE_HOOKS_PATCH = 'claude-hooks';

/** Seconds a hook may take when it names no timeout (as src/activities/hooks.ts). */
const DEFAULT_HOOK_SECONDS = 60;

export async function applyClaudePreToolHooks(
  planned: PlannedCall[],
  turn: ModelTurn,
  resolved: ResolvedAgent,
  unattended: UnattendedVerdict | undefined,
  /** The workspace's tool queue (rounds.ts); undefined: the workflow's own. */
  toolQueue?: string,
): Promise<void> {
  const { snapshot } = resolved;
  // Only snapshots read from Claude Code's form have these, and none existed before the patch.
  if (!(snapshot.hooks?.PreToolUse ?? []).some((hook) => hook.format === 'claude')) return;
  if (!patched(CLAUDE_HOOKS_PATCH)) return;
  for (const item of planned) {
    if (item.schema === undefined || item.invalid !== undefined || item.verdict.kind === 'deny')
      continue;
    const toolName = claudeToolName(item.call.name, mcpTarget(item.schema, item.call.arguments));
    const hooks = claudeHooksFor(snapshot.hooks, 'PreToolUse', toolName);
    if (hooks.length === 0) continue;
    const seconds = hooks.reduce(
      (sum, hook) => sum + (hook.timeoutSeconds ?? DEFAULT_HOOK_SECONDS),
      0,
    );
    const { runPreToolHooks } = activitiesWith(
      // A hook is a check: running it again after a lost worker is what a restart should do.
      { startToCloseTimeout: (seconds + 30) * 1000, retry: { maximumAttempts: 3 } },
      `PreToolUse hooks ${toolName}`,
      toolQueue,
    );
    let answer: PreToolHooksAnswer;
    try {
      answer = await runPreToolHooks({ hooks, toolName, call: item.call });
    } catch (error) {
      if (isCancellation(error) || !(error instanceof ActivityFailure)) throw error;
      item.verdict = {
        kind: 'deny',
        reason: `its PreToolUse hook could not run: ${causeOf(error)}`,
      };
      continue;
    }
    item.verdict = verdictAfterHooks(item.verdict, answer, {
      touchesProtected: (turn.callPaths[item.call.id] ?? []).some((path) =>
        (resolved.protectedRoots ?? []).some((root) => isInside(root.path, path)),
      ),
      // dontAsk (permissionMode) answers `ask` as unattended does: no one would see the card.
      unattended: snapshot.policyFlags?.noHuman === true ? 'deny' : (unattended ?? 'ask'),
    });
  }
}

/** Policy's verdict as the hooks' answer changes it. */
export function verdictAfterHooks(
  verdict: Verdict,
  answer: PreToolHooksAnswer,
  context: { touchesProtected: boolean; unattended: UnattendedVerdict },
): Verdict {
  const because = answer.reason ? `: ${answer.reason}` : '';
  switch (answer.decision) {
    case 'deny':
      return { kind: 'deny', reason: `blocked by a PreToolUse hook${because}` };
    case 'ask':
      if (verdict.kind === 'ask')
        return { kind: 'ask', reason: `${verdict.reason}; a PreToolUse hook asks too${because}` };
      return context.unattended === 'deny'
        ? {
            kind: 'deny',
            reason: `a PreToolUse hook asks for approval${because}, but no one will answer (the delegation runs unattended, or with permissionMode dontAsk), so it is denied`,
          }
        : { kind: 'ask', reason: `a PreToolUse hook asks for approval${because}` };
    case 'allow':
      // The hook answers for the card policy would have opened, never for a protected path.
      return verdict.kind === 'ask' && !context.touchesProtected ? { kind: 'allow' } : verdict;
    default:
      return verdict;
  }
}

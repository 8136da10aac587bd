import { isInside, relativeInside } from '../shared/path-containment.js';
import { isHiddenPath } from '../shared/policy-contract.js';
import type { PolicyInput, ProtectedKind, Verdict } from '../shared/policy-contract.js';
import type { CommandAnalysis } from '../shared/tools/command-analysis.js';
import type { ToolClass } from '../shared/tools/tool-contract.js';
import { grantCovering } from './grants.js';

/*
 * Runs inside the Temporal workflow sandbox (the loop decides before it schedules a tool
 * activity), so it must stay pure: no Node modules (`path`, `fs`), no clock, no randomness,
 * and only `src/shared` (types and sandbox-safe functions). Paths arrive already absolute,
 * normalized and symlink-resolved (canonicalCallPaths, on the activity side), so containment
 * is the shared lexical rule of src/shared/path-containment.ts, the same one the Node-side
 * tools apply after resolving.
 */

/** One tool call as policy sees it. */
export interface PolicyCall {
  toolName: string;
  toolClass: ToolClass;
  /** Absolute, normalized, symlink-resolved paths the call touches (canonicalCallPaths). */
  paths: string[];
  /** The tool writes only inside its own fixed directory (ToolSchema.confined). */
  confined?: boolean;
  /**
   * Of `paths`, the existing files with more than one hard link (ModelTurn.linkedPaths). Their
   * other names cannot all be checked, so a write to one asks like a protected write.
   */
  linkedPaths?: string[];
  /** The name the model called, when `toolName` is an MCP call's `server/tool` label. */
  calledName?: string;
  /** A `bash` call's shell analysis: what a `Bash(...)` grant is matched against. */
  command?: CommandAnalysis;
  /** An MCP call's `server/tool`: what an MCP grant is matched against. */
  mcpTarget?: string;
}

/** The delegating tool: it writes nothing itself and is never an approval item. */
export const TASK_TOOL_NAME = 'Task';

const ALLOW: Verdict = { kind: 'allow' };

/** What a write into each kind of protected root does, as a card's reader should hear it. */
const PROTECTED_CHANGES: Record<ProtectedKind, string> = {
  definitions: 'changes an agent definition or deputy configuration',
  skills: 'changes a skill offered to agents',
  mcp: 'changes the MCP servers deputy starts',
  runtime: "changes deputy's own code or the programs it runs",
  git: 'changes the git repository',
  data: "changes deputy's data directory",
  launcher: 'changes how deputy or its package manager is launched',
  script: 'changes a script deputy runs or replays (a hook, an MCP server, a scripted model)',
};

/**
 * The one decision function, the same for a main agent and a subagent. Under `unattended: 'deny'`
 * every `ask` becomes `deny` at once, because no card would be answered. The PolicyFlags a
 * `permissionMode` adds: `readOnly` (plan) denies every change, `noHuman` (dontAsk) turns `ask`
 * into `deny` like unattended, `protectInFullAccess` (bypassPermissions) keeps protected writes
 * asking under `full-access`.
 */
export function decide(policy: PolicyInput, call: PolicyCall): Verdict {
  if (call.toolName === TASK_TOOL_NAME) return ALLOW;
  // Plan mode is read-only, memory_write included: before anything that could allow a change.
  if (policy.readOnly === true && call.toolClass !== 'read' && call.toolClass !== 'mcp') {
    return { kind: 'deny', reason: planModeText(call.toolName) };
  }
  // Confined tools (memory_write) cannot reach outside their own directory by construction.
  if (call.confined === true) return ALLOW;
  // Before the mode, so full-access is no way in either. A deny, not a card: a human approving
  // a read of the configuration would hand its secrets to the model.
  const hidden = hiddenReadVerdict(policy, call);
  if (hidden) return hidden;
  const verdict = grantedVerdict(policy, call, decideAttended(policy, call));
  if (verdict.kind === 'ask' && policy.noHuman === true) {
    return {
      kind: 'deny',
      reason: `${verdict.reason}, but this agent runs with permissionMode dontAsk: no one will answer, so it is denied`,
    };
  }
  if (verdict.kind === 'ask' && policy.unattended === 'deny') {
    return {
      kind: 'deny',
      reason: `${verdict.reason}, but this run is unattended: no human will answer, so it is denied`,
    };
  }
  return verdict;
}

function decideAttended(policy: PolicyInput, call: PolicyCall): Verdict {
  const mode = policy.approvalMode;
  if (mode === 'full-access') {
    // bypassPermissions: full access, but the agent still cannot widen its own authority.
    if (policy.protectInFullAccess === true && call.toolClass === 'write') {
      return protectedWriteVerdict(policy, call) ?? linkedWriteVerdict(policy, call) ?? ALLOW;
    }
    return ALLOW;
  }

  const workspace = policy.workspaceRoot;
  const writable = policy.writableRoots.length > 0 ? policy.writableRoots : [workspace];
  const insideAny = (roots: string[]) => (p: string) => roots.some((root) => isInside(root, p));
  // A read or write naming no path (glob without `path`) works on the workspace itself.
  const paths = call.paths.length > 0 ? call.paths : [workspace];
  const needs = (what: string): Verdict => ({
    kind: 'ask',
    reason: `${what} needs approval under approvalMode ${mode}`,
  });

  switch (call.toolClass) {
    case 'read': {
      // Writable roots are readable too once writes there are auto-approved; under `confirm`
      // only the workspace is.
      const readable = mode === 'confirm' ? [workspace] : [workspace, ...writable];
      const outside = paths.filter((p) => !insideAny(readable)(p));
      if (outside.length === 0) return ALLOW;
      return needs(`read of ${describePaths(outside, workspace)}${byTool(call, 'read')}`);
    }
    case 'write': {
      // Checked before the writable roots: a configured root cannot switch protection off.
      const guarded = protectedWriteVerdict(policy, call) ?? linkedWriteVerdict(policy, call);
      if (guarded) return guarded;
      // auto-in-workspace: only the writable roots (which may be narrower than the workspace);
      // auto-edit: the whole workspace as well.
      const autoWritable =
        mode === 'confirm' ? [] : mode === 'auto-edit' ? [workspace, ...writable] : writable;
      const outside = paths.filter((p) => !insideAny(autoWritable)(p));
      if (outside.length === 0) return ALLOW;
      const shown = mode === 'confirm' || call.paths.length === 0 ? call.paths : outside;
      return needs(`write to ${describePaths(shown, workspace)}${byTool(call, 'write')}`);
    }
    case 'exec':
      return needs(`running commands with '${call.toolName}'`);
    case 'mcp':
      return needs(`MCP tool '${call.toolName}'`);
    case 'config':
      return needs(`configuration change by '${call.toolName}'`);
  }
}

/**
 * What a person allowed for the rest of the delegation (src/policy/grants.ts) turns an `ask`
 * into `allow`, except a write into a protected root or to a hard-linked file: those ask every
 * time, whoever allowed what, because such a write can widen the agent's own authority.
 */
function grantedVerdict(policy: PolicyInput, call: PolicyCall, verdict: Verdict): Verdict {
  const grants = policy.grants ?? [];
  if (verdict.kind !== 'ask' || grants.length === 0) return verdict;
  if (
    call.toolClass === 'write' &&
    (protectedWriteVerdict(policy, call) ?? linkedWriteVerdict(policy, call))
  ) {
    return verdict;
  }
  const grant = grantCovering(grants, {
    tool: call.calledName ?? call.toolName,
    toolClass: call.toolClass,
    paths: call.paths,
    command: call.command,
    mcpTarget: call.mcpTarget,
  });
  return grant === undefined ? verdict : { kind: 'allow', grant: grant.n };
}

/**
 * A read naming a path inside a hidden root (the configuration file, the data directory) is
 * refused in every mode. Only the paths the call names count: a call that names none (glob
 * without `path`, memory_read) is not refused, nor is a tree that merely contains a hidden root
 * (a grep over the whole workspace, which usually holds the data directory): the tools skip
 * hidden entries instead (isHiddenFromAgents in src/paths/deputy-roots.ts).
 */
function hiddenReadVerdict(policy: PolicyInput, call: PolicyCall): Verdict | undefined {
  if (call.toolClass !== 'read') return undefined;
  const hidden = call.paths.filter((p) => isHiddenPath(policy.hiddenRoots ?? [], p));
  if (hidden.length === 0) return undefined;
  const what = `read of ${showPaths(hidden, policy.workspaceRoot)}${byTool(call, 'read')}`;
  return {
    kind: 'deny',
    reason:
      `deputy's configuration is not readable by agents: ${what} is refused in every ` +
      'approvalMode (its configuration file and data directory are off limits); go on without it',
  };
}

/** A write into a protected root asks outside full-access; the reason says what it changes. */
function protectedWriteVerdict(policy: PolicyInput, call: PolicyCall): Verdict | undefined {
  const roots = policy.protectedRoots ?? [];
  const touched = new Map<ProtectedKind, string[]>();
  for (const p of call.paths) {
    const root = roots.find((candidate) => isInside(candidate.path, p));
    if (root) touched.set(root.kind, [...(touched.get(root.kind) ?? []), p]);
  }
  if (touched.size === 0) return undefined;
  const changes = [...touched]
    .map(
      ([kind, paths]) => `${PROTECTED_CHANGES[kind]} (${showPaths(paths, policy.workspaceRoot)})`,
    )
    .join(' and ');
  const bypass = policy.approvalMode === 'full-access' ? ' (permissionMode bypassPermissions)' : '';
  return {
    kind: 'ask',
    reason:
      `'${call.toolName}' ${changes}; protected paths need approval under approvalMode ` +
      policy.approvalMode +
      bypass,
  };
}

/**
 * A write to a file that has other names (hard links) asks outside full-access: one of them may
 * be a trusted file, and they cannot all be found and checked.
 */
function linkedWriteVerdict(policy: PolicyInput, call: PolicyCall): Verdict | undefined {
  const linked = call.linkedPaths ?? [];
  if (linked.length === 0) return undefined;
  const bypass = policy.approvalMode === 'full-access' ? ' (permissionMode bypassPermissions)' : '';
  return {
    kind: 'ask',
    reason:
      `'${call.toolName}' changes ${showPaths(linked, policy.workspaceRoot)}, which has other ` +
      'names (hard links) that cannot all be checked; a file with hard links needs approval ' +
      `under approvalMode ${policy.approvalMode}${bypass}`,
  };
}

/** What the model reads when plan mode refuses a change. */
function planModeText(toolName: string): string {
  return (
    `the agent is in plan mode (permissionMode plan): it is read-only, so '${toolName}' may ` +
    'not change files or run commands; read what you need and present the plan in your answer'
  );
}

/** Workspace paths relative (`.git/config`), others absolute: for reasons that name a root. */
function showPaths(paths: string[], workspace: string): string {
  return paths.map((p) => relativeInside(workspace, p) || p).join(', ');
}

/** Workspace paths read relative (`src/a.ts`); others absolute, marked so a reviewer notices. */
function describePaths(paths: string[], workspace: string): string {
  if (paths.length === 0) return 'the workspace';
  return paths
    .map((p) => {
      const relative = relativeInside(workspace, p);
      if (relative === undefined) return `${p} (outside the workspace)`;
      return relative === '' ? '.' : relative;
    })
    .join(', ');
}

/** Names the tool when the verb alone does not (`edit` is a write, `grep` a read). */
function byTool(call: PolicyCall, verb: string): string {
  return call.toolName === verb ? '' : ` by '${call.toolName}'`;
}

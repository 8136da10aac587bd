import { isInside } from './path-containment.js';

/** Approval modes, strictest first (docs/policy.md, "Approval modes"). */
export const APPROVAL_MODES = ['confirm', 'auto-in-workspace', 'auto-edit', 'full-access'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/**
 * Claude Code's permission modes. An agent file may set one (`permissionMode`, mapped onto the
 * policy by src/policy/permission-mode.ts), and a caller may state its own, which caps
 * what the delegation runs with. Here, not in definitions/, because delegation options
 * (sandbox-safe) name it too.
 */
export const PERMISSION_MODES = [
  'default',
  'acceptEdits',
  'dontAsk',
  'bypassPermissions',
  'plan',
] as const;
export type PermissionMode = (typeof PERMISSION_MODES)[number];

/** `value` is one of PERMISSION_MODES: what a door checks a caller's stated mode with. */
export function isPermissionMode(value: unknown): value is PermissionMode {
  return (PERMISSION_MODES as readonly unknown[]).includes(value);
}

/** Why `value` is no caller permission mode, or null when it is one: every door's words. */
export function callerModeProblem(value: unknown): string | null {
  if (isPermissionMode(value)) return null;
  const shown = typeof value === 'string' ? `'${value.slice(0, 80)}'` : typeof value;
  return `unknown permission mode ${shown}: callerMode is one of ${PERMISSION_MODES.join(', ')} (as Claude Code names them)`;
}

/** What happens to `ask` when no human will answer. */
export type UnattendedVerdict = 'ask' | 'deny';

/**
 * What a protected root holds; decide() words its card reason from it. `definitions`: agent
 * definitions and deputy's configuration (`.subagents/`, `.claude/`, `.qwen/`, the user level);
 * `skills`: skill folders every agent is offered (`.agents/skills/`, plugin folders);
 * `mcp`: `.mcp.json`, whose servers deputy starts; `runtime`: deputy's own code and the programs
 * it runs; `git`: the workspace's `.git/`; `data`: deputy's data directory. The list of where each
 * lies is src/paths/trusted-files.ts.
 */
export type ProtectedKind =
  | 'definitions'
  | 'skills'
  | 'mcp'
  | 'runtime'
  | 'git'
  | 'data'
  /** Files npm, npx and Node read when a person launches deputy (`.npmrc`, `package.json`). */
  | 'launcher'
  /** A file a hook or an MCP server command runs, or a scripted model's script. */
  | 'script';

/**
 * A folder where a write always needs a card outside `full-access`, whatever the writable roots
 * say (docs/policy.md, "Protected paths"): no agent may widen its own authority by editing.
 */
export interface ProtectedRoot {
  kind: ProtectedKind;
  /** Absolute, already resolved (symlinks followed) path. */
  path: string;
}

/**
 * What Claude Code's `permissionMode` adds to an approval mode (src/policy/permission-mode.ts).
 * All optional: a snapshot resolved before they existed has none and decides as it did.
 */
export interface PolicyFlags {
  /** `plan`: every write, `bash` and configuration call is denied, saying the agent is in plan mode. */
  readOnly?: boolean;
  /** `dontAsk`: what would ask is denied at once, telling the model no one will answer. */
  noHuman?: boolean;
  /** `bypassPermissions`: `full-access`, but a write into a protected root still asks. */
  protectInFullAccess?: boolean;
}

export interface PolicyInput extends PolicyFlags {
  approvalMode: ApprovalMode;
  /** Absolute, already resolved workspace root. */
  workspaceRoot: string;
  /**
   * Absolute, already resolved roots where `auto-in-workspace` allows writes: the configured
   * `writableRoots` when there are any (they may be narrower than the workspace), else the
   * workspace. `auto-edit` allows writes in the whole workspace as well. Empty: the workspace.
   */
  writableRoots: string[];
  /** Writes inside these ask in every mode but `full-access`. Missing or empty: none. */
  protectedRoots?: ProtectedRoot[];
  /**
   * Absolute, already resolved files and folders no agent may read, in any mode: the
   * configuration file (it may hold MCP secrets) and the data directory. Missing or empty: none.
   */
  hiddenRoots?: string[];
  unattended: UnattendedVerdict;
  /**
   * What a person allowed for the rest of this delegation (src/policy/grants.ts): a
   * call one of them covers is allowed where it would ask. Missing or empty: none.
   */
  grants?: Grant[];
}

/**
 * The scope of a grant (docs/policy.md): `paths`, the exact files and folders the approved call
 * touched (absolute, resolved); `commands`, `Bash(...)` patterns as Claude Code writes them, one
 * per simple command of the approved one; `mcp`, one MCP server's tool (`server/tool`).
 */
export type GrantScope =
  | { kind: 'paths'; paths: string[] }
  | { kind: 'commands'; patterns: string[] }
  | { kind: 'mcp'; target: string };

/** An approval for the rest of a delegation (`allow: 'delegation'` on a card). */
export interface Grant {
  /** 1, 2, ... in the order they were granted; never reused, also after a revocation. */
  n: number;
  /** The tool it allows, by the name the model calls it. */
  tool: string;
  scope: GrantScope;
  /** The card whose approval granted it. */
  cardId: string;
  grantedBy: string | null;
  grantedAt: string;
  /** Set once revoked: it covers nothing from then on, and stays listed so the record holds. */
  revoked?: { at: string; by: string | null };
  /**
   * `session` (`allow: 'session'`): it covers the session's own calls and every
   * delegation the session starts with Task (docs/policy.md, "Allow for the rest of the
   * session"). Absent: this delegation only.
   */
  for?: 'session';
  /** A session grant given on a child's card: the child whose card it was. */
  delegationId?: string;
}

/**
 * `path` is one of `hiddenRoots` or lies below one (both absolute and already resolved). The one
 * rule for "agents may not read this": decide() refuses such reads, and the Node-side tools that
 * list or search a tree (glob, grep) skip such entries through isHiddenFromAgents
 * (src/paths/deputy-roots.ts), which resolves the entry and then asks this function.
 */
export function isHiddenPath(hiddenRoots: readonly string[], path: string): boolean {
  return hiddenRoots.some((root) => isInside(root, path));
}

export type Verdict =
  /** `grant`: allowed by that grant where it would have asked. */
  | { kind: 'allow'; grant?: number }
  | { kind: 'ask'; reason: string }
  | { kind: 'deny'; reason: string };

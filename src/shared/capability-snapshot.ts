import type { DelegateTarget } from './tools/delegation-tools.js';
import type { Diagnostic } from './diagnostics.js';
import type { ApprovalMode, PermissionMode, PolicyFlags } from './policy-contract.js';
import type { ToolSchema } from './tools/tool-contract.js';
import type { SandboxBounds } from './sandbox-contract.js';
import type { WebhookRoutes } from './workflow-contract/notifications.js';

/** Where a definition came from. `ecosystem` = Claude Code / qwen-code files read as they are. */
export type DefinitionLevel = 'builtin' | 'user' | 'project' | 'ecosystem';

export interface KnowledgeSourceRef {
  name: string;
  /** Workspace-relative glob, already validated not to escape. */
  glob: string;
}

export interface SkillRef {
  name: string;
  description: string;
  /** Absolute path of the skill's SKILL.md. */
  location: string;
}

export type MemoryMode = 'none' | 'private' | 'shared';

export interface MemoryRef {
  mode: Exclude<MemoryMode, 'none'>;
  /** Absolute directory fixed at resolution time; memory tools cannot reach outside it. */
  directory: string;
}

/** Declared MCP server, as the scoped gateway needs it (secrets are never inside a snapshot). */
export interface McpServerRef {
  name: string;
  /** Tools that run without a card (the server's `approve` list). */
  approve: string[];
  /** Per-call timeout in seconds; 0 = none. */
  toolTimeoutSeconds: number;
}

/** A definition hook: a shell command run at `PreToolUse`, `PostToolUse` or `Stop`. */
export interface HookCommandRef {
  command: string;
  /** Default 60. */
  timeoutSeconds?: number;
  /**
   * Written in Claude Code's `{matcher, hooks: [{type: command, command, timeout}]}` form: runs
   * with Claude Code's input JSON and output contract (src/activities/claude-hooks.ts). Absent
   * = deputy's own form.
   */
  format?: 'claude';
  /** Claude Code's matcher over its tool names (`Bash|Edit`); absent = every tool. */
  matcher?: string;
}

export interface SnapshotLimits {
  /** Model-and-tool rounds per delegation (the definition's `maxTurns`, default 40). */
  maxTurns: number;
  /** Tool results above this many characters are cut before entering history. */
  toolResultMaxChars: number;
  /** The definition's `maxTokens`: only when it sets one (other snapshots stay as they were). */
  maxTokens?: number;
}

/** What an approval card becomes when its deadline passes. */
export const CARD_TIMEOUT_OUTCOMES = ['deny', 'approve'] as const;
export type CardTimeoutOutcome = (typeof CARD_TIMEOUT_OUTCOMES)[number];

/**
 * Deadlines of a delegation's approval cards: the definition's `cardTimeout`, `cardReminder`
 * and `cardTimeoutOutcome`, each falling back to the workspace's `cards` section. Absent from a
 * snapshot when no timeout applies: its cards wait for a decision as long as it takes.
 */
export interface CardDeadlines {
  /** A card is settled this long after it opened (unless the delegation's start set its own). */
  timeoutMs: number;
  /** A reminder fires this long before the deadline; absent: none. */
  reminderMs?: number;
  outcome: CardTimeoutOutcome;
  /** Where the timeout came from: the delegation's start is only in the run, never here. */
  source: 'definition' | 'workspace' | 'delegation';
}

/**
 * What a definition resolved into for one caller at one moment. `resolveAgent` returns it as
 * the first step of a delegation, so it lives in workflow history: editing the file later
 * changes nothing for a running delegation, and replay stays deterministic.
 */
export interface CapabilitySnapshot {
  agentName: string;
  description: string;
  level: DefinitionLevel;
  /** sha256 of the definition file's bytes: identifies the revision that ran. */
  definitionHash: string;
  /** Model handle as configured: `provider/model` or `scripted:<workspace-relative path>`. */
  model: string;
  /** Framing -> capability catalog -> body, always in that order. */
  systemPrompt: string;
  tools: ToolSchema[];
  /**
   * Claude Code tool patterns (`Bash(git:*)`, `Read(docs/**)`), by tool name: that tool runs
   * only calls the patterns cover (src/policy/tool-patterns.ts). Absent in snapshots resolved
   * before patterns existed, and for tools granted without a pattern.
   */
  toolPatterns?: Record<string, string[]>;
  skills: SkillRef[];
  knowledge: KnowledgeSourceRef[];
  mcpServers: McpServerRef[];
  memory: MemoryRef | null;
  /** The mode in effect: the definition's `approvalMode`, or what its `permissionMode` maps to. */
  approvalMode: ApprovalMode;
  /**
   * What the definition's `permissionMode` adds (plan, dontAsk, bypassPermissions). Absent in
   * snapshots resolved before the mapping existed, and when there is nothing to add.
   */
  policyFlags?: PolicyFlags;
  /**
   * The permission mode the caller stated. `approvalMode` and `policyFlags`
   * are then the lower of the agent's and this mode's (src/policy/permission-ceiling.ts).
   * Absent when the caller stated none, and in snapshots resolved before callers could.
   */
  callerMode?: PermissionMode;
  /**
   * With `callerMode` only: what the agent runs with by itself, before the caller's ceiling
   * (its `approvalMode`, or what its `permissionMode` maps to; `policyFlags` only when any).
   */
  agentPolicy?: { approvalMode: ApprovalMode; policyFlags?: PolicyFlags };
  background: boolean;
  /**
   * A session's main agent only: the agents its `Task` may start. Absent on every
   * delegate, which has no delegation tools.
   */
  delegation?: { targets: DelegateTarget[] };
  limits: SnapshotLimits;
  /** Only when a card timeout applies: other snapshots stay as they were (replay). */
  cardDeadlines?: CardDeadlines;
  /** The workspace's webhooks by event, when it has any: who the delegation notifies. */
  webhooks?: WebhookRoutes;
  /** Hooks by event, as the definition declared them; absent or empty = none run. */
  hooks?: Record<string, HookCommandRef[]>;
  /** Roles it runs with, its caller's; empty with `callerAnonymous` = auth disabled. */
  callerRoles: string[];
  diagnostics: Diagnostic[];
  /**
   * What the agent's bash calls may touch (src/sandbox/); absent: the sandbox is off (`sandbox:
   * off`, or declared nowhere) and they run as the worker's user, as before.
   */
  sandbox?: SandboxBounds;
}

/**
 * Inputs and outputs of deputy's activities. The workflow imports this file for types only,
 * so it may name Node-side types but must not be imported as a value from the sandbox.
 */
import type { CommandAnalysis } from '../tools/command-analysis.js';
import type { CapabilitySnapshot, HookCommandRef } from '../capability-snapshot.js';
import type { Caller } from '../caller.js';
import type { DelegationResult } from '../delegation.js';
import type {
  BlobRef,
  ModelResponse,
  ToolCallRequest,
  TranscriptEntry,
} from '../model-contract.js';
import type { PermissionMode, ProtectedRoot } from '../policy-contract.js';

export interface ResolveAgentInput {
  agent: string;
  caller: Caller;
  /** Resolve as a session's main agent, with the delegation tools. */
  asSession?: boolean;
  /** A model to run instead of the definition's (`Task`'s `model`); refused when unknown. */
  model?: string;
  /** The session's model, for a definition that says `model: inherit`. */
  parentModel?: string;
  /**
   * The permission mode the caller stated: the snapshot's policy is the lower
   * of the agent's and this. Absent: the agent's own, as before.
   */
  callerMode?: PermissionMode;
}

/**
 * How a tool or model call carries the capability snapshot: by reference when `resolveAgent`
 * stored it (src/activities/snapshot-store.ts), whole for runs resolved before references
 * existed and when the store lost it.
 */
export type SnapshotCarrier =
  | { snapshotRef: BlobRef; snapshot?: never }
  | { snapshot: CapabilitySnapshot; snapshotRef?: never };

/** A model call: the system prompt and tools are the snapshot's, inline or by its reference. */
export type CallModelInput = ModelCallContext &
  (
    | { system: string; tools: CapabilitySnapshot['tools']; snapshotRef?: never }
    | { snapshotRef: BlobRef; system?: never; tools?: never }
  );

export interface ModelCallContext {
  agentName: string;
  /** Snapshot level decides where a `scripted:` path is resolved (project root for built-ins). */
  level: CapabilitySnapshot['level'];
  model: string;
  transcript: TranscriptEntry[];
}

/** A model call with its prompt and tools at hand, as the adapter needs them. */
export type ModelCall = ModelCallContext & {
  system: string;
  tools: CapabilitySnapshot['tools'];
};

export interface ModelTurn extends ModelResponse {
  /**
   * The answering model's context window in tokens (for compaction); absent in turns
   * recorded before it, and when the model's window is unknown (a scripted model without one).
   */
  contextTokens?: number;
  /**
   * Canonical (symlink-resolved) paths of each tool call, by call id. Resolved here, on the
   * Node side, so the workflow's policy decision stays a pure function of recorded inputs.
   */
  callPaths: Record<string, string[]>;
  /**
   * Each call's paths that are existing files with more than one hard link, by call id: a write
   * to one asks outside `full-access` (its other names cannot all be checked). Absent in turns
   * recorded before hard links were checked, and when there are none.
   */
  linkedPaths?: Record<string, string[]>;
  /**
   * What each `bash` call's command would run (src/tools/shell-analysis.ts), by call id, for
   * `Bash(...)` tool patterns. Absent in turns recorded before patterns existed.
   */
  callCommands?: Record<string, CommandAnalysis>;
}

export type RunToolInput = SnapshotCarrier & { call: ToolCallRequest };

/** A tool call with its snapshot at hand, as the toolbox needs it. */
export interface ToolRun {
  snapshot: CapabilitySnapshot;
  call: ToolCallRequest;
}

export interface ToolOutcome {
  /** The result, or its preview when `blob` is set. */
  content: string;
  isError: boolean;
  blob?: BlobRef;
}

/** What `resolveAgent` returns: the snapshot plus the roots policy compares paths with. */
export interface ResolvedAgent {
  snapshot: CapabilitySnapshot;
  /**
   * The snapshot in the blob store: what tool and model calls carry instead of the snapshot.
   * Absent in runs resolved before references existed, which carry it whole.
   */
  snapshotRef?: BlobRef;
  /** Real absolute workspace root and writable roots, fixed for the whole delegation. */
  workspaceRoot: string;
  writableRoots: string[];
  /**
   * Roots whose writes always ask outside full-access, and paths agents may never read.
   * Optional because this object is recorded in history: a delegation resolved before these
   * existed (in flight, or a recorded history) has neither, and must replay as it ran, so
   * missing means none.
   */
  protectedRoots?: ProtectedRoot[];
  hiddenRoots?: string[];
}

export interface StopHooksInput {
  hooks: CapabilitySnapshot['hooks'];
  agent: string;
  result: DelegationResult;
}

/** A Claude Code hook's permission decision. */
export type ClaudeDecision = 'allow' | 'deny' | 'ask';

/** The PreToolUse hooks of one call, run by the activity of src/activities/claude-hooks.ts. */
export interface PreToolHooksInput {
  /** The PreToolUse hooks in Claude Code's form whose matcher matched, in order. */
  hooks: HookCommandRef[];
  /** Claude Code's name of the tool (`Bash`, `Write`, `mcp__server__tool`). */
  toolName: string;
  call: ToolCallRequest;
}

export interface PreToolHooksAnswer {
  /** The strictest decision any hook gave (deny > ask > allow); null = none gave one. */
  decision: ClaudeDecision | null;
  /** The deciding hook's reason (exit 2: its stderr). */
  reason: string;
  /** Non-blocking errors: a hook that failed otherwise, timed out, or wrote unreadable JSON. */
  errors: string[];
}

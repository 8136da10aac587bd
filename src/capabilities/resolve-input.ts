/**
 * What capability resolution reads: the definition, the part of the configuration it needs, the
 * caller, and what the agent resolver read from disk beforehand. Apart from resolve.ts so the
 * modules it is built from (mcp-servers.ts...) name these types without importing it back.
 */
import type { ConfiguredMcpServer, DeputyConfig } from '../config/schema.js';
import type { LoadedDefinition } from '../definitions/definition.js';
import type { Caller } from '../shared/caller.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import type { PermissionMode } from '../shared/policy-contract.js';
import type { ResidentMemory } from '../shared/resident-memory.js';
import type { DelegateTarget } from '../shared/tools/delegation-tools.js';
import type { ToolProviderInfo } from '../shared/tools/tool-contract.js';
import type { McpLiveLookup } from './mcp-live.js';
import type { SkillIndex } from './skill-discovery.js';

/** The part of the configuration resolution reads; a `DeputyConfig` fits as it is. */
export interface CapabilityConfigView {
  workspace: string;
  dataDir: string;
  mcpServers: Record<
    string,
    Pick<ConfiguredMcpServer, 'enabled' | 'approve'> & { toolTimeoutSeconds?: number | undefined }
  >;
  /** Default per-MCP-call timeout in seconds. */
  mcpToolTimeoutSeconds: number;
  writableRoots?: DeputyConfig['writableRoots'];
  /** The workspace's card deadlines; omitted: none. */
  cards?: DeputyConfig['cards'];
  /** The workspace's webhooks; omitted: none. */
  notifications?: DeputyConfig['notifications'];
  /** The sandbox of definitions that declare none; omitted: off. */
  sandbox?: DeputyConfig['sandbox'];
}

export interface ResolveInput {
  loaded: LoadedDefinition;
  config: CapabilityConfigView;
  caller: Caller;
  skillIndex: SkillIndex;
  /**
   * Discovery's diagnostics (`discoverSkills(...).diagnostics`). Optional: when a declared skill
   * is missing because its SKILL.md was skipped as invalid, the diagnostic says why.
   */
  skillProblems?: Diagnostic[];
  /** Model handle already resolved from `default`, aliases and operator overrides. */
  resolvedModel: string;
  /**
   * Resident memory of `memoryDirectory(...)`, read by the caller. Ignored when the definition
   * declares no memory; omitted = empty.
   */
  residentMemory?: ResidentMemory | null;
  /** Tool catalog; defaults to `TOOL_PROVIDERS` (tests may pass their own). */
  providers?: readonly ToolProviderInfo[];
  /** The declared MCP servers as the worker's pool sees them now; omitted = unknown. */
  mcpLive?: McpLiveLookup;
  /**
   * Resolve as a session's main agent: with the delegation tools, whose `Task` lists
   * these agents (every definition; the agent itself is left out). Absent = a delegate, which
   * never has them.
   */
  session?: { agents: readonly DelegateTarget[] };
  /**
   * The permission mode the caller stated (docs/policy.md, "The caller's ceiling"): the snapshot's
   * policy is the lower of the agent's and this mode's. Absent: the agent's own.
   */
  callerMode?: PermissionMode;
  /**
   * Places no agent may read, resolved (deputyRoots(config).hiddenRoots): a sandbox path inside
   * one is left out. Omitted: the data directory and config.yaml as written.
   */
  hiddenRoots?: readonly string[];
  /** Where a sandbox path really is (realpathLenient); omitted: as written. */
  realpath?: (absolute: string) => string;
}

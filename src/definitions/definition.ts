import type {
  DefinitionLevel,
  KnowledgeSourceRef,
  MemoryMode,
} from '../shared/capability-snapshot.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import type { CardTimeoutOutcome } from '../shared/capability-snapshot.js';
import type { ApprovalMode } from '../shared/policy-contract.js';
import type { PermissionMode } from './schema.js';
import type { SandboxDeclaration } from '../config/sandbox-schema.js';

export interface HookCommand {
  command: string;
  timeoutSeconds?: number;
  /** Read from Claude Code's `{matcher, hooks}` form (see HookCommandRef). */
  format?: 'claude';
  matcher?: string;
}

/** An MCP server written inline in a definition. */
export interface InlineMcpServer {
  name: string;
  transport: 'stdio' | 'http';
  command?: string;
  args?: string[];
  env?: Record<string, string>;
  endpoint?: string;
  headers?: Record<string, string>;
  toolTimeoutSeconds?: number;
  auth?: 'bearer';
  /** OAuth client credentials (http only); the API shows `clientSecret` as `__redacted__`. */
  oauth?: { clientId: string; clientSecret?: string; tokenUrl?: string; scopes?: string[] };
  approve?: string[];
}

/** A parsed agent definition with every field's default applied. */
export interface AgentDefinition {
  name: string;
  description: string;
  /** `default`, a catalog handle `provider/model`, or `scripted:<workspace-relative path>`. */
  model: string;
  /**
   * `model: inherit` (Claude Code): started by a session's Task, the agent runs on the session's
   * model; started directly, on `model` (`default`). Absent otherwise.
   */
  inheritsModel?: true;
  /** `null` = omitted: every role-permitted tool. `[]` behaves the same. */
  tools: string[] | null;
  disallowedTools: string[];
  skills: string[];
  mcpServers: Array<string | InlineMcpServer>;
  knowledge: KnowledgeSourceRef[];
  memory: MemoryMode;
  maxTurns: number;
  /** Token budget (input + output) of each delegation; absent: none. */
  maxTokens?: number;
  approvalMode: ApprovalMode;
  /**
   * Claude Code's `permissionMode`, as written; null when the file has none. Mapped onto the
   * policy at resolution (src/policy/permission-mode.ts) unless `approvalMode` is set too.
   */
  permissionMode: PermissionMode | null;
  /** True when `permissionMode` decides approvals: the file sets it and no valid approvalMode. */
  permissionModeApplies?: boolean;
  background: boolean;
  /**
   * How long its approval cards wait for a decision (`30m`, `2h`), as written; absent: the
   * workspace's `cards.timeout`, or no deadline. A bad value is left out with a diagnostic.
   */
  cardTimeout?: string;
  /** A reminder this long before a card's deadline (`10m`); absent: the workspace's, or none. */
  cardReminder?: string;
  /** What a card becomes when its deadline passes; absent: the workspace's, or `deny`. */
  cardTimeoutOutcome?: CardTimeoutOutcome;
  hooks: Record<string, HookCommand[]>;
  /**
   * What bash may touch, as written (`off`, `on` or bounds); absent: the workspace's
   * `sandbox`, else off.
   */
  sandbox?: SandboxDeclaration;
  color: string;
  icon: string;
  displayOrder: number;
  /** The Markdown body, byte for byte. */
  systemPrompt: string;
  /** Frontmatter keys deputy does not know, kept to be written back unchanged. */
  unknownKeys: Record<string, unknown>;
}

/** A definition as the registry holds it: where it came from and what was wrong with it. */
export interface LoadedDefinition {
  definition: AgentDefinition;
  level: DefinitionLevel;
  readOnly: boolean;
  filePath: string;
  /** sha256 hex of the file's bytes. */
  contentHash: string;
  diagnostics: Diagnostic[];
}

export const DEFINITION_DEFAULTS = {
  model: 'default',
  memory: 'none',
  maxTurns: 40,
  approvalMode: 'confirm',
  background: false,
  color: '#31AEE4',
  icon: 'bot',
  displayOrder: 0,
} as const;

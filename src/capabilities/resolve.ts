import { join } from 'node:path';
import type { ConfiguredMcpServer, DeputyConfig } from '../config/schema.js';
import type { LoadedDefinition } from '../definitions/definition.js';
import { effectivePolicy } from '../definitions/read/permission-mode.js';
import type { Caller } from '../shared/caller.js';
import type {
  CardDeadlines,
  CapabilitySnapshot,
  KnowledgeSourceRef,
  McpServerRef,
  MemoryMode,
  MemoryRef,
  SkillRef,
} from '../shared/capability-snapshot.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import { parseDuration } from '../shared/duration.js';
import type { WebhookRoutes } from '../shared/notifications.js';
import type { ToolProviderInfo } from '../shared/tools/tool-contract.js';
import { knowledgeGlobProblem } from '../shared/knowledge-glob.js';
import { assembleSystemPrompt, MAIN_AGENT_FRAMING, SUBAGENT_FRAMING } from './prompt.js';
import { delegationSpecs } from './delegation-targets.js';
import { delegationToolSchemas, type DelegateTarget } from '../shared/tools/delegation-tools.js';
import type { ResidentMemory } from '../shared/resident-memory.js';
import { TOOL_PROVIDERS } from './providers.js';
import { resolveTools } from './resolve-tools.js';
import type { McpLiveLookup, McpServerLive } from './mcp-live.js';
import type { SkillIndex } from './skill-discovery.js';

/**
 * Capability resolution (SPEC section 2): definition + configuration + caller roles ->
 * capability snapshot with diagnostics. A pure function: everything that needs the file system
 * (skill discovery, resident memory) is read beforehand and passed in, so it is testable
 * without a server and deterministic for the delegation that records its result (RUN-1).
 */

export const MAX_SKILLS = 16;
export const TOOL_RESULT_MAX_CHARS = 32_000;

/** The part of the configuration resolution reads; a `DeputyConfig` fits as it is. */
export interface CapabilityConfigView {
  workspace: string;
  dataDir: string;
  mcpServers: Record<
    string,
    Pick<ConfiguredMcpServer, 'enabled' | 'approve'> & { toolTimeoutSeconds?: number | undefined }
  >;
  /** Default per-MCP-call timeout in seconds (CAP-3). */
  mcpToolTimeoutSeconds: number;
  writableRoots?: DeputyConfig['writableRoots'];
  /** The workspace's card deadlines; omitted: none. */
  cards?: DeputyConfig['cards'];
  /** The workspace's webhooks; omitted: none. */
  notifications?: DeputyConfig['notifications'];
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
   * Resolve as a session's main agent (RUN-7): with the delegation tools, whose `Task` lists
   * these agents (every definition; the agent itself is left out). Absent = a delegate, which
   * never has them.
   */
  session?: { agents: readonly DelegateTarget[] };
}

/** The memory directory of CAP-5: private per agent, or the main agent's shared one. */
export function memoryDirectory(
  dataDir: string,
  agentName: string,
  mode: MemoryMode,
): string | null {
  if (mode === 'none') return null;
  return mode === 'private'
    ? join(dataDir, 'memory', 'agents', agentName)
    : join(dataDir, 'memory', 'main');
}

export function resolveCapabilities(input: ResolveInput): CapabilitySnapshot {
  const { definition } = input.loaded;
  const providers = input.providers ?? TOOL_PROVIDERS;
  const diagnostics: Diagnostic[] = [];

  const knowledge = resolveKnowledge(definition.knowledge, diagnostics);
  const skills = resolveSkills(
    definition.skills,
    input.skillIndex,
    input.skillProblems ?? [],
    diagnostics,
  );
  const declaredServers = resolveMcpServers(definition.mcpServers, input.config, diagnostics);
  const live = liveServers(declaredServers, input.mcpLive, diagnostics);
  const memory = resolveMemory(
    input.config.dataDir,
    definition.name,
    definition.memory,
    diagnostics,
  );

  const declared = {
    knowledge: knowledge.length > 0,
    memory: memory !== null,
    skills: skills.length > 0,
    mcpServers: declaredServers.length > 0,
  };
  const delegation = input.session === undefined ? undefined : delegationSpecs();
  const { tools, removedServers, patterns } = resolveTools({
    tools: definition.tools,
    disallowed: definition.disallowedTools,
    providers,
    caller: input.caller,
    declared,
    mcpServers: declaredServers,
    mcpTool: (server, tool) => live.get(server)?.tools.find((entry) => entry.name === tool),
    ...(delegation === undefined ? {} : { delegation }),
    diagnostics,
  });
  const mcpServers = declaredServers.filter((server) => !removedServers.has(server.name));
  if (declaredServers.length > 0 && mcpServers.length === 0) {
    // Every declared server was disallowed: a gateway with nothing behind it is not mounted.
    for (let index = tools.length - 1; index >= 0; index -= 1) {
      if (tools[index]?.provider === 'Mcp') tools.splice(index, 1);
    }
  }
  const toolNames = new Set(tools.map((tool) => tool.name));
  // Appended after the agent's own tools: scoping has run, roles cannot take delegating away
  // (it grants nothing the children would not resolve under the same roles, POL-4).
  const targets =
    input.session === undefined || delegation === undefined
      ? null
      : delegation.targets(input.session.agents, definition.name, diagnostics);
  if (targets !== null) tools.push(...delegationToolSchemas(targets));

  // A dimension is in effect only while one of its tools survived `disallowedTools`/roles:
  // otherwise its catalog section would advertise something the agent cannot use.
  const inEffect = {
    knowledge: declared.knowledge && toolNames.has('kb_search'),
    skills: declared.skills && toolNames.has('use_skill'),
    mcpServers: declared.mcpServers && tools.some((tool) => tool.provider === 'Mcp'),
    memory: declared.memory && tools.some((tool) => tool.provider === 'Memory'),
  };
  for (const [dimension, on] of Object.entries(inEffect)) {
    if (declared[dimension as keyof typeof declared] && !on) {
      diagnostics.push({
        severity: 'warning',
        path: dimension,
        code: 'capability.tools-removed',
        message: `${dimension} is declared but its tools were removed (disallowedTools or the caller's roles), so it is left out of the prompt`,
      });
    }
  }
  if (inEffect.knowledge && !toolNames.has('read')) {
    diagnostics.push({
      severity: 'warning',
      path: 'knowledge',
      code: 'knowledge.without-read',
      message:
        "knowledge is declared without the 'read' tool: kb_search returns path:line hits the agent cannot open; add read to tools",
    });
  }

  const resident = input.residentMemory ?? { files: [], notes: [] };
  const policy = policyOf(definition);
  const systemPrompt = assembleSystemPrompt({
    framing: input.session === undefined ? SUBAGENT_FRAMING : MAIN_AGENT_FRAMING,
    // What the policy will refuse, said up front (absent flags and patterns add no byte).
    toolPatterns: patterns,
    ...(policy.policyFlags === undefined ? {} : { policyFlags: policy.policyFlags }),
    skills: inEffect.skills ? skills : [],
    knowledge: inEffect.knowledge ? knowledge : [],
    mcpServers: inEffect.mcpServers ? mcpServers : [],
    mcpLive: live,
    memory:
      inEffect.memory && memory !== null
        ? { mode: memory.mode, residentFiles: resident.files, notes: resident.notes }
        : null,
    body: definition.systemPrompt,
  });

  return {
    agentName: definition.name,
    description: definition.description,
    level: input.loaded.level,
    definitionHash: input.loaded.contentHash,
    model: input.resolvedModel,
    systemPrompt,
    tools,
    // Only when a pattern restricts a tool: other snapshots stay as they were (replay).
    ...(Object.keys(patterns).length === 0 ? {} : { toolPatterns: patterns }),
    skills: inEffect.skills ? skills : [],
    knowledge: inEffect.knowledge ? knowledge : [],
    mcpServers: inEffect.mcpServers ? mcpServers : [],
    memory: inEffect.memory ? memory : null,
    // permissionMode's effect (issue 11), when the file sets it without approvalMode.
    ...policy,
    background: definition.background,
    // Only on a session's snapshot: delegates' snapshots stay as they were (replay).
    ...(targets === null ? {} : { delegation: { targets } }),
    limits: {
      maxTurns: definition.maxTurns,
      toolResultMaxChars: TOOL_RESULT_MAX_CHARS,
      ...(definition.maxTokens === undefined ? {} : { maxTokens: definition.maxTokens }),
    },
    ...cardDeadlinesOf(definition, input.config.cards, diagnostics),
    ...webhookRoutesOf(input.config.notifications),
    callerRoles: [...new Set(input.caller.roles)],
    diagnostics: dedupe([...input.loaded.diagnostics, ...diagnostics]),
  };
}

/**
 * The card deadlines in effect: each of the definition's three fields, else the workspace's.
 * A reminder that would fire before the card opens is left out, and said so.
 */
function cardDeadlinesOf(
  definition: LoadedDefinition['definition'],
  workspace: CapabilityConfigView['cards'],
  diagnostics: Diagnostic[],
): Pick<CapabilitySnapshot, 'cardDeadlines'> {
  const timeout = definition.cardTimeout ?? workspace?.timeout;
  if (timeout === undefined) return {};
  const timeoutMs = durationMs(timeout);
  const reminder = definition.cardReminder ?? workspace?.reminder;
  const reminderMs = reminder === undefined ? undefined : durationMs(reminder);
  const deadlines: CardDeadlines = {
    timeoutMs,
    outcome: definition.cardTimeoutOutcome ?? workspace?.timeoutOutcome ?? 'deny',
    source: definition.cardTimeout === undefined ? 'workspace' : 'definition',
  };
  if (reminderMs !== undefined && reminderMs < timeoutMs) deadlines.reminderMs = reminderMs;
  else if (reminderMs !== undefined) {
    diagnostics.push({
      severity: 'warning',
      path: 'cardReminder',
      code: 'cardReminder.not-before-deadline',
      message: `cardReminder ${reminder} is not shorter than cardTimeout ${timeout}: no reminder is sent`,
    });
  }
  return { cardDeadlines: deadlines };
}

/** Which webhooks take which events; nothing when the workspace has none (replay). */
function webhookRoutesOf(
  notifications: CapabilityConfigView['notifications'],
): Pick<CapabilitySnapshot, 'webhooks'> {
  const routes: WebhookRoutes = {};
  for (const [name, webhook] of Object.entries(notifications?.webhooks ?? {})) {
    for (const event of webhook.events) (routes[event] ??= []).push(name);
  }
  return Object.keys(routes).length === 0 ? {} : { webhooks: routes };
}

/** Milliseconds of a duration already checked on load or in the configuration. */
function durationMs(text: string): number {
  const parsed = parseDuration(text);
  if (!parsed.ok) throw new Error(`card deadline: ${parsed.problem}`);
  return parsed.ms;
}

/** The approval mode in effect and, only when there are any, the flags permissionMode adds. */
function policyOf(
  definition: LoadedDefinition['definition'],
): Pick<CapabilitySnapshot, 'approvalMode' | 'policyFlags'> {
  const { approvalMode, flags } = effectivePolicy(definition);
  return Object.keys(flags).length === 0 ? { approvalMode } : { approvalMode, policyFlags: flags };
}

/** DEF-1 agent names; checked again here because the name becomes a directory. */
const AGENT_NAME = /^[a-z0-9][a-z0-9-]*$/;

function resolveMemory(
  dataDir: string,
  agentName: string,
  mode: MemoryMode,
  diagnostics: Diagnostic[],
): MemoryRef | null {
  if (mode === 'none') return null;
  if (mode === 'private' && !AGENT_NAME.test(agentName)) {
    diagnostics.push({
      severity: 'error',
      path: 'memory',
      code: 'memory.invalid-agent-name',
      message: `private memory needs an agent name matching ${AGENT_NAME.source} (it names a directory); '${agentName}' does not, so memory is not mounted`,
    });
    return null;
  }
  const directory = memoryDirectory(dataDir, agentName, mode);
  return directory === null ? null : { mode, directory };
}

function resolveKnowledge(
  sources: KnowledgeSourceRef[],
  diagnostics: Diagnostic[],
): KnowledgeSourceRef[] {
  const result: KnowledgeSourceRef[] = [];
  const seen = new Set<string>();
  sources.forEach((source, index) => {
    const problem = knowledgeGlobProblem(source.glob);
    if (problem !== null) {
      diagnostics.push({
        severity: 'error',
        path: `knowledge[${index}].glob`,
        code: 'knowledge.glob-escapes',
        message: `knowledge source '${source.name}': glob ${JSON.stringify(source.glob)} is refused because ${problem}; the source is dropped`,
      });
      return;
    }
    const key = source.name.toLowerCase();
    if (seen.has(key)) {
      diagnostics.push({
        severity: 'warning',
        path: `knowledge[${index}].name`,
        code: 'knowledge.duplicate-name',
        message: `knowledge source name '${source.name}' is declared twice; the later one is dropped`,
      });
      return;
    }
    seen.add(key);
    result.push({ name: source.name, glob: source.glob });
  });
  return result;
}

function resolveSkills(
  declared: string[],
  index: SkillIndex,
  problems: Diagnostic[],
  diagnostics: Diagnostic[],
): SkillRef[] {
  const byLowerName = new Map(
    [...index.values()].map((skill) => [skill.name.toLowerCase(), skill]),
  );
  if (declared.length > MAX_SKILLS) {
    diagnostics.push({
      severity: 'error',
      path: 'skills',
      code: 'skill.too-many',
      message: `${declared.length} skills are declared but at most ${MAX_SKILLS} are allowed; not loaded: ${declared.slice(MAX_SKILLS).join(', ')}`,
    });
  }
  const result: SkillRef[] = [];
  declared.slice(0, MAX_SKILLS).forEach((name, index) => {
    const skill = byLowerName.get(name.toLowerCase());
    if (skill === undefined) {
      diagnostics.push({
        severity: 'warning',
        path: `skills[${index}]`,
        code: 'skill.not-found',
        message: `skill '${name}' was not found in any skill layer (workspace .subagents/skills, .claude/skills, .agents/skills, the runtime's skills/, ~/.claude/skills, plugin dirs): it is not in the catalog and use_skill cannot load it${skippedFolder(name, problems)}`,
      });
      return;
    }
    if (result.some((ref) => ref.name === skill.name)) return;
    result.push({ name: skill.name, description: skill.description, location: skill.location });
  });
  return result;
}

/** Discovery skipped a folder named like the missing skill: say why, it is the likely cause. */
function skippedFolder(name: string, problems: Diagnostic[]): string {
  const suffix = `/${name.toLowerCase()}/skill.md`;
  const problem = problems.find(
    (entry) => entry.code === 'skill.invalid' && entry.path.toLowerCase().endsWith(suffix),
  );
  return problem === undefined ? '' : `. Note: ${problem.message}`;
}

/**
 * Each declared server's live state, when the worker could say. A server that is configured but
 * not connected keeps its gateway entry and is "not in place yet", like a disabled one.
 */
function liveServers(
  servers: McpServerRef[],
  lookup: McpLiveLookup | undefined,
  diagnostics: Diagnostic[],
): Map<string, McpServerLive> {
  const live = new Map<string, McpServerLive>();
  if (lookup === undefined) return live;
  servers.forEach((server) => {
    const state = lookup(server.name);
    if (state === undefined) return;
    live.set(server.name, state);
    const alreadySaid = diagnostics.some(
      (diagnostic) =>
        (diagnostic.code === 'mcp.not-configured' || diagnostic.code === 'mcp.disabled') &&
        diagnostic.message.includes(`'${server.name}'`),
    );
    if (!state.connected && !alreadySaid) {
      diagnostics.push({
        severity: 'warning',
        path: 'mcpServers',
        code: 'mcp.not-connected',
        message: `MCP server '${server.name}' is declared but not connected: not in place yet (${state.problem ?? 'unknown'}). Its gateway entry is kept; calls work once it connects`,
      });
    }
  });
  return live;
}

function resolveMcpServers(
  declared: LoadedDefinition['definition']['mcpServers'],
  config: CapabilityConfigView,
  diagnostics: Diagnostic[],
): McpServerRef[] {
  const result: McpServerRef[] = [];
  const configuredNames = Object.keys(config.mcpServers);
  declared.forEach((entry, index) => {
    const path = `mcpServers[${index}]`;
    let ref: McpServerRef;
    if (typeof entry === 'string') {
      const name =
        configuredNames.find((candidate) => candidate === entry) ??
        configuredNames.find((candidate) => candidate.toLowerCase() === entry.toLowerCase());
      const configured = name === undefined ? undefined : config.mcpServers[name];
      if (name === undefined || configured === undefined) {
        diagnostics.push({
          severity: 'warning',
          path,
          code: 'mcp.not-configured',
          message: `MCP server '${entry}' is declared but not configured in this workspace (configured: ${list(configuredNames)}): not in place yet. Its gateway entry is kept; add it to mcpServers in .subagents/config.yaml`,
        });
        ref = { name: entry, approve: [], toolTimeoutSeconds: config.mcpToolTimeoutSeconds };
      } else {
        if (!configured.enabled) {
          diagnostics.push({
            severity: 'warning',
            path,
            code: 'mcp.disabled',
            message: `MCP server '${name}' is configured but disabled: not in place yet. Its gateway entry is kept; enable it in .subagents/config.yaml to use it`,
          });
        }
        ref = {
          name,
          approve: [...configured.approve],
          toolTimeoutSeconds: configured.toolTimeoutSeconds ?? config.mcpToolTimeoutSeconds,
        };
      }
    } else {
      ref = {
        name: entry.name,
        approve: [...(entry.approve ?? [])],
        toolTimeoutSeconds: entry.toolTimeoutSeconds ?? config.mcpToolTimeoutSeconds,
      };
    }
    if (result.some((other) => other.name.toLowerCase() === ref.name.toLowerCase())) {
      diagnostics.push({
        severity: 'warning',
        path,
        code: 'mcp.duplicate',
        message: `MCP server '${ref.name}' is declared twice; the later entry is ignored`,
      });
      return;
    }
    result.push(ref);
  });
  return result;
}

function list(names: string[]): string {
  return names.length === 0 ? 'none' : names.join(', ');
}

function dedupe(diagnostics: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return diagnostics.filter((diagnostic) => {
    const key = `${diagnostic.code}\0${diagnostic.path}\0${diagnostic.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

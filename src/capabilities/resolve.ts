import type { LoadedDefinition } from '../definitions/definition.js';
import { capPolicy } from '../policy/permission-ceiling.js';
import { effectivePolicy } from '../policy/permission-mode.js';
import type {
  CapabilitySnapshot,
  KnowledgeSourceRef,
  McpServerRef,
  MemoryRef,
  SkillRef,
} from '../shared/capability-snapshot.js';
import type { Diagnostic } from '../shared/diagnostics.js';
import type { ApprovalMode, PermissionMode, PolicyFlags } from '../shared/policy-contract.js';
import type { ToolSchema } from '../shared/tools/tool-contract.js';
import { delegationToolSchemas } from '../shared/tools/delegation-tools.js';
import { cardDeadlinesOf, webhookRoutesOf } from './deadlines-and-webhooks.js';
import { resolveKnowledge, resolveMemory, resolveSkills } from './declared-dimensions.js';
import { delegationSpecs, type DelegationSpecs } from './delegation-targets.js';
import type { McpServerLive } from './mcp-live.js';
import { liveServers, resolveMcpServers } from './mcp-servers.js';
import { assembleSystemPrompt, MAIN_AGENT_FRAMING, SUBAGENT_FRAMING } from './prompt.js';
import { TOOL_PROVIDERS, type CapabilityDimension } from './providers.js';
import type { ResolveInput } from './resolve-input.js';
import { resolveTools } from './tool-selection/resolve-tools.js';
import { sandboxOf } from './sandbox-bounds.js';
import path from 'node:path';
import { CONFIG_FILE } from '../paths/trusted-files.js';

/**
 * Capability resolution: definition + configuration + caller roles ->
 * capability snapshot with diagnostics. A pure function: everything that needs the file system
 * (skill discovery, resident memory) is read beforehand and passed in, so it is testable
 * without a server and deterministic for the delegation that records its result.
 */

export type { CapabilityConfigView, ResolveInput } from './resolve-input.js';
export const TOOL_RESULT_MAX_CHARS = 32_000;

/**
 * The snapshot a delegation runs with, whole: the agent resolver (src/worker/agent-resolver.ts) only
 * reads what this needs from disk, and the resolveAgent activity only masks and stores what it
 * returns. Nothing else adds to a snapshot.
 */
export function resolveCapabilities(input: ResolveInput): CapabilitySnapshot {
  const { definition } = input.loaded;
  const diagnostics: Diagnostic[] = [];
  const dimensions = resolveDimensions(input, diagnostics);
  const declared = {
    knowledge: dimensions.knowledge.length > 0,
    memory: dimensions.memory !== null,
    skills: dimensions.skills.length > 0,
    mcpServers: dimensions.servers.length > 0,
  };
  const delegation = input.session === undefined ? undefined : delegationSpecs();
  const own = selectTools(input, dimensions, declared, delegation, diagnostics);
  // Appended after the agent's own tools: scoping has run, roles cannot take delegating away
  // (it grants nothing: the children resolve under the caller's roles too).
  const targets =
    input.session === undefined || delegation === undefined
      ? null
      : delegation.targets(input.session.agents, definition.name, diagnostics);
  const effective = inEffect(dimensions, declared, own, diagnostics);
  const policy = policyOf(definition, input.callerMode);
  const sandbox = sandboxFor(input, diagnostics);
  return {
    agentName: definition.name,
    description: definition.description,
    level: input.loaded.level,
    definitionHash: input.loaded.contentHash,
    model: input.resolvedModel,
    systemPrompt: promptOf(input, effective, dimensions.live, own.patterns, policy),
    tools: targets === null ? own.tools : [...own.tools, ...delegationToolSchemas(targets)],
    // Only when a pattern restricts a tool: other snapshots stay as they were (replay).
    ...(Object.keys(own.patterns).length === 0 ? {} : { toolPatterns: own.patterns }),
    skills: effective.skills,
    knowledge: effective.knowledge,
    mcpServers: effective.mcpServers,
    memory: effective.memory,
    // permissionMode's effect, when the file sets it without approvalMode; capped by
    // the caller's mode, and then what the caller asked and the agent's own.
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
    // Last, where the agent resolver once appended them: recorded snapshots keep their bytes.
    hooks: definition.hooks,
    // Only when a sandbox is on: other snapshots stay as they were (replay).
    ...sandbox,
  };
}

/** The sandbox in effect, if any (sandbox-bounds.ts); what it left out said in `diagnostics`. */
function sandboxFor(
  input: ResolveInput,
  diagnostics: Diagnostic[],
): Pick<CapabilitySnapshot, 'sandbox'> {
  const { config } = input;
  return sandboxOf(
    {
      declared: input.loaded.definition.sandbox,
      workspaceDefault: config.sandbox,
      workspace: config.workspace,
      hiddenRoots: input.hiddenRoots ?? [config.dataDir, path.join(config.workspace, CONFIG_FILE)],
      realpath: input.realpath ?? ((absolute) => absolute),
    },
    diagnostics,
  );
}

/** The declared dimensions, each resolved (and what it left out said), before tools are chosen. */
interface Dimensions {
  knowledge: KnowledgeSourceRef[];
  skills: SkillRef[];
  /** Every declared server, before `disallowedTools` takes any away. */
  servers: McpServerRef[];
  live: Map<string, McpServerLive>;
  memory: MemoryRef | null;
}

function resolveDimensions(input: ResolveInput, diagnostics: Diagnostic[]): Dimensions {
  const { definition } = input.loaded;
  const knowledge = resolveKnowledge(definition.knowledge, diagnostics);
  const skills = resolveSkills(
    definition.skills,
    input.skillIndex,
    input.skillProblems ?? [],
    diagnostics,
  );
  const servers = resolveMcpServers(definition.mcpServers, input.config, diagnostics);
  const live = liveServers(servers, input.mcpLive, diagnostics);
  const memory = resolveMemory(
    input.config.dataDir,
    definition.name,
    definition.memory,
    diagnostics,
  );
  return { knowledge, skills, servers, live, memory };
}

/** The agent's own tools, without delegation's, and the servers its gateway scopes. */
interface OwnTools {
  tools: ToolSchema[];
  mcpServers: McpServerRef[];
  patterns: Record<string, string[]>;
}

function selectTools(
  input: ResolveInput,
  dimensions: Dimensions,
  declared: Record<CapabilityDimension, boolean>,
  delegation: DelegationSpecs | undefined,
  diagnostics: Diagnostic[],
): OwnTools {
  const { definition } = input.loaded;
  const { tools, removedServers, patterns } = resolveTools({
    tools: definition.tools,
    disallowed: definition.disallowedTools,
    providers: input.providers ?? TOOL_PROVIDERS,
    caller: input.caller,
    declared,
    mcpServers: dimensions.servers,
    mcpTool: (server, tool) =>
      dimensions.live.get(server)?.tools.find((entry) => entry.name === tool),
    ...(delegation === undefined ? {} : { delegation }),
    diagnostics,
  });
  const mcpServers = dimensions.servers.filter((server) => !removedServers.has(server.name));
  // Every declared server was disallowed: a gateway with nothing behind it is not mounted.
  const mounted =
    dimensions.servers.length > 0 && mcpServers.length === 0
      ? tools.filter((tool) => tool.provider !== 'Mcp')
      : tools;
  return { tools: mounted, mcpServers, patterns };
}

/** What the snapshot and its prompt carry of each dimension: only those in effect. */
interface Effective {
  skills: SkillRef[];
  knowledge: KnowledgeSourceRef[];
  mcpServers: McpServerRef[];
  memory: MemoryRef | null;
}

/**
 * A dimension is in effect only while one of its tools survived `disallowedTools`/roles:
 * otherwise its catalog section would advertise something the agent cannot use.
 */
function inEffect(
  dimensions: Dimensions,
  declared: Record<CapabilityDimension, boolean>,
  own: OwnTools,
  diagnostics: Diagnostic[],
): Effective {
  const toolNames = new Set(own.tools.map((tool) => tool.name));
  const on = {
    knowledge: declared.knowledge && toolNames.has('kb_search'),
    skills: declared.skills && toolNames.has('use_skill'),
    mcpServers: declared.mcpServers && own.tools.some((tool) => tool.provider === 'Mcp'),
    memory: declared.memory && own.tools.some((tool) => tool.provider === 'Memory'),
  };
  for (const [dimension, inPlace] of Object.entries(on)) {
    if (declared[dimension as CapabilityDimension] && !inPlace) {
      diagnostics.push({
        severity: 'warning',
        path: dimension,
        code: 'capability.tools-removed',
        message: `${dimension} is declared but its tools were removed (disallowedTools or the caller's roles), so it is left out of the prompt`,
      });
    }
  }
  if (on.knowledge && !toolNames.has('read')) {
    diagnostics.push({
      severity: 'warning',
      path: 'knowledge',
      code: 'knowledge.without-read',
      message:
        "knowledge is declared without the 'read' tool: kb_search returns path:line hits the agent cannot open; add read to tools",
    });
  }
  return {
    skills: on.skills ? dimensions.skills : [],
    knowledge: on.knowledge ? dimensions.knowledge : [],
    mcpServers: on.mcpServers ? own.mcpServers : [],
    memory: on.memory ? dimensions.memory : null,
  };
}

/** The system prompt of what is in effect (prompt.ts). */
function promptOf(
  input: ResolveInput,
  effective: Effective,
  live: Map<string, McpServerLive>,
  patterns: Record<string, string[]>,
  policy: Pick<CapabilitySnapshot, 'policyFlags'>,
): string {
  const resident = input.residentMemory ?? { files: [], notes: [] };
  return assembleSystemPrompt({
    framing: input.session === undefined ? SUBAGENT_FRAMING : MAIN_AGENT_FRAMING,
    // What the policy will refuse, said up front (absent flags and patterns add no byte).
    toolPatterns: patterns,
    ...(policy.policyFlags === undefined ? {} : { policyFlags: policy.policyFlags }),
    skills: effective.skills,
    knowledge: effective.knowledge,
    mcpServers: effective.mcpServers,
    mcpLive: live,
    memory:
      effective.memory === null
        ? null
        : { mode: effective.memory.mode, residentFiles: resident.files, notes: resident.notes },
    body: input.loaded.definition.systemPrompt,
  });
}

/**
 * The approval mode in effect and, only when there are any, the flags permissionMode adds; with
 * a caller's mode, the lower of the two, what the caller stated and the agent's own. A snapshot
 * without a caller's mode has exactly the fields it had before callers could state one.
 */
function policyOf(
  definition: LoadedDefinition['definition'],
  callerMode: PermissionMode | undefined,
): Pick<CapabilitySnapshot, 'approvalMode' | 'policyFlags' | 'callerMode' | 'agentPolicy'> {
  const own = effectivePolicy(definition);
  const capped = capPolicy(own, callerMode);
  return {
    ...withFlags(capped.approvalMode, capped.flags),
    ...(callerMode === undefined
      ? {}
      : { callerMode, agentPolicy: withFlags(own.approvalMode, own.flags) }),
  };
}

function withFlags(
  approvalMode: ApprovalMode,
  flags: PolicyFlags,
): { approvalMode: ApprovalMode; policyFlags?: PolicyFlags } {
  return Object.keys(flags).length === 0 ? { approvalMode } : { approvalMode, policyFlags: flags };
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

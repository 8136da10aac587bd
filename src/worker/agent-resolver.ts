/**
 * Composes the registry, skill discovery, resident memory and the pure resolver into the
 * `AgentResolver` the `resolveAgent` activity uses. File reads happen here, once per
 * delegation start; `resolveCapabilities` turns what they produce into the whole snapshot, which
 * is recorded in history.
 */
import type { McpStatusSource } from '../capabilities/mcp-live.js';
import { resolveCapabilities } from '../capabilities/resolve.js';
import { memoryDirectory } from '../capabilities/declared-dimensions.js';
import { discoverSkills, type SkillDiscoveryOptions } from '../capabilities/skill-discovery.js';
import { resolve } from 'node:path';
import type { DeputyConfig } from '../config/schema.js';
import { liveConfigOf, type LiveConfig } from '../config/live-config.js';
import type { LoadedDefinition } from '../definitions/definition.js';
import { readResidentMemory } from '../tools/memory.js';
import { realpathLenient } from '../paths/realpath-lenient.js';
import { deputyRoots } from '../paths/deputy-roots.js';
import { derivedTrustedLocations } from '../paths/derived-trusted-files.js';
import { perCallModelProblem } from '../shared/model-contract.js';
import { namedExecutables } from '../named-executables.js';
import {
  UnknownModelError,
  type AgentResolver,
  type ResolveOptions,
} from '../activities/resolve-agent.js';
import type { DelegateTarget } from '../shared/tools/delegation-tools.js';
import { modelProblem } from '../definitions/model-check.js';

/** The registry surface resolution needs (src/definitions/registry/registry.ts provides it). */
export interface DefinitionSource {
  get(name: string): LoadedDefinition | undefined;
  /** `get` checked against the disk first (the registry has it); used when present. */
  current?(name: string): Promise<LoadedDefinition | undefined>;
  list(): LoadedDefinition[];
  /** Every definition, those a higher level shadows too (the registry has it); else `list`. */
  listAll?(): LoadedDefinition[];
}

/**
 * @param settings the configuration; a live one (src/config/watch.ts) is read at each resolution,
 *   so a delegation started after an edit of `.subagents/config.yaml` resolves against it.
 */
/** How long a delegation's start waits for its servers' first handshake. */
const MCP_SETTLE_MS = 5000;

export function createAgentResolver(
  settings: DeputyConfig | LiveConfig,
  definitions: DefinitionSource,
  skillOptions: SkillDiscoveryOptions = {},
  mcp?: McpStatusSource,
): AgentResolver {
  const live = liveConfigOf(settings);
  return {
    names: () => definitions.list().map((loaded) => loaded.definition.name),
    async resolve(agent, caller, options = {}) {
      // The file as it is now: an agent saved a moment ago through the API is not missed.
      const loaded = await (definitions.current?.(agent) ?? definitions.get(agent));
      if (!loaded) return null;
      const { definition } = loaded;
      // One configuration for the whole resolution, even if an edit lands halfway through.
      const config = live.current();
      const model = modelFor(definition, options, config);
      const directory = memoryDirectory(config.dataDir, definition.name, definition.memory);
      const skills = discoverSkills(config, skillOptions);
      // The prompt lists the servers' live tools: give a server that is connecting a moment.
      const servers = definition.mcpServers.map((entry) =>
        typeof entry === 'string' ? entry : entry.name,
      );
      if (mcp !== undefined && servers.length > 0) {
        await mcp.settle(definition.name, servers, MCP_SETTLE_MS);
      }
      // Computed per delegation: a folder created or relinked since the last one counts, and
      // so does a script a definition saved since then names.
      const roots = deputyRoots(config, {
        derived: derivedTrustedLocations(
          config.workspace,
          namedExecutables(definitions.listAll?.() ?? definitions.list(), config),
        ),
      });
      const snapshot = resolveCapabilities({
        loaded,
        config,
        caller,
        skillIndex: skills.index,
        skillProblems: skills.diagnostics,
        resolvedModel: model,
        residentMemory: directory === null ? null : await readResidentMemory(directory),
        ...(mcp === undefined ? {} : { mcpLive: (name) => mcp.live(definition.name, name) }),
        ...(options.asSession === true
          ? { session: { agents: delegateTargets(definitions) } }
          : {}),
        ...(options.callerMode === undefined ? {} : { callerMode: options.callerMode }),
        hiddenRoots: roots.hiddenRoots,
        realpath: (absolute) => realpathLenient(absolute),
      });
      return {
        snapshot,
        workspaceRoot: config.workspace,
        writableRoots: writableRoots(config),
        ...roots,
      };
    },
  };
}

/**
 * The model one resolution runs: `Task`'s `model` when given (it must be runnable, or the child
 * fails saying so), the session's for `model: inherit`, else the definition's own.
 */
function modelFor(
  definition: LoadedDefinition['definition'],
  options: ResolveOptions,
  config: DeputyConfig,
): string {
  if (options.model !== undefined) {
    const problem =
      perCallModelProblem(options.model) ?? modelProblem(options.model, config.models);
    if (problem !== null) {
      throw new UnknownModelError(`Task model for '${definition.name}': ${problem}`);
    }
    return options.model;
  }
  if (definition.inheritsModel === true && options.parentModel !== undefined) {
    return options.parentModel;
  }
  return definition.model;
}

/** Every agent a main agent could hand work to, as its `Task` tool lists them. */
function delegateTargets(definitions: DefinitionSource): DelegateTarget[] {
  return definitions.list().map(({ definition }) => ({
    name: definition.name,
    description: definition.description,
    background: definition.background,
  }));
}

/**
 * Where `auto-in-workspace` writes without a card: the configured roots when config.yaml sets
 * `writableRoots` (they may be narrower than the workspace: that is what tells it apart from
 * `auto-edit`, which writes anywhere in the workspace too), else the workspace. Symlinks
 * resolved (the policy compares real paths).
 */
function writableRoots(config: DeputyConfig): string[] {
  if (config.writableRoots.length === 0) return [config.workspace];
  return config.writableRoots.map((root) => realpathLenient(resolve(config.workspace, root)));
}

/**
 * An agent's diagnostics as a delegation of it would report them at its start: the file's load
 * diagnostics plus what capability resolution finds for this caller's roles (an unknown tool, a
 * skill not found, an undeclared MCP server, a knowledge problem). The authoring routes show
 * these, so a typo'd tool name is a warning in the agents list, not a surprise at run time.
 * Resolution is pure (src/capabilities/resolve.ts): nothing starts, nothing is written.
 */
import { discoverSkills, type SkillDiscovery } from '../../capabilities/skill-discovery.js';
import { resolveCapabilities } from '../../capabilities/resolve.js';
import type { DeputyConfig } from '../../config/schema.js';
import type { LoadedDefinition } from '../../definitions/definition.js';
import type { DefinitionRegistry } from '../../definitions/registry/registry.js';
import { resolveModelHandle } from '../../models/select-model.js';
import type { Caller } from '../../shared/caller.js';
import type { Diagnostic } from '../../shared/diagnostics.js';
import {
  DELEGATION_PROVIDER,
  DELEGATION_TOOL_NAMES,
  type DelegateTarget,
} from '../../shared/tools/delegation-tools.js';

export interface ResolutionContext {
  config: DeputyConfig;
  caller: Caller;
  /**
   * The agents a main agent may hand work to. A definition that declares Task, TaskOutput or
   * TaskStop is a session's main agent and is resolved as one; as a delegate those
   * names would be "unknown", which is not what that agent meets when it runs.
   */
  agents?: () => readonly DelegateTarget[];
  /** Discovery of the workspace's skills; pass one to share it across many agents. */
  skills?: SkillDiscovery;
  env?: NodeJS.ProcessEnv;
}

export function resolvedDiagnostics(
  loaded: LoadedDefinition,
  context: ResolutionContext,
): Diagnostic[] {
  const { config, caller } = context;
  const skills = context.skills ?? discoverSkills(config);
  const { definition } = loaded;
  return resolveCapabilities({
    loaded,
    config,
    caller,
    skillIndex: skills.index,
    skillProblems: skills.diagnostics,
    resolvedModel: resolveModelHandle(definition.model, definition.name, config, context.env)
      .handle,
    ...(declaresDelegation(definition.tools)
      ? { session: { agents: context.agents?.() ?? [] } }
      : {}),
  }).diagnostics;
}

/** `Task`, `TaskOutput`, `TaskStop` (any case), or the `Delegation` provider (`Delegation:Task`). */
function declaresDelegation(tools: readonly string[] | null): boolean {
  const provider = DELEGATION_PROVIDER.toLowerCase();
  const names = DELEGATION_TOOL_NAMES.map((name) => name.toLowerCase());
  return (tools ?? []).some((spec) => {
    const [head = '', tool] = spec.trim().toLowerCase().split(':');
    return head === provider || (tool === undefined && names.includes(head));
  });
}

/** What a main agent's Task offers: every agent the registry resolves to. */
export function delegateTargetsOf(
  definitions: Pick<DefinitionRegistry, 'list'> | undefined,
): DelegateTarget[] {
  return (definitions?.list() ?? []).map(({ definition }) => ({
    name: definition.name,
    description: definition.description,
    background: definition.background,
  }));
}

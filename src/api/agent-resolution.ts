/**
 * An agent's diagnostics as a delegation of it would report them at its start: the file's load
 * diagnostics plus what capability resolution finds for this caller's roles (an unknown tool, a
 * skill not found, an undeclared MCP server, a knowledge problem). The authoring routes show
 * these, so a typo'd tool name is a warning in the agents list, not a surprise at run time.
 * Resolution is pure (src/capabilities/resolve.ts): nothing starts, nothing is written.
 */
import { discoverSkills, type SkillDiscovery } from '../capabilities/skill-discovery.js';
import { resolveCapabilities } from '../capabilities/resolve.js';
import type { DeputyConfig } from '../config.js';
import type { LoadedDefinition } from '../definitions/definition.js';
import { resolveModelHandle } from '../models/select-model.js';
import type { Caller } from '../shared/caller.js';
import type { Diagnostic } from '../shared/diagnostics.js';

export interface ResolutionContext {
  config: DeputyConfig;
  caller: Caller;
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
  }).diagnostics;
}

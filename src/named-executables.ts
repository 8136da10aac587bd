/**
 * What the definitions and the configuration tell deputy to run or replay: hook commands, stdio
 * MCP servers and scripted models' scripts. The files these name are trusted like the
 * definitions that name them (src/paths/derived-trusted-files.ts turns them into protected roots).
 */
import type { DeputyConfig } from './config/schema.js';
import type { LoadedDefinition } from './definitions/definition.js';
import { scriptCandidates } from './models/select-model.js';
import type { NamedExecutables } from './paths/derived-trusted-files.js';

export function namedExecutables(
  definitions: readonly LoadedDefinition[],
  config: DeputyConfig,
): NamedExecutables {
  const hookCommands = definitions.flatMap(({ definition }) =>
    Object.values(definition.hooks).flatMap((hooks) => hooks.map((hook) => hook.command)),
  );
  const serverCommands = [
    ...Object.values(config.mcpServers),
    ...definitions.flatMap(({ definition }) =>
      definition.mcpServers.flatMap((entry) => (typeof entry === 'string' ? [] : [entry])),
    ),
  ]
    .filter((server) => server.transport === 'stdio')
    .map((server) => ({ command: server.command, args: server.args ?? [] }));
  return { hookCommands, serverCommands, modelScripts: modelScripts(definitions, config) };
}

/**
 * Each definition's script (after `models.overrides`, `default` and aliases apply), and the
 * configuration's own scripted handles, whichever agent they end up serving.
 */
function modelScripts(definitions: readonly LoadedDefinition[], config: DeputyConfig): string[] {
  const fromDefinitions = definitions.flatMap(({ definition, level }) =>
    scriptCandidates({
      handle: definition.model,
      agentName: definition.name,
      config,
      baseDirectory: level === 'builtin' ? config.projectRoot : config.workspace,
    }),
  );
  const { models } = config;
  const fromConfiguration = [models.default, ...Object.values(models.aliases)]
    .concat(Object.values(models.overrides))
    .flatMap((handle) =>
      // As a handle from the configuration (never a definition's): its own rules for where.
      scriptCandidates({
        handle: 'default',
        agentName: '',
        config: { ...config, models: { ...models, default: handle } },
        baseDirectory: config.workspace,
      }),
    );
  return [...new Set([...fromDefinitions, ...fromConfiguration])];
}

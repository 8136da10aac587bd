/**
 * Secrets written in definition files: an inline MCP server's env values, headers and OAuth client
 * secret. The API answers them as `__redacted__`, but an agent may read its own file (or another
 * agent's) with `read` or `grep`: so they are masked like the configuration's, wherever data
 * enters history or leaves the process. The same rule as for config.yaml decides what is a secret
 * (a secret-looking value, or one under a secret-named key) and which variables a `${NAME}`
 * reference names.
 */
import type { LoadedDefinition } from '../definitions/definition.js';
import { scanConfigSecrets } from '../config/config-secrets.js';
import type { SecretSources } from './masker.js';
import type { SecretSourcesNow } from './live-masker.js';

/** What the masker needs to follow the registry: its definitions, and when they change. */
export interface DefinitionsNow {
  listAll(): LoadedDefinition[];
  generation(): number;
}

/** The definitions' secrets as a masker source, rebuilt only when the registry reloads. */
export function definitionSecretSource(definitions: DefinitionsNow): SecretSourcesNow {
  let built: { generation: number; sources: SecretSources } | null = null;
  return {
    current() {
      const generation = definitions.generation();
      if (built?.generation !== generation) {
        built = { generation, sources: definitionSecrets(definitions.listAll()) };
      }
      return built.sources;
    },
  };
}

export function definitionSecrets(definitions: readonly LoadedDefinition[]): SecretSources {
  const servers = definitions.flatMap((loaded) =>
    loaded.definition.mcpServers.filter((entry) => typeof entry !== 'string'),
  );
  const { secrets } = scanConfigSecrets({ mcpServers: servers });
  return { secrets, models: { catalog: {} } };
}

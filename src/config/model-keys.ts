/** Which environment variable holds a model entry's API key (never the key itself). */
import type { ModelEntry } from './schema.js';

/** The variable each provider's SDK reads its key from, for the provider's own service. */
export const PROVIDER_KEY_VARIABLES = {
  openai: 'OPENAI_API_KEY',
  anthropic: 'ANTHROPIC_API_KEY',
} as const satisfies Record<ModelEntry['provider'], string>;

/**
 * The variable holding the key: `apiKeyEnv` when given; otherwise the provider's conventional
 * variable for the provider's own service (no `baseUrl`); none for any other endpoint (a local
 * server such as llama.cpp, Ollama or vLLM, or a proxy), whatever its wire format: they need no
 * key by default, and the provider's own key must not be sent to a third party unasked.
 */
export function apiKeyVariable(entry: ModelEntry): string | undefined {
  if (entry.apiKeyEnv !== undefined) {
    return entry.apiKeyEnv;
  }
  if (entry.baseUrl !== undefined) {
    return undefined;
  }
  return PROVIDER_KEY_VARIABLES[entry.provider];
}

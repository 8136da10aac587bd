/** Which environment variable holds a model entry's API key (never the key itself). */
import type { ModelEntry } from './schema.js';

/**
 * The variable holding the key: `apiKeyEnv` when given; otherwise the provider's conventional
 * variable for the provider's own service; none for an OpenAI-compatible local server (Ollama,
 * llama.cpp and vLLM need no key by default).
 */
export function apiKeyVariable(entry: ModelEntry): string | undefined {
  if (entry.apiKeyEnv !== undefined) {
    return entry.apiKeyEnv;
  }
  if (entry.provider === 'anthropic') {
    return 'ANTHROPIC_API_KEY';
  }
  return entry.baseUrl === undefined ? 'OPENAI_API_KEY' : undefined;
}

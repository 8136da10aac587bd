/**
 * Which model the smoke suite runs on. Without `DEPUTY_SMOKE_MODEL` it is the local model that
 * the suite's global setup installs and serves (test/smoke/model-setup.ts); with it, the endpoint
 * it names, written `<provider>:<baseUrl>:<model>`:
 *
 *   openai:http://127.0.0.1:11434/v1:qwen2.5:7b
 *   openai:https://api.openai.com/v1:gpt-4o-mini
 *   anthropic:https://api.anthropic.com:claude-haiku-4-5
 *
 * `provider` and `baseUrl` are what a `models.catalog` entry takes (an OpenAI-compatible base
 * URL ends in `/v1`; an Anthropic one does not). The base URL is `scheme://host[:port][/path]`
 * with no `:` in its path, so the model is everything after it and may hold colons itself
 * (Ollama's `qwen2.5:7b`).
 */

export type SmokeProvider = 'openai' | 'anthropic';

export interface SmokeEndpoint {
  provider: SmokeProvider;
  baseUrl: string;
  model: string;
  /** Where it came from, shown with each check: `local llama.cpp`, `DEPUTY_SMOKE_MODEL`. */
  source: string;
}

export const SMOKE_MODEL_FORMAT =
  '<provider>:<baseUrl>:<model>, provider openai or anthropic, e.g. openai:http://127.0.0.1:11434/v1:qwen2.5:7b';

// The port is taken whole when present (the lookahead makes it atomic): `host:11434/v1` never
// reads as host `host` and model `11434/v1`.
const ENDPOINT =
  /^(openai|anthropic):(https?:\/\/(?:\[[^\]/]+\]|[^/:[\]]+)(?=((?::\d+)?))\3(?:\/[^:]*)?):(.+)$/;

/** Parses `<provider>:<baseUrl>:<model>`; a value that does not fit is an error naming `variable`. */
export function parseSmokeEndpoint(text: string, variable: string): SmokeEndpoint {
  const match = ENDPOINT.exec(text.trim());
  if (match === null) {
    throw new Error(`${variable}='${text}' is not ${SMOKE_MODEL_FORMAT}`);
  }
  const [, provider, baseUrl, , model] = match as unknown as [
    string,
    SmokeProvider,
    string,
    string,
    string,
  ];
  return { provider, baseUrl: baseUrl.replace(/\/+$/, ''), model, source: variable };
}

/** One line naming the model and where it runs: `openai local @ http://127.0.0.1:40123/v1`. */
export function describeEndpoint(endpoint: SmokeEndpoint): string {
  return `${endpoint.provider} ${endpoint.model} @ ${endpoint.baseUrl} (${endpoint.source})`;
}

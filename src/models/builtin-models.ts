/**
 * Claude Code's model names (`sonnet`, `opus`, `haiku`, or a full id such as `claude-opus-4-6`)
 * run on Anthropic's API without any configuration once an Anthropic key is configured:
 * `ANTHROPIC_API_KEY` is set, or the catalog has an `anthropic` entry. The operator's
 * `models.aliases` and `models.catalog` always win over these built-ins.
 *
 * One module for the three places that must agree: reading a file (`model.alias-builtin`), the
 * save/load check (an alias must resolve to something runnable) and the runtime adapter.
 */
import { PROVIDER_KEY_VARIABLES } from '../config/model-keys.js';
import type { DeputyConfig, ModelEntry } from '../config/schema.js';

const ANTHROPIC_PREFIX = 'anthropic/';

/**
 * Defaults, current when written: an operator pins or changes them with `models.aliases`
 * (`sonnet: anthropic/claude-sonnet-4-5` plus a catalog entry), which always wins.
 */
export const BUILTIN_ANTHROPIC_MODELS: Readonly<Record<string, string>> = Object.freeze({
  sonnet: 'claude-sonnet-4-6',
  opus: 'claude-opus-4-7',
  haiku: 'claude-haiku-4-5',
});

/** A full Anthropic model id as Claude Code files write it (`claude-opus-4-6`). */
const CLAUDE_MODEL_ID = /^claude-[a-z0-9][a-z0-9.-]*$/;

type Catalog = DeputyConfig['models']['catalog'];

/** True when an Anthropic key is configured: the variable is set, or the catalog has an entry. */
export function anthropicConfigured(catalog: Catalog, env: NodeJS.ProcessEnv): boolean {
  const key = env[PROVIDER_KEY_VARIABLES.anthropic];
  if (key !== undefined && key !== '') return true;
  return Object.values(catalog).some((entry) => entry.provider === 'anthropic');
}

/**
 * The handle a Claude Code model name runs on without configuration (`sonnet` ->
 * `anthropic/claude-sonnet-4-6`, `claude-opus-4-6` -> `anthropic/claude-opus-4-6`), or undefined
 * when it is not one or no Anthropic key is configured. When the catalog already has an entry for
 * that Anthropic model, its handle is used, so the operator's settings (key variable, base URL)
 * apply.
 */
export function builtinModelHandle(
  name: string,
  catalog: Catalog,
  env: NodeJS.ProcessEnv,
): string | undefined {
  const model = Object.hasOwn(BUILTIN_ANTHROPIC_MODELS, name)
    ? BUILTIN_ANTHROPIC_MODELS[name]!
    : CLAUDE_MODEL_ID.test(name)
      ? name
      : undefined;
  if (model === undefined || !anthropicConfigured(catalog, env)) return undefined;
  const existing = Object.entries(catalog).find(
    ([, entry]) => entry.provider === 'anthropic' && entry.model === model,
  );
  return existing?.[0] ?? `${ANTHROPIC_PREFIX}${model}`;
}

/** Every built-in alias that applies now (empty without an Anthropic key). */
export function builtinModelAliases(
  catalog: Catalog,
  env: NodeJS.ProcessEnv,
): Record<string, string> {
  const aliases = Object.create(null) as Record<string, string>;
  for (const name of Object.keys(BUILTIN_ANTHROPIC_MODELS)) {
    const handle = builtinModelHandle(name, catalog, env);
    if (handle !== undefined) aliases[name] = handle;
  }
  return aliases;
}

/** The context window of the Claude models a built-in handle names. */
const CLAUDE_CONTEXT_TOKENS = 200_000;

/**
 * The catalog entry of a built-in handle (`anthropic/claude-...`) the catalog does not have,
 * when an Anthropic key is configured. It reads the key (and base URL) the catalog's first
 * `anthropic` entry uses, else `ANTHROPIC_API_KEY`.
 */
export function builtinCatalogEntry(
  handle: string,
  catalog: Catalog,
  env: NodeJS.ProcessEnv,
): ModelEntry | undefined {
  if (Object.hasOwn(catalog, handle) || !handle.startsWith(ANTHROPIC_PREFIX)) return undefined;
  const model = handle.slice(ANTHROPIC_PREFIX.length);
  if (!CLAUDE_MODEL_ID.test(model) || !anthropicConfigured(catalog, env)) return undefined;
  const template = Object.values(catalog).find((entry) => entry.provider === 'anthropic');
  return {
    provider: 'anthropic',
    model,
    // Every Claude model's window is at least this (compaction reads it).
    contextTokens: CLAUDE_CONTEXT_TOKENS,
    ...(template?.apiKeyEnv === undefined ? {} : { apiKeyEnv: template.apiKeyEnv }),
    ...(template?.baseUrl === undefined ? {} : { baseUrl: template.baseUrl }),
  };
}

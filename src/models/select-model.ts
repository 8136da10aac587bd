/**
 * Model handle -> adapter (MOD). Resolution order:
 *
 * 1. the operator override `models.overrides[agentName]` wins over the definition's own handle;
 * 2. `default` (or no handle) becomes `models.default`;
 * 3. an alias (`models.aliases`, e.g. `sonnet`) becomes its target handle; without an entry
 *    there, Claude Code's names (`sonnet`, `opus`, `haiku`, `claude-*` ids) become built-in
 *    Anthropic handles when an Anthropic key is configured (src/models/builtin-models.ts);
 * 4. `scripted:<relative path>` is a scripted model; `provider/model` must be a key of
 *    `models.catalog` (or be a built-in Anthropic handle); anything else is a `ModelConfigError`.
 *
 * Creating an adapter does no network I/O and reads no API key (only a scripted model's file), so
 * the definition registry can call `createModelAdapter` to refuse an unknown handle on save. Keys
 * are read from the environment on each call, so workers that hold keys and an API server that
 * does not can share one configuration.
 */
import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import {
  BUILTIN_DEFAULT_MODEL,
  DEFAULT_CONTEXT_TOKENS,
  type DeputyConfig,
  type ModelEntry,
} from '../config/schema.js';
import { apiKeyVariable } from '../config/model-keys.js';
import { isInsideReal } from '../paths/containment.js';
import { isInside } from '../shared/path-containment.js';
import type { DefinitionLevel } from '../shared/capability-snapshot.js';
import { createAnthropicModel } from './anthropic.js';
import { builtinCatalogEntry, builtinModelHandle } from './builtin-models.js';
import { ModelConfigError } from './model-adapter.js';
import type { ModelAdapter } from './model-adapter.js';
import { createOpenAiCompatibleModel } from './openai-compatible.js';
import { loadScriptedModel, scriptedLabel } from './scripted-model.js';

export const SCRIPTED_PREFIX = 'scripted:';
export const DEFAULT_HANDLE = 'default';

/** The configuration `createModelAdapter` reads. */
export type ModelConfig = Pick<DeputyConfig, 'models' | 'workspace' | 'projectRoot'>;

/** Inputs of `createModelAdapter`. */
export interface CreateModelAdapterOptions {
  /** The definition's `model:` value. Undefined or empty means `default`. */
  handle: string | undefined;
  /** The agent's name: the key of `models.overrides`, and named in every error. */
  agentName: string;
  /** The definition's level, named in errors. */
  level: DefinitionLevel;
  config: ModelConfig;
  /**
   * Directory a definition's `scripted:` path is resolved against (the workspace; the project
   * root for built-in agents). The script must stay inside it.
   */
  baseDirectory: string;
  /** Where API keys are read from, at call time. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * Whether a path is one no agent may read (the configuration file, the data directory): such a
   * file is never read as a script, so its content cannot come back in an error. Default: none.
   */
  isHidden?: (absolutePath: string) => boolean;
}

/** Where the effective handle came from; decides the base directory of a scripted path. */
export type HandleSource = 'definition' | 'override' | 'default';

export interface ResolvedHandle {
  /** The effective handle after override, default and alias. */
  handle: string;
  source: HandleSource;
  /** Human-readable trail, e.g. `default -> sonnet -> anthropic/claude-sonnet-4-5`. */
  trail: string[];
}

/** Applies override, default and alias. Never throws; `createModelAdapter` checks the result. */
export function resolveModelHandle(
  handle: string | undefined,
  agentName: string,
  config: Pick<DeputyConfig, 'models'>,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedHandle {
  const trail: string[] = [];
  let source: HandleSource = 'definition';
  let current = handle === undefined || handle.trim() === '' ? DEFAULT_HANDLE : handle.trim();
  const override = Object.hasOwn(config.models.overrides, agentName)
    ? config.models.overrides[agentName]
    : undefined;
  if (override !== undefined) {
    trail.push(`${current} (overridden by models.overrides.${agentName})`);
    current = override;
    source = 'override';
  }
  if (current === DEFAULT_HANDLE) {
    trail.push(current);
    current = config.models.default;
    if (source === 'definition') {
      source = 'default';
    }
  }
  // One level of aliasing only: an alias naming another alias is a configuration loop risk.
  const target = Object.hasOwn(config.models.aliases, current)
    ? config.models.aliases[current]
    : Object.hasOwn(config.models.catalog, current)
      ? undefined
      : builtinModelHandle(current, config.models.catalog, env);
  if (target !== undefined) {
    trail.push(current);
    current = target;
  }
  trail.push(current);
  return { handle: current, source, trail };
}

/** Turns a definition's model handle into an adapter. Throws `ModelConfigError`. */
export function createModelAdapter(options: CreateModelAdapterOptions): ModelAdapter {
  const { agentName, level, config } = options;
  const env = options.env ?? process.env;
  const resolved = resolveModelHandle(options.handle, agentName, config, env);
  const { handle } = resolved;
  const where = `agent '${agentName}' (${level})`;
  const via = resolved.trail.length > 1 ? ` (resolved ${resolved.trail.join(' -> ')})` : '';

  if (handle.startsWith(SCRIPTED_PREFIX)) {
    const relativePath = handle.slice(SCRIPTED_PREFIX.length);
    const context = `${where}: model '${handle}'${via}`;
    const scriptPath = resolveScriptPath(relativePath, scriptBases(resolved, options), context);
    if (options.isHidden?.(scriptPath) === true) {
      throw new ModelConfigError(
        `${context}: scripted model path '${relativePath}' is deputy's configuration or data, which is never read as a script`,
      );
    }
    return loadScriptedModel(scriptPath, { displayPath: relativePath });
  }

  if (handle === DEFAULT_HANDLE) {
    throw new ModelConfigError(
      `${where}: models.default is 'default' itself; set it to a catalog handle or scripted:<path>`,
    );
  }

  const entry = catalogEntry(handle, config, env);
  if (entry === undefined) {
    throw new ModelConfigError(
      `${where}: model '${handle}'${via} is not configured. ${configured(config)}`,
    );
  }
  return createCatalogAdapter(handle, entry, env);
}

/** The operator's catalog entry, else a built-in Anthropic one (only with an Anthropic key). */
function catalogEntry(
  handle: string,
  config: Pick<DeputyConfig, 'models'>,
  env: NodeJS.ProcessEnv,
): ModelEntry | undefined {
  return Object.hasOwn(config.models.catalog, handle)
    ? config.models.catalog[handle]
    : builtinCatalogEntry(handle, config.models.catalog, env);
}

function createCatalogAdapter(
  handle: string,
  entry: ModelEntry,
  env: NodeJS.ProcessEnv,
): ModelAdapter {
  const keyVariable = apiKeyVariable(entry);
  const readKey = (): string | undefined => {
    if (keyVariable === undefined) {
      return undefined;
    }
    const value = env[keyVariable];
    if (value === undefined || value === '') {
      // Names the variable, never a value.
      throw new ModelConfigError(
        `model '${handle}': environment variable ${keyVariable} is not set (models.catalog.${handle}.apiKeyEnv)`,
      );
    }
    return value;
  };
  const base = {
    model: entry.model,
    label: handle,
    apiKey: readKey,
    ...(entry.baseUrl === undefined ? {} : { baseUrl: entry.baseUrl }),
    ...(entry.maxTokens === undefined ? {} : { maxTokens: entry.maxTokens }),
    ...(entry.timeoutSeconds === undefined ? {} : { timeoutMs: entry.timeoutSeconds * 1000 }),
    ...(entry.toolCallsInContent === undefined
      ? {}
      : { toolCallsInContent: entry.toolCallsInContent }),
  };
  const adapter =
    entry.provider === 'anthropic' ? createAnthropicModel(base) : createOpenAiCompatibleModel(base);
  const contextTokens = entry.contextTokens ?? DEFAULT_CONTEXT_TOKENS;
  return {
    label: adapter.label,
    provider: adapter.provider,
    model: adapter.model,
    contextTokens,
    complete: (request, options) => adapter.complete(request, options),
  };
}

/**
 * Where a scripted handle's script is looked for, in order. A definition's script lives next to
 * the definition (the workspace, or the package for built-ins); a handle from the configuration
 * may name a workspace script or one shipped with the package. The built-in default is read from
 * the package only: a workspace file at the same path would otherwise become the model of every
 * `model: default` agent.
 */
function scriptBases(
  resolved: ResolvedHandle,
  options: Pick<CreateModelAdapterOptions, 'baseDirectory' | 'config'>,
): string[] {
  if (resolved.source === 'definition') return [options.baseDirectory];
  if (resolved.handle === BUILTIN_DEFAULT_MODEL) return [options.config.projectRoot];
  return [options.config.workspace, options.config.projectRoot];
}

/**
 * Every file a scripted handle could be read from once override, default and alias apply,
 * existing or not (creating a missing one earlier in the order would change the script); empty
 * for other handles and for paths that leave their base (those are refused when loading).
 */
export function scriptCandidates(
  options: Omit<CreateModelAdapterOptions, 'level' | 'env' | 'isHidden'>,
): string[] {
  const resolved = resolveModelHandle(options.handle, options.agentName, options.config);
  if (!resolved.handle.startsWith(SCRIPTED_PREFIX)) return [];
  const relativePath = resolved.handle.slice(SCRIPTED_PREFIX.length);
  if (relativePath === '' || isAbsolute(relativePath) || relativePath.includes('\0')) return [];
  return scriptBases(resolved, options)
    .map((base) => ({ base, candidate: resolve(base, relativePath) }))
    .filter(({ base, candidate }) => isInside(base, candidate) && candidate !== base)
    .map(({ candidate }) => candidate);
}

/**
 * Resolves `relativePath` against the first base where the file exists. Refuses absolute paths
 * and paths that leave the base, including through a symlink: a definition must not make the
 * worker read arbitrary files of the host.
 */
function resolveScriptPath(relativePath: string, bases: string[], context: string): string {
  if (relativePath === '') {
    throw new ModelConfigError(
      `${context}: scripted model needs a path, e.g. scripted:scripts/demo.yaml`,
    );
  }
  if (isAbsolute(relativePath)) {
    throw new ModelConfigError(`${context}: scripted model path must be relative, not absolute`);
  }
  if (relativePath.includes('\0')) {
    throw new ModelConfigError(`${context}: scripted model path contains a null byte`);
  }
  const tried: string[] = [];
  for (const base of bases) {
    const candidate = resolve(base, relativePath);
    if (!isInside(base, candidate)) {
      throw new ModelConfigError(`${context}: scripted model path escapes ${base}`);
    }
    if (!existsSync(candidate)) {
      tried.push(candidate);
      continue;
    }
    if (!isInsideReal(base, candidate)) {
      throw new ModelConfigError(
        `${context}: scripted model path escapes ${base} through a symlink`,
      );
    }
    // The base itself (`scripted:.`) or a folder under it is inside but is not a script.
    if (statSync(candidate).isDirectory()) {
      throw new ModelConfigError(
        `${context}: scripted model path '${relativePath}' is a directory (${candidate}), not a script file`,
      );
    }
    return candidate;
  }
  throw new ModelConfigError(`${context}: script not found (looked at ${tried.join(', ')})`);
}

function configured(config: Pick<DeputyConfig, 'models'>): string {
  const catalog = Object.keys(config.models.catalog);
  const aliases = Object.keys(config.models.aliases);
  return [
    `Catalog: ${catalog.length === 0 ? '(empty)' : catalog.join(', ')}.`,
    ...(aliases.length === 0 ? [] : [`Aliases: ${aliases.join(', ')}.`]),
    `Default: ${config.models.default}.`,
    'Add it under models.catalog in .subagents/config.yaml, or use scripted:<path>.',
  ].join(' ');
}

/**
 * One line for status views and `deputy list`: what a handle resolves to, without throwing and
 * without secrets. Pass `agentName` to apply that agent's operator override.
 */
export function describeModel(
  handle: string | undefined,
  config: Pick<DeputyConfig, 'models'>,
  agentName?: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const resolved = resolveModelHandle(handle, agentName ?? '', config, env);
  const prefix = resolved.trail.length > 1 ? `${resolved.trail.slice(0, -1).join(' -> ')} -> ` : '';
  if (resolved.handle.startsWith(SCRIPTED_PREFIX)) {
    return prefix + scriptedLabel(resolved.handle.slice(SCRIPTED_PREFIX.length));
  }
  const entry = catalogEntry(resolved.handle, config, env);
  if (entry === undefined) {
    return `${prefix}${resolved.handle} (not configured)`;
  }
  const at = entry.baseUrl === undefined ? '' : ` at ${entry.baseUrl}`;
  return `${prefix}${resolved.handle} (${entry.provider} ${entry.model}${at})`;
}

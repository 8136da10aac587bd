/**
 * The definition registry: loads every level, answers lookups, authors user and
 * project definitions strictly, keeps revisions and reloads on file changes.
 */
import type { DeputyConfig } from '../../config/schema.js';
import { levelSources } from '../levels.js';
import type { ModelSettings } from '../model-check.js';
import { createAuthoring } from './authoring.js';
import type { DefinitionAuthoring } from './authoring.js';
import { createLiveIndex } from './live-index.js';
import type { LiveIndex } from './live-index.js';
import { createRevisionStore } from './revisions.js';

export type { EditOptions, Edited } from './authoring.js';

export interface RegistryOptions {
  config: Pick<DeputyConfig, 'workspace' | 'dataDir' | 'userDir' | 'projectRoot'> & {
    models?: ModelSettings;
  };
  /** Model alias map (`sonnet` -> handle). Default: `config.models.aliases`. */
  aliases?: Record<string, string>;
  /**
   * Where an Anthropic key is looked for: with one (or an `anthropic` catalog entry), `sonnet`,
   * `opus`, `haiku` and `claude-*` ids run on built-in Anthropic handles. Default `process.env`.
   */
  env?: NodeJS.ProcessEnv;
  /**
   * The model settings saves and load diagnostics check handles against, read at each use so a
   * watched configuration's catalog edit applies. Default: `config.models`; none: no check.
   */
  models?: () => ModelSettings | undefined;
  /** Watcher quiet period in milliseconds. Default 100. */
  watchDebounceMs?: number;
  /** Clock for revision stamps (tests). Default `Date.now`. */
  now?: () => number;
}

/**
 * Lookups, reloads and the watcher (live-index.ts) and the strict, serialized writes with their
 * revisions (authoring.ts), over one index.
 */
export interface DefinitionRegistry extends LiveIndex, DefinitionAuthoring {}

export function createRegistry(options: RegistryOptions): DefinitionRegistry {
  const { config } = options;
  const models = options.models ?? (() => config.models);
  const env = options.env ?? process.env;
  const index = createLiveIndex({
    sources: levelSources(config),
    aliases: options.aliases ?? config.models?.aliases ?? {},
    models,
    env,
    watchDebounceMs: options.watchDebounceMs ?? 100,
  });
  const revisions = createRevisionStore(config.dataDir, options.now);
  return { ...index, ...createAuthoring({ config, models, env, index, revisions }) };
}

/**
 * The registry's read side: every level scanned into one in-memory index, answered from
 * memory, and re-scanned when a file changes. Authoring (authoring.ts) writes files and
 * then calls `reload`; it never touches the index itself.
 */
import type { DefinitionLevel } from '../../shared/capability-snapshot.js';
import type { LoadedDefinition } from '../definition.js';
import type { LevelSource } from '../levels.js';
import { builtinModelHandle } from '../../models/builtin-models.js';
import { modelProblem, type ModelSettings } from '../model-check.js';
import { buildIndex, compareForList } from './precedence.js';
import type { RegistryIndex } from './precedence.js';
import { readRegularFile } from '../../paths/regular-file.js';
import { sha256 } from './revisions.js';
import { scanLevel } from './scan.js';
import { watchDefinitionDirectories } from './watch.js';
import type { DirectoryWatcher } from './watch.js';

export interface LiveIndexOptions {
  sources: LevelSource[];
  /** Model alias map (`sonnet` -> handle). */
  aliases: Record<string, string>;
  /** Read at each scan, so a watched configuration's catalog edit applies; none: no check. */
  models: () => ModelSettings | undefined;
  env: NodeJS.ProcessEnv;
  /** Watcher quiet period in milliseconds. */
  watchDebounceMs: number;
}

export interface LiveIndex {
  /** Reads every level; resolves when the index is in place. */
  load(): Promise<void>;
  /** Same as load: re-reads every level and swaps the index at once. */
  reload(): Promise<void>;
  /** The definition each name resolves to, by level precedence then displayOrder, then name. */
  list(): LoadedDefinition[];
  /** Every loaded file, shadowed and duplicate ones included (each carries its diagnostic). */
  listAll(): LoadedDefinition[];
  /** Changes whenever the index does (each reload): lets a reader cache what it derives. */
  generation(): number;
  /** The definition `name` resolves to, or the one at `level` when given. */
  get(name: string, level?: DefinitionLevel): LoadedDefinition | undefined;
  /**
   * Like `get`, but first makes sure the answer matches the disk: when `name` is unknown or its
   * file changed since the last scan, the registry reloads. A delegation starts with this, so
   * an agent saved through another process's API is used at once, not after the watcher fires.
   */
  current(name: string): Promise<LoadedDefinition | undefined>;
  /** Starts the file watcher; resolves when it is ready. `onChange` runs after each reload. */
  watch(onChange?: (definitions: LoadedDefinition[]) => void): Promise<void>;
  /** Stops the watcher. */
  close(): Promise<void>;
}

export function createLiveIndex(options: LiveIndexOptions): LiveIndex {
  const { sources, aliases, models, env } = options;
  const builtinModel = (name: string): string | undefined =>
    builtinModelHandle(name, models()?.catalog ?? {}, env);
  let index: RegistryIndex = { all: [], byName: new Map() };
  let startedGeneration = 0;
  let committedGeneration = 0;
  let watcher: DirectoryWatcher | undefined;
  let onChange: ((definitions: LoadedDefinition[]) => void) | undefined;

  async function reload(): Promise<void> {
    const generation = ++startedGeneration;
    const levels = await Promise.all(
      sources.map((source) => scanLevel(source, aliases, builtinModel)),
    );
    // A slower, older scan never overwrites a newer one.
    if (generation < committedGeneration) return;
    committedGeneration = generation;
    const loaded = levels.flat();
    const settings = models();
    if (settings !== undefined)
      for (const entry of loaded) addModelDiagnostic(entry, settings, env);
    index = buildIndex(loaded);
  }

  const get = (name: string, level?: DefinitionLevel): LoadedDefinition | undefined =>
    level === undefined
      ? index.byName.get(name)
      : index.all.find((entry) => entry.level === level && entry.definition.name === name);
  const list = (): LoadedDefinition[] => [...index.byName.values()].sort(compareForList);

  return {
    load: reload,
    reload,
    list,
    listAll: () => [...index.all],
    generation: () => committedGeneration,
    get,
    async current(name) {
      const entry = get(name);
      if (entry === undefined || !(await unchangedOnDisk(entry))) await reload();
      return get(name);
    },
    async watch(callback) {
      onChange = callback ?? onChange;
      if (watcher !== undefined) return watcher.ready;
      watcher = watchLevels(sources, options.watchDebounceMs, () => {
        reload().then(
          () => onChange?.(list()),
          // A failed scan keeps the previous index; the next change tries again.
          () => undefined,
        );
      });
      return watcher.ready;
    },
    async close() {
      const current = watcher;
      watcher = undefined;
      await current?.close();
    },
  };
}

/** Each level's directory, watched from its base so a re-created folder is still noticed. */
function watchLevels(
  sources: LevelSource[],
  debounceMs: number,
  onFilesChanged: () => void,
): DirectoryWatcher {
  return watchDefinitionDirectories(
    sources.map((source) => ({
      directory: source.directory,
      recursive: source.recursive,
      root: source.base,
    })),
    onFilesChanged,
    { debounceMs },
  );
}

/** A loaded file whose model cannot run says so, before any delegation fails on it. */
function addModelDiagnostic(
  entry: LoadedDefinition,
  settings: ModelSettings,
  env: NodeJS.ProcessEnv,
): void {
  const problem = modelProblem(entry.definition.model, settings, env);
  if (problem === null) return;
  entry.diagnostics.push({
    severity: 'warning',
    path: 'model',
    code: 'model.not-in-catalog',
    message: `${problem}; a delegation of this agent fails until the catalog has it`,
  });
}

async function unchangedOnDisk(entry: LoadedDefinition): Promise<boolean> {
  try {
    return sha256(await readRegularFile(entry.filePath)) === entry.contentHash;
  } catch {
    return false;
  }
}

/**
 * The definition registry: loads every level (DEF-3), answers lookups, authors user and
 * project definitions strictly (DEF-2, API-4), keeps revisions (DEF-5) and reloads on file
 * changes (DEF-4).
 */
import { access, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import type { DeputyConfig } from '../../config/schema.js';
import { DeputyError, agentNotFound, invalidDefinition } from '../../errors.js';
import type { DefinitionLevel } from '../../shared/capability-snapshot.js';
import { writeFileAtomic } from './atomic-write.js';
import type { LoadedDefinition } from '../definition.js';
import { splitFrontmatter } from '../read/frontmatter.js';
import { WRITABLE_LEVELS, levelSources, writableDirectory } from '../levels.js';
import type { WritableLevel } from '../levels.js';
import { builtinModelHandle } from '../../models/builtin-models.js';
import { modelProblem, type ModelSettings } from '../model-check.js';
import { buildIndex, compareForList } from './precedence.js';
import type { RegistryIndex } from './precedence.js';
import { createRevisionStore, sha256 } from './revisions.js';
import type { RevisionInfo } from './revisions.js';
import { scanLevel } from './scan.js';
import { FRONTMATTER_FIELDS, validateChanges, validateForSave } from '../schema.js';
import type { ValidationIssue } from '../schema.js';
import { watchDefinitionDirectories } from './watch.js';
import type { DirectoryWatcher } from './watch.js';
import {
  FrontmatterEditError,
  applyChanges,
  isClearingValue,
  replaceBody,
  serializeNewDefinition,
} from './write-back.js';
import { readFrontmatterYaml } from '../read/yaml-read.js';

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

export interface DefinitionRegistry {
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
  create(
    level: WritableLevel,
    frontmatter: Record<string, unknown>,
    body: string,
  ): Promise<LoadedDefinition>;
  /**
   * Changes only the fields sent; `null`, `[]` and `{}` clear a field; `body` replaces the
   * system prompt. `level` picks the file when the name exists at both writable levels
   * (default: the one the name resolves to).
   */
  update(name: string, changes: Record<string, unknown>, options?: EditOptions): Promise<Edited>;
  delete(name: string, options?: Pick<EditOptions, 'level'>): Promise<void>;
  /**
   * Copies `name` (any level, built-ins included: that is how one is customised) to `level`
   * under `newName`, every field and the body as they are.
   */
  duplicate(
    name: string,
    target: { newName: string; level: WritableLevel; sourceLevel?: DefinitionLevel },
  ): Promise<LoadedDefinition>;
  /** Revisions of `name`, newest first (also after a delete). */
  revisions(name: string): Promise<RevisionInfo[]>;
  restore(name: string, revisionId: string): Promise<LoadedDefinition>;
  /** Starts the file watcher; resolves when it is ready. `onChange` runs after each reload. */
  watch(onChange?: (definitions: LoadedDefinition[]) => void): Promise<void>;
  /** Stops the watcher. */
  close(): Promise<void>;
}

export interface EditOptions {
  level?: WritableLevel;
  /** The new system prompt; undefined keeps the body byte for byte. */
  body?: string;
}

export interface Edited {
  loaded: LoadedDefinition;
  /** False when the file already said exactly this (nothing written, no revision kept). */
  changed: boolean;
}

const READ_ONLY_REASON: Partial<Record<DefinitionLevel, string>> = {
  builtin: 'is a built-in agent and cannot be changed through the API',
  ecosystem:
    'comes from .claude/agents or .qwen/agents and is read-only through deputy; edit that file itself',
};

export function createRegistry(options: RegistryOptions): DefinitionRegistry {
  const { config } = options;
  const aliases = options.aliases ?? config.models?.aliases ?? {};
  const models = options.models ?? (() => config.models);
  const env = options.env ?? process.env;
  const builtinModel = (name: string): string | undefined =>
    builtinModelHandle(name, models()?.catalog ?? {}, env);
  const sources = levelSources(config);
  const revisionStore = createRevisionStore(config.dataDir, options.now);
  let index: RegistryIndex = { all: [], byName: new Map() };
  let startedGeneration = 0;
  let committedGeneration = 0;
  let watcher: DirectoryWatcher | undefined;
  let onChange: ((definitions: LoadedDefinition[]) => void) | undefined;
  // Authoring operations run one at a time so two saves never interleave read-modify-write.
  let queue: Promise<unknown> = Promise.resolve();
  const serialized = <T>(operation: () => Promise<T>): Promise<T> => {
    const run = queue.then(operation, operation);
    queue = run.catch(() => undefined);
    return run;
  };

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

  function builtinNamed(name: string): LoadedDefinition | undefined {
    return get(name, 'builtin');
  }

  function refuseBuiltinName(name: string): void {
    const builtin = builtinNamed(name);
    if (builtin !== undefined) {
      throw new DeputyError(
        'conflict',
        `'${name}' is a built-in agent name; built-in agents cannot be overridden, choose a different name`,
        { code: 'agent_name_reserved' },
      );
    }
  }

  /** The name is free at `level` (another level may hold it: the higher level then shadows). */
  async function refuseTaken(name: string, level: WritableLevel, filePath: string): Promise<void> {
    const existing = get(name, level);
    if (existing !== undefined || (await exists(filePath))) {
      throw new DeputyError(
        'conflict',
        `an agent named '${name}' already exists at the ${level} level (${existing?.filePath ?? filePath})`,
        { code: 'agent_already_exists' },
      );
    }
  }

  function writableEntry(name: string, action: string, level?: WritableLevel): LoadedDefinition {
    const entry = get(name, level);
    if (entry === undefined) {
      throw agentNotFound(
        level === undefined
          ? `no agent named '${name}'`
          : `no agent named '${name}' at the ${level} level`,
      );
    }
    if (entry.readOnly) {
      throw new DeputyError(
        'read-only',
        `'${name}' ${READ_ONLY_REASON[entry.level] ?? 'is read-only'}; cannot ${action} it`,
      );
    }
    return entry;
  }

  /** An omitted model is `default`, which must be runnable too (MOD: refused on save). */
  function checkModel(model: unknown): ValidationIssue[] {
    const settings = models();
    if (settings === undefined) return [];
    const problem = modelProblem(typeof model === 'string' ? model : 'default', settings, env);
    return problem === null ? [] : [{ path: 'model', message: problem }];
  }

  async function create(
    level: WritableLevel,
    frontmatter: Record<string, unknown>,
    body: string,
  ): Promise<LoadedDefinition> {
    if (!(WRITABLE_LEVELS as readonly string[]).includes(level)) {
      throw new DeputyError(
        'read-only',
        `definitions can only be created at the user or project level, not '${String(level)}'`,
      );
    }
    if (typeof body !== 'string')
      throw invalidDefinition([{ path: 'systemPrompt', message: 'must be a string' }]);
    const result = validateForSave(frontmatter);
    if (!result.ok) throw invalidDefinition(result.issues);
    const modelIssues = checkModel(result.value.model);
    if (modelIssues.length > 0) throw invalidDefinition(modelIssues);
    const name = result.value.name;
    refuseBuiltinName(name);
    const filePath = join(writableDirectory(config, level), `${name}.md`);
    await refuseTaken(name, level, filePath);
    await writeFileAtomic(filePath, serializeNewDefinition(result.value, body));
    await reload();
    return get(name, level) ?? fail(`created ${filePath} but it did not load`);
  }

  async function update(
    name: string,
    changes: Record<string, unknown>,
    options: EditOptions = {},
  ): Promise<Edited> {
    const checked = validateChanges(changes);
    if (!checked.ok) throw invalidDefinition(checked.issues);
    if (options.body !== undefined && typeof options.body !== 'string')
      throw invalidDefinition([{ path: 'systemPrompt', message: 'must be a string' }]);
    const entry = writableEntry(name, 'update', options.level);
    refuseBuiltinName(name);
    if (Object.hasOwn(changes, 'name') && changes.name !== undefined && changes.name !== name) {
      throw invalidDefinition([
        {
          path: 'name',
          message: 'an agent cannot be renamed; create a new one and delete this one',
        },
      ]);
    }
    const text = await readCurrent(entry.filePath, name);
    const merged = mergedFrontmatter(text, name, changes);
    const result = validateForSave(merged, { allowUnknownKeys: true });
    const issues = [
      ...(result.ok ? [] : result.issues),
      ...(changes.model === undefined ? [] : checkModel(changes.model)),
    ];
    if (issues.length > 0) throw invalidDefinition(issues);
    let next: string;
    try {
      next = applyChanges(text, withoutUndefined(changes));
      if (options.body !== undefined) next = replaceBody(next, options.body);
    } catch (error) {
      if (error instanceof FrontmatterEditError)
        throw invalidDefinition([{ path: '', message: error.message }]);
      throw error;
    }
    const changed = next !== text;
    if (changed) {
      await revisionStore.save(entry.level as WritableLevel, name, text);
      await writeFileAtomic(entry.filePath, next);
    }
    await reload();
    const loaded = get(name, entry.level) ?? fail(`updated ${entry.filePath} but it did not load`);
    return { loaded, changed };
  }

  async function duplicate(
    name: string,
    target: { newName: string; level: WritableLevel; sourceLevel?: DefinitionLevel },
  ): Promise<LoadedDefinition> {
    const named = validateChanges({ name: target.newName });
    if (!named.ok) throw invalidDefinition(named.issues);
    const source = get(name, target.sourceLevel);
    if (source === undefined) {
      throw agentNotFound(
        `no agent named '${name}'${target.sourceLevel === undefined ? '' : ` at the ${target.sourceLevel} level`}`,
      );
    }
    refuseBuiltinName(target.newName);
    const filePath = join(writableDirectory(config, target.level), `${target.newName}.md`);
    await refuseTaken(target.newName, target.level, filePath);
    const text = await readCurrent(source.filePath, name);
    let copy: string;
    try {
      copy = applyChanges(text, { name: target.newName });
    } catch (error) {
      if (error instanceof FrontmatterEditError)
        throw invalidDefinition([{ path: '', message: `cannot copy '${name}': ${error.message}` }]);
      throw error;
    }
    await writeFileAtomic(filePath, copy);
    await reload();
    return get(target.newName, target.level) ?? fail(`copied to ${filePath} but it did not load`);
  }

  /** The file as it is now; deleted by hand since the last scan counts as not found. */
  async function readCurrent(filePath: string, name: string): Promise<string> {
    try {
      return await readFile(filePath, 'utf8');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await reload();
      throw agentNotFound(`no agent named '${name}' (its file was removed)`);
    }
  }

  async function remove(name: string, options: Pick<EditOptions, 'level'> = {}): Promise<void> {
    const entry = writableEntry(name, 'delete', options.level);
    const text = await readCurrent(entry.filePath, name);
    await revisionStore.save(entry.level as WritableLevel, name, text);
    await unlink(entry.filePath);
    await reload();
  }

  async function restore(name: string, revisionId: string): Promise<LoadedDefinition> {
    const revision = await revisionStore.read(name, revisionId);
    if (revision === undefined)
      throw new DeputyError('not-found', `'${name}' has no revision '${revisionId}'`);
    refuseBuiltinName(name);
    const { level } = revision.info;
    const current = get(name, level);
    const filePath = current?.filePath ?? join(writableDirectory(config, level), `${name}.md`);
    if (await exists(filePath)) {
      const text = await readFile(filePath, 'utf8');
      if (text !== revision.content) {
        await revisionStore.save(level, name, text);
        await writeFileAtomic(filePath, revision.content);
      }
    } else {
      await writeFileAtomic(filePath, revision.content);
    }
    await reload();
    return (
      get(name, level) ?? fail(`restored ${filePath} but it did not load under the name '${name}'`)
    );
  }

  return {
    load: reload,
    reload,
    list: () => [...index.byName.values()].sort(compareForList),
    listAll: () => [...index.all],
    generation: () => committedGeneration,
    get,
    async current(name) {
      const entry = get(name);
      if (entry === undefined || !(await unchangedOnDisk(entry))) await reload();
      return get(name);
    },
    create: (level, frontmatter, body) => serialized(() => create(level, frontmatter, body)),
    update: (name, changes, editOptions) => serialized(() => update(name, changes, editOptions)),
    delete: (name, deleteOptions) => serialized(() => remove(name, deleteOptions)),
    duplicate: (name, target) => serialized(() => duplicate(name, target)),
    revisions: (name) => revisionStore.list(name),
    restore: (name, revisionId) => serialized(() => restore(name, revisionId)),
    async watch(callback) {
      onChange = callback ?? onChange;
      if (watcher !== undefined) return watcher.ready;
      watcher = watchDefinitionDirectories(
        sources.map((source) => ({
          directory: source.directory,
          recursive: source.recursive,
          root: source.base,
        })),
        () => {
          reload().then(
            () => onChange?.([...index.byName.values()].sort(compareForList)),
            // A failed scan keeps the previous index; the next change tries again.
            () => undefined,
          );
        },
        { debounceMs: options.watchDebounceMs ?? 100 },
      );
      return watcher.ready;
    },
    async close() {
      const current = watcher;
      watcher = undefined;
      await current?.close();
    },
  };
}

/**
 * The DEF-1 fields the file would have after the change, as raw values, for strict validation.
 * Unknown keys and legacy spellings are left out: write-back keeps them exactly as they are.
 */
function mergedFrontmatter(
  text: string,
  name: string,
  changes: Record<string, unknown>,
): Record<string, unknown> {
  const split = splitFrontmatter(text);
  const read = split.hasFrontmatter
    ? readFrontmatterYaml(split.yaml)
    : { values: Object.create(null) as Record<string, unknown>, diagnostics: [] };
  if (read.values === undefined) {
    throw invalidDefinition([
      { path: '', message: "the file's frontmatter is not valid YAML; fix the file by hand first" },
    ]);
  }
  const merged: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(read.values)) {
    if ((FRONTMATTER_FIELDS as readonly string[]).includes(key) && read.values[key] !== null)
      merged[key] = read.values[key];
  }
  merged.name ??= name;
  for (const key of Object.keys(changes)) {
    const value = changes[key];
    if (value === undefined) continue;
    if (isClearingValue(value)) delete merged[key];
    else merged[key] = value;
  }
  return { ...merged };
}

/** A loaded file whose model cannot run says so (MOD), before any delegation fails on it. */
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

function withoutUndefined(changes: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(changes)) if (changes[key] !== undefined) out[key] = changes[key];
  return out;
}

async function unchangedOnDisk(entry: LoadedDefinition): Promise<boolean> {
  try {
    return sha256(await readFile(entry.filePath)) === entry.contentHash;
  } catch {
    return false;
  }
}

async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

function fail(message: string): never {
  throw new Error(message);
}

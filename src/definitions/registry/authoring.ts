/**
 * The registry's write side: creates, updates, deletes, duplicates and restores user and project
 * definitions strictly (an invalid value refuses the save), keeping the previous bytes as a
 * revision. Operations run one at a time; each ends with a reload of the live index so the answer
 * it returns is what the file now says.
 */
import { unlink } from 'node:fs/promises';
import { readRegularText } from '../../paths/regular-file.js';
import { join } from 'node:path';
import { DeputyError, agentNotFound, invalidDefinition } from '../../errors.js';
import type { DefinitionLevel } from '../../shared/capability-snapshot.js';
import type { LoadedDefinition } from '../definition.js';
import { WRITABLE_LEVELS, writableDirectory } from '../levels.js';
import type { LevelPaths, WritableLevel } from '../levels.js';
import type { ModelSettings } from '../model-check.js';
import { validateChanges, validateForSave } from '../schema.js';
import { writeFileAtomic } from './atomic-write.js';
import {
  checkModel,
  exists,
  refuseBuiltinName,
  refuseTaken,
  writableEntry,
} from './authoring-checks.js';
import type { LiveIndex } from './live-index.js';
import { mergedFrontmatter, withoutUndefined } from './merged-frontmatter.js';
import type { RevisionInfo, RevisionStore } from './revisions.js';
import { createSerialQueue } from './serial-queue.js';
import {
  FrontmatterEditError,
  applyChanges,
  replaceBody,
  serializeNewDefinition,
} from './write-back.js';

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

export interface DefinitionAuthoring {
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
  /** One revision's bytes and facts; undefined for an id `name` does not have. */
  revision(
    name: string,
    revisionId: string,
  ): Promise<{ info: RevisionInfo; content: string } | undefined>;
}

export interface AuthoringDeps {
  config: LevelPaths;
  /** Read at each save, so a watched configuration's catalog edit applies; none: no check. */
  models: () => ModelSettings | undefined;
  env: NodeJS.ProcessEnv;
  index: Pick<LiveIndex, 'get' | 'reload'>;
  revisions: RevisionStore;
}

export function createAuthoring(deps: AuthoringDeps): DefinitionAuthoring {
  // One at a time, so two saves never interleave read-modify-write.
  const serialized = createSerialQueue();
  return {
    create: (level, frontmatter, body) => serialized(() => create(deps, level, frontmatter, body)),
    update: (name, changes, options) => serialized(() => update(deps, name, changes, options)),
    delete: (name, options) => serialized(() => remove(deps, name, options)),
    duplicate: (name, target) => serialized(() => duplicate(deps, name, target)),
    revisions: (name) => deps.revisions.list(name),
    restore: (name, revisionId) => serialized(() => restore(deps, name, revisionId)),
    revision: (name, revisionId) => deps.revisions.read(name, revisionId),
  };
}

async function create(
  deps: AuthoringDeps,
  level: WritableLevel,
  frontmatter: Record<string, unknown>,
  body: string,
): Promise<LoadedDefinition> {
  const { get } = deps.index;
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
  const modelIssues = checkModel(deps.models(), deps.env, result.value.model);
  if (modelIssues.length > 0) throw invalidDefinition(modelIssues);
  const name = result.value.name;
  refuseBuiltinName(get, name);
  const filePath = join(writableDirectory(deps.config, level), `${name}.md`);
  await refuseTaken(get, name, level, filePath);
  await writeFileAtomic(filePath, serializeNewDefinition(result.value, body));
  await deps.index.reload();
  return get(name, level) ?? fail(`created ${filePath} but it did not load`);
}

async function update(
  deps: AuthoringDeps,
  name: string,
  changes: Record<string, unknown>,
  options: EditOptions = {},
): Promise<Edited> {
  const { get } = deps.index;
  const checked = validateChanges(changes);
  if (!checked.ok) throw invalidDefinition(checked.issues);
  if (options.body !== undefined && typeof options.body !== 'string')
    throw invalidDefinition([{ path: 'systemPrompt', message: 'must be a string' }]);
  const entry = writableEntry(get, name, 'update', options.level);
  refuseBuiltinName(get, name);
  if (Object.hasOwn(changes, 'name') && changes.name !== undefined && changes.name !== name) {
    throw invalidDefinition([
      {
        path: 'name',
        message: 'an agent cannot be renamed; create a new one and delete this one',
      },
    ]);
  }
  const text = await readCurrent(deps, entry.filePath, name);
  const merged = mergedFrontmatter(text, name, changes);
  const result = validateForSave(merged, { allowUnknownKeys: true });
  const issues = [
    ...(result.ok ? [] : result.issues),
    ...(changes.model === undefined ? [] : checkModel(deps.models(), deps.env, changes.model)),
  ];
  if (issues.length > 0) throw invalidDefinition(issues);
  const next = refusingBadEdits('', () => {
    const edited = applyChanges(text, withoutUndefined(changes));
    return options.body === undefined ? edited : replaceBody(edited, options.body);
  });
  const changed = next !== text;
  if (changed) {
    await deps.revisions.save(entry.level as WritableLevel, name, text);
    await writeFileAtomic(entry.filePath, next);
  }
  await deps.index.reload();
  const loaded = get(name, entry.level) ?? fail(`updated ${entry.filePath} but it did not load`);
  return { loaded, changed };
}

async function duplicate(
  deps: AuthoringDeps,
  name: string,
  target: { newName: string; level: WritableLevel; sourceLevel?: DefinitionLevel },
): Promise<LoadedDefinition> {
  const { get } = deps.index;
  const named = validateChanges({ name: target.newName });
  if (!named.ok) throw invalidDefinition(named.issues);
  const source = get(name, target.sourceLevel);
  if (source === undefined) {
    throw agentNotFound(
      `no agent named '${name}'${target.sourceLevel === undefined ? '' : ` at the ${target.sourceLevel} level`}`,
    );
  }
  refuseBuiltinName(get, target.newName);
  const filePath = join(writableDirectory(deps.config, target.level), `${target.newName}.md`);
  await refuseTaken(get, target.newName, target.level, filePath);
  const text = await readCurrent(deps, source.filePath, name);
  const copy = refusingBadEdits(`cannot copy '${name}': `, () =>
    applyChanges(text, { name: target.newName }),
  );
  await writeFileAtomic(filePath, copy);
  await deps.index.reload();
  return get(target.newName, target.level) ?? fail(`copied to ${filePath} but it did not load`);
}

async function remove(
  deps: AuthoringDeps,
  name: string,
  options: Pick<EditOptions, 'level'> = {},
): Promise<void> {
  const entry = writableEntry(deps.index.get, name, 'delete', options.level);
  const text = await readCurrent(deps, entry.filePath, name);
  await deps.revisions.save(entry.level as WritableLevel, name, text);
  await unlink(entry.filePath);
  await deps.index.reload();
}

async function restore(
  deps: AuthoringDeps,
  name: string,
  revisionId: string,
): Promise<LoadedDefinition> {
  const { get } = deps.index;
  const revision = await deps.revisions.read(name, revisionId);
  if (revision === undefined)
    throw new DeputyError('not-found', `'${name}' has no revision '${revisionId}'`);
  refuseBuiltinName(get, name);
  const { level } = revision.info;
  const current = get(name, level);
  const filePath = current?.filePath ?? join(writableDirectory(deps.config, level), `${name}.md`);
  if (await exists(filePath)) {
    const text = await readRegularText(filePath);
    if (text !== revision.content) {
      await deps.revisions.save(level, name, text);
      await writeFileAtomic(filePath, revision.content);
    }
  } else {
    await writeFileAtomic(filePath, revision.content);
  }
  await deps.index.reload();
  return (
    get(name, level) ?? fail(`restored ${filePath} but it did not load under the name '${name}'`)
  );
}

/** The file as it is now; deleted by hand since the last scan counts as not found. */
async function readCurrent(deps: AuthoringDeps, filePath: string, name: string): Promise<string> {
  try {
    return await readRegularText(filePath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    await deps.index.reload();
    throw agentNotFound(`no agent named '${name}' (its file was removed)`);
  }
}

/** A text edit write-back cannot make safely is the caller's bad input (422), not a crash. */
function refusingBadEdits(prefix: string, edit: () => string): string {
  try {
    return edit();
  } catch (error) {
    if (error instanceof FrontmatterEditError)
      throw invalidDefinition([{ path: '', message: `${prefix}${error.message}` }]);
    throw error;
  }
}

function fail(message: string): never {
  throw new Error(message);
}

/**
 * The refusals authoring makes before it writes anything: reserved built-in names, a name
 * already taken at the target level, a read-only or missing target, a model that cannot run.
 * Each throws the DeputyError the API maps to its status; none touches a file.
 */
import { access } from 'node:fs/promises';
import { DeputyError, agentNotFound } from '../../errors.js';
import type { DefinitionLevel } from '../../shared/capability-snapshot.js';
import type { LoadedDefinition } from '../definition.js';
import type { WritableLevel } from '../levels.js';
import { modelProblem, type ModelSettings } from '../model-check.js';
import type { ValidationIssue } from '../schema.js';
import type { LiveIndex } from './live-index.js';

type Lookup = LiveIndex['get'];

const READ_ONLY_REASON: Partial<Record<DefinitionLevel, string>> = {
  builtin: 'is a built-in agent and cannot be changed through the API',
  ecosystem:
    'comes from .claude/agents or .qwen/agents and is read-only through deputy; edit that file itself',
};

export function refuseBuiltinName(get: Lookup, name: string): void {
  const builtin = get(name, 'builtin');
  if (builtin !== undefined) {
    throw new DeputyError(
      'conflict',
      `'${name}' is a built-in agent name; built-in agents cannot be overridden, choose a different name`,
      { code: 'agent_name_reserved' },
    );
  }
}

/** The name is free at `level` (another level may hold it: the higher level then shadows). */
export async function refuseTaken(
  get: Lookup,
  name: string,
  level: WritableLevel,
  filePath: string,
): Promise<void> {
  const existing = get(name, level);
  if (existing !== undefined || (await exists(filePath))) {
    throw new DeputyError(
      'conflict',
      `an agent named '${name}' already exists at the ${level} level (${existing?.filePath ?? filePath})`,
      { code: 'agent_already_exists' },
    );
  }
}

export function writableEntry(
  get: Lookup,
  name: string,
  action: string,
  level?: WritableLevel,
): LoadedDefinition {
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

/** An omitted model is `default`, which must be runnable too (refused on save). */
export function checkModel(
  settings: ModelSettings | undefined,
  env: NodeJS.ProcessEnv,
  model: unknown,
): ValidationIssue[] {
  if (settings === undefined) return [];
  const problem = modelProblem(typeof model === 'string' ? model : 'default', settings, env);
  return problem === null ? [] : [{ path: 'model', message: problem }];
}

export async function exists(path: string): Promise<boolean> {
  try {
    await access(path);
    return true;
  } catch {
    return false;
  }
}

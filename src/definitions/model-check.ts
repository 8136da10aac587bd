/**
 * Can this definition's `model:` run on the configured catalog? One rule for two places:
 * a save is refused with it (a 422), and a loaded file that fails it carries a diagnostic, so a
 * handle that is not in the catalog shows in `deputy agents list` and the API before a
 * delegation fails on it.
 */
import type { DeputyConfig } from '../config/schema.js';
import { builtinCatalogEntry, builtinModelHandle } from '../models/builtin-models.js';

export type ModelSettings = Pick<DeputyConfig['models'], 'default' | 'catalog' | 'aliases'>;

const SCRIPTED = 'scripted:';

/**
 * Why `model` cannot run, or null when it can: a scripted model, a catalog handle, an alias of
 * one, or `default` when `models.default` is one of those. Script files are checked when the
 * delegation starts (their path depends on the definition's level).
 */
export function modelProblem(
  model: string,
  models: ModelSettings,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  const handle = model.trim();
  if (handle === 'default') {
    const target = models.default;
    return runnable(target, models, env)
      ? null
      : `'default' means models.default, which is '${target}': not a scripted model and not in the model catalog (${catalogList(models)}); no model is configured to run this agent`;
  }
  if (runnable(handle, models, env)) return null;
  if (Object.hasOwn(models.aliases, handle)) {
    return `'${handle}' is an alias of '${models.aliases[handle] ?? ''}', which is not in the model catalog (${catalogList(models)})`;
  }
  const handles = Object.keys(models.catalog);
  return `'${handle}' is not in the model catalog; use 'default'${handles.length === 0 ? ' (the catalog is empty)' : ` or one of: ${handles.join(', ')}`}`;
}

/** The same order as the runtime (src/models/select-model.ts): aliases, then built-ins. */
function runnable(handle: string, models: ModelSettings, env: NodeJS.ProcessEnv): boolean {
  const direct = (target: string): boolean =>
    target.startsWith(SCRIPTED) ||
    Object.hasOwn(models.catalog, target) ||
    builtinCatalogEntry(target, models.catalog, env) !== undefined;
  if (direct(handle)) return true;
  const target = Object.hasOwn(models.aliases, handle)
    ? models.aliases[handle]
    : builtinModelHandle(handle, models.catalog, env);
  return target !== undefined && direct(target);
}

function catalogList(models: ModelSettings): string {
  const handles = Object.keys(models.catalog);
  return handles.length === 0 ? 'the catalog is empty' : handles.join(', ');
}

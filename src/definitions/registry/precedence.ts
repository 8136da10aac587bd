/**
 * Turns every loaded file into the lookup index: the highest level wins a name, and
 * both sides of a shadow or a same-level duplicate carry a diagnostic saying so.
 */
import type { LoadedDefinition } from '../definition.js';
import { levelRank } from '../levels.js';

export interface RegistryIndex {
  /** Every loaded file, shadowed ones included, in list order. */
  all: LoadedDefinition[];
  /** The entry a name resolves to. */
  byName: Map<string, LoadedDefinition>;
}

/** Level precedence, then displayOrder ascending, ties by name (never across levels). */
export function compareForList(a: LoadedDefinition, b: LoadedDefinition): number {
  return (
    levelRank(a.level) - levelRank(b.level) ||
    a.definition.displayOrder - b.definition.displayOrder ||
    a.definition.name.localeCompare(b.definition.name) ||
    a.filePath.localeCompare(b.filePath)
  );
}

export function buildIndex(entries: LoadedDefinition[]): RegistryIndex {
  const groups = new Map<string, LoadedDefinition[]>();
  for (const entry of entries) {
    const group = groups.get(entry.definition.name);
    if (group === undefined) groups.set(entry.definition.name, [entry]);
    else group.push(entry);
  }
  const byName = new Map<string, LoadedDefinition>();
  for (const [name, group] of groups) {
    group.sort(
      (a, b) => levelRank(a.level) - levelRank(b.level) || a.filePath.localeCompare(b.filePath),
    );
    const winner = group[0]!;
    byName.set(name, winner);
    for (const other of group.slice(1)) {
      if (other.level === winner.level) {
        winner.diagnostics.push({
          severity: 'warning',
          path: 'name',
          code: 'definition.duplicate',
          message: `${other.filePath} declares the same name '${name}' at this level and is ignored`,
        });
        other.diagnostics.push({
          severity: 'error',
          path: 'name',
          code: 'definition.duplicate',
          message: `ignored: ${winner.filePath} declares the same name '${name}' at this level`,
        });
      } else {
        winner.diagnostics.push({
          severity: 'warning',
          path: 'name',
          code: 'definition.shadows',
          message: `this ${winner.level} definition shadows the ${other.level} definition of '${name}' at ${other.filePath}`,
        });
        other.diagnostics.push({
          severity: 'warning',
          path: 'name',
          code: 'definition.shadowed-by',
          message: `not used: the ${winner.level} definition at ${winner.filePath} has the same name '${name}' and wins`,
        });
      }
    }
  }
  return { all: [...entries].sort(compareForList), byName };
}

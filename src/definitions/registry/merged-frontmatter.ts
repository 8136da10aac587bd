/**
 * What an update would leave in the file, as raw values, so it can be validated strictly
 * before anything is written. Write-back (write-back.ts) then edits the text itself.
 */
import { invalidDefinition } from '../../errors.js';
import { splitFrontmatter } from '../read/frontmatter.js';
import { readFrontmatterYaml } from '../read/yaml-memo.js';
import { FRONTMATTER_FIELDS } from '../schema.js';
import { isClearingValue } from './write-back.js';

/**
 * The known fields the file would have after the change, as raw values, for strict validation.
 * Unknown keys and legacy spellings are left out: write-back keeps them exactly as they are.
 */
export function mergedFrontmatter(
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

/** The changes write-back applies: an undefined value means "not sent", not "clear". */
export function withoutUndefined(changes: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const key of Object.keys(changes)) if (changes[key] !== undefined) out[key] = changes[key];
  return out;
}

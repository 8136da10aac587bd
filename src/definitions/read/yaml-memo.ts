/**
 * Each frontmatter text is parsed once (the `yaml` library was most of what a registry
 * reload of unchanged files cost). Reading YAML is a pure function of the text, so an answer
 * kept under the exact text is never stale; every caller gets its own copy, since the registry
 * appends diagnostics and authoring merges values. Bounded by the characters kept, oldest out.
 */
import type { Diagnostic } from '../../shared/diagnostics.js';
import { parseFrontmatterYaml, type PlainRecord, type YamlReadResult } from './yaml-read.js';

/** About 8 MB of frontmatter text: thousands of definitions, not an unbounded cache. */
const MAX_KEPT_CHARACTERS = 4_000_000;

const kept = new Map<string, YamlReadResult>();
let keptCharacters = 0;

export function readFrontmatterYaml(yamlText: string): YamlReadResult {
  let answer = kept.get(yamlText);
  if (answer === undefined) {
    answer = parseFrontmatterYaml(yamlText);
    keep(yamlText, answer);
  }
  return {
    values: answer.values === undefined ? undefined : copyRecord(answer.values),
    diagnostics: answer.diagnostics.map((diagnostic): Diagnostic => ({ ...diagnostic })),
  };
}

function keep(yamlText: string, answer: YamlReadResult): void {
  if (yamlText.length > MAX_KEPT_CHARACTERS) return;
  kept.set(yamlText, answer);
  keptCharacters += yamlText.length;
  // A Map iterates in insertion order: the first keys are the oldest.
  for (const oldest of kept.keys()) {
    if (keptCharacters <= MAX_KEPT_CHARACTERS) break;
    kept.delete(oldest);
    keptCharacters -= oldest.length;
  }
}

/** A deep copy of what parseFrontmatterYaml makes: null-prototype records, arrays, scalars. */
function copyRecord(record: PlainRecord): PlainRecord {
  const copy = Object.create(null) as PlainRecord;
  for (const key of Object.keys(record)) copy[key] = copyValue(record[key]);
  return copy;
}

function copyValue(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(copyValue);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    return Object.getPrototypeOf(value) === null
      ? copyRecord(value as PlainRecord)
      : Object.fromEntries(Object.entries(value).map(([key, item]) => [key, copyValue(item)]));
  }
  return value;
}

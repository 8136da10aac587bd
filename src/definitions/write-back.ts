/**
 * Round-trip writing (DEF-6): only the fields the caller sent change. The yaml Document API
 * keeps comments, key order, quoting and unknown keys of everything else; the body is
 * reattached byte for byte.
 */
import { Document, isCollection, isMap, isScalar, parseDocument } from 'yaml';
import type { Node, YAMLMap } from 'yaml';
import { RUN_CONFIG_TURNS_KEY } from './ecosystem.js';
import { splitFrontmatter } from './frontmatter.js';
import { FRONTMATTER_FIELDS } from './schema.js';

/** The file's frontmatter cannot be edited safely (not YAML, not a mapping, not closed). */
export class FrontmatterEditError extends Error {
  override readonly name = 'FrontmatterEditError';
}

const TO_STRING_OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

/** `null`, `[]` and `{}` clear a field (API-3); `undefined` means "not sent". */
export function isClearingValue(value: unknown): boolean {
  if (value === null) return true;
  if (Array.isArray(value)) return value.length === 0;
  if (typeof value === 'object' && value !== undefined) return Object.keys(value).length === 0;
  return false;
}

/**
 * Applies `changes` to a definition file's frontmatter and returns the new text.
 * Throws FrontmatterEditError when the existing frontmatter cannot be edited without loss.
 */
export function applyChanges(originalText: string, changes: Record<string, unknown>): string {
  const keys = Object.keys(changes).filter((key) => changes[key] !== undefined);
  if (keys.length === 0) return originalText;
  const split = splitFrontmatter(originalText);
  if (split.unclosed) {
    throw new FrontmatterEditError(
      'the frontmatter opens with --- but is never closed; fix the file first',
    );
  }
  let doc: Document;
  if (split.hasFrontmatter) {
    doc = parseDocument(split.yaml, { uniqueKeys: false, logLevel: 'silent' });
    if (doc.errors.length > 0) {
      throw new FrontmatterEditError(
        `the frontmatter is not valid YAML, so it cannot be edited without loss: ${doc.errors[0]?.message.split('\n')[0] ?? ''}`,
      );
    }
  } else {
    doc = new Document({});
  }
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) {
    doc.contents = doc.createNode({}) as Node as typeof doc.contents;
  }
  if (!isMap(doc.contents)) {
    throw new FrontmatterEditError('the frontmatter is not a mapping of field names to values');
  }
  const map = doc.contents as YAMLMap;
  for (const key of keys) {
    const value = changes[key];
    if (key === 'maxTurns') setTurns(doc, map, value);
    else if (isClearingValue(value)) map.delete(key);
    else setField(doc, map, key, value);
  }
  let yamlText =
    map.items.length === 0 && !doc.commentBefore && !doc.comment
      ? ''
      : doc.toString(TO_STRING_OPTIONS);
  if (split.newline === '\r\n') yamlText = yamlText.replace(/\r?\n/g, '\r\n');
  const open = split.hasFrontmatter ? split.open : '---\n';
  const close = split.hasFrontmatter ? split.close : '---\n';
  return open + yamlText + close + split.body;
}

/** Replaces a value in place when both are scalars, so its quoting style and comments survive. */
function setField(doc: Document, map: YAMLMap, key: string, value: unknown): void {
  const existing = map.get(key, true) as Node | undefined;
  if (isScalar(existing) && (value === null || typeof value !== 'object')) {
    existing.value = value;
    return;
  }
  const node = doc.createNode(value) as Node;
  if (existing !== undefined) {
    if (isCollection(existing) && isCollection(node)) node.flow = existing.flow ?? false;
    node.comment = existing.comment;
    node.commentBefore = existing.commentBefore;
  }
  map.set(key, node);
}

/**
 * maxTurns is read from three spellings (DEF-1); every spelling the file already uses is
 * updated so they never disagree, and a file using none gets `maxTurns`.
 */
function setTurns(doc: Document, map: YAMLMap, value: unknown): void {
  const runConfig = map.get('runConfig', true);
  const runConfigHasTurns = isMap(runConfig) && runConfig.has(RUN_CONFIG_TURNS_KEY);
  if (isClearingValue(value)) {
    map.delete('maxTurns');
    map.delete('maxToolRounds');
    if (runConfigHasTurns) {
      runConfig.delete(RUN_CONFIG_TURNS_KEY);
      if (runConfig.items.length === 0) map.delete('runConfig');
    }
    return;
  }
  const hasAlias = map.has('maxToolRounds');
  if (map.has('maxTurns') || (!hasAlias && !runConfigHasTurns))
    setField(doc, map, 'maxTurns', value);
  if (hasAlias) setField(doc, map, 'maxToolRounds', value);
  if (runConfigHasTurns) setField(doc, runConfig, RUN_CONFIG_TURNS_KEY, value);
}

/**
 * Writes a new definition file: DEF-1 fields in DEF-1 order, then any other keys, then the
 * body exactly as given. Empty and null values are left out.
 */
export function serializeNewDefinition(frontmatter: Record<string, unknown>, body: string): string {
  const ordered: Record<string, unknown> = {};
  const known = FRONTMATTER_FIELDS as readonly string[];
  const keys = [
    ...known.filter((key) => Object.hasOwn(frontmatter, key)),
    ...Object.keys(frontmatter).filter((key) => !known.includes(key)),
  ];
  for (const key of keys) {
    const value = frontmatter[key];
    if (value === undefined || isClearingValue(value)) continue;
    // defineProperty: a `__proto__` key stays an ordinary key instead of setting a prototype.
    Object.defineProperty(ordered, key, {
      value,
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  const yamlText =
    Object.keys(ordered).length === 0 ? '' : new Document(ordered).toString(TO_STRING_OPTIONS);
  return `---\n${yamlText}---\n${body}`;
}

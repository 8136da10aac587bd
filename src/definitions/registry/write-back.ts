/**
 * Round-trip writing: only the fields the caller sent change. The yaml Document API
 * keeps comments, key order, quoting and unknown keys of everything else; the body is
 * reattached byte for byte.
 */
import { Document, isCollection, isMap, isScalar, parseDocument } from 'yaml';
import type { Node, YAMLMap } from 'yaml';
import { RUN_CONFIG_TURNS_KEY } from '../ecosystem.js';
import { splitFrontmatter } from '../read/frontmatter.js';
import { FRONTMATTER_FIELDS } from '../schema.js';

/** The file's frontmatter cannot be edited safely (not YAML, not a mapping, not closed). */
export class FrontmatterEditError extends Error {
  override readonly name = 'FrontmatterEditError';
}

const TO_STRING_OPTIONS = { lineWidth: 0, flowCollectionPadding: false } as const;

/** `null`, `[]` and `{}` clear a field; `undefined` means "not sent". */
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
  const spans = split.hasFrontmatter ? pairSpans(map, split.yaml) : undefined;
  const before = new Set(map.items.map(pairKey));
  const touched = new Set<string>();
  for (const key of keys) {
    const value = changes[key];
    if (key === 'maxTurns') setTurns(doc, map, value, touched);
    else {
      touched.add(key);
      if (isClearingValue(value)) map.delete(key);
      else setField(doc, map, key, value);
    }
  }
  let yamlText =
    (spans === undefined ? undefined : splice(doc, map, split.yaml, spans, before, touched)) ??
    (map.items.length === 0 && !doc.commentBefore && !doc.comment
      ? ''
      : doc.toString(TO_STRING_OPTIONS));
  if (split.newline === '\r\n') yamlText = yamlText.replace(/\r?\n/g, '\r\n');
  const open = split.hasFrontmatter ? split.open : '---\n';
  const close = split.hasFrontmatter ? split.close : '---\n';
  return open + yamlText + close + split.body;
}

/** Keys parsed from the file are Scalar nodes; keys added by `map.set` are plain strings. */
function pairKey(pair: YAMLMap['items'][number]): string {
  return String(isScalar(pair.key) ? pair.key.value : pair.key);
}

interface Span {
  start: number;
  end: number;
}

/**
 * Where each top-level `key: value` sits in the original text, whole lines. Undefined when the
 * map is not a plain block map with unique keys; then the whole document is re-printed.
 */
function pairSpans(map: YAMLMap, text: string): Map<string, Span> | undefined {
  if (map.flow === true) return undefined;
  const spans = new Map<string, Span>();
  const starts: number[] = [];
  for (const pair of map.items) {
    const key = pair.key as Node | null;
    if (!isScalar(key) || key.range == null) return undefined;
    const name = String(key.value);
    if (spans.has(name)) return undefined;
    const start = text.lastIndexOf('\n', key.range[0] - 1) + 1;
    const value = pair.value as Node | null;
    let end = value?.range == null ? key.range[2] : Math.max(value.range[2], key.range[2]);
    if (end > 0 && text[end - 1] !== '\n') {
      const lineEnd = text.indexOf('\n', end);
      end = lineEnd === -1 ? text.length : lineEnd + 1;
    }
    spans.set(name, { start, end });
    starts.push(start);
  }
  // A span never reaches into the next pair's lines (comments above a key belong to that key).
  const ordered = [...spans.values()].sort((a, b) => a.start - b.start);
  ordered.forEach((span, index) => {
    const next = ordered[index + 1];
    if (next !== undefined && span.end > next.start) span.end = next.start;
  });
  return spans;
}

/**
 * Rewrites only the touched pairs in the original text, so every untouched byte (spacing,
 * quoting, flow padding, comments) stays exactly as the author wrote it.
 */
function splice(
  doc: Document,
  map: YAMLMap,
  original: string,
  spans: Map<string, Span>,
  before: Set<string>,
  touched: Set<string>,
): string | undefined {
  try {
    const edits: Array<{ span: Span; text: string }> = [];
    let appended = '';
    for (const key of touched) {
      const pair = map.items.find((item) => pairKey(item) === key);
      const text = pair === undefined ? '' : printPair(doc, pair);
      const span = spans.get(key);
      if (span !== undefined && before.has(key)) edits.push({ span, text });
      else appended += text;
    }
    let out = original;
    for (const edit of edits.sort((a, b) => b.span.start - a.span.start)) {
      let text = edit.text;
      // Keep the line break the original pair ended with (the last line may have none).
      if (original[edit.span.end - 1] !== '\n' && text.endsWith('\n')) text = text.slice(0, -1);
      out = out.slice(0, edit.span.start) + text + out.slice(edit.span.end);
    }
    if (appended !== '') out += (out === '' || out.endsWith('\n') ? '' : '\n') + appended;
    return out;
  } catch {
    return undefined;
  }
}

/** One pair printed alone, without the comment lines above it (they stay in the original text). */
function printPair(doc: Document, pair: YAMLMap['items'][number]): string {
  const key = isScalar(pair.key) ? pair.key : undefined;
  const saved = { commentBefore: key?.commentBefore, spaceBefore: key?.spaceBefore };
  if (key !== undefined) {
    key.commentBefore = undefined;
    key.spaceBefore = undefined;
  }
  try {
    const single = new Document(null, doc.options);
    const holder = single.createNode({}) as YAMLMap;
    holder.items.push(pair);
    single.contents = holder as typeof single.contents;
    return single.toString(TO_STRING_OPTIONS);
  } finally {
    if (key !== undefined) {
      key.commentBefore = saved.commentBefore;
      key.spaceBefore = saved.spaceBefore;
    }
  }
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
 * maxTurns is read from three spellings (read/turns.ts); every spelling the file already uses is
 * updated so they never disagree, and a file using none gets `maxTurns`.
 */
function setTurns(doc: Document, map: YAMLMap, value: unknown, touched: Set<string>): void {
  const runConfig = map.get('runConfig', true);
  const runConfigHasTurns = isMap(runConfig) && runConfig.has(RUN_CONFIG_TURNS_KEY);
  if (isClearingValue(value)) {
    if (map.delete('maxTurns')) touched.add('maxTurns');
    if (map.delete('maxToolRounds')) touched.add('maxToolRounds');
    if (runConfigHasTurns) {
      touched.add('runConfig');
      runConfig.delete(RUN_CONFIG_TURNS_KEY);
      if (runConfig.items.length === 0) map.delete('runConfig');
    }
    return;
  }
  const hasAlias = map.has('maxToolRounds');
  if (map.has('maxTurns') || (!hasAlias && !runConfigHasTurns)) {
    setField(doc, map, 'maxTurns', value);
    touched.add('maxTurns');
  }
  if (hasAlias) {
    setField(doc, map, 'maxToolRounds', value);
    touched.add('maxToolRounds');
  }
  if (runConfigHasTurns) {
    setField(doc, runConfig, RUN_CONFIG_TURNS_KEY, value);
    touched.add('runConfig');
  }
}

/** The same file with its body (the system prompt) replaced and the frontmatter untouched. */
export function replaceBody(text: string, body: string): string {
  const split = splitFrontmatter(text);
  if (split.unclosed) {
    throw new FrontmatterEditError(
      'the frontmatter opens with --- but is never closed; fix the file first',
    );
  }
  return text.slice(0, text.length - split.body.length) + body;
}

/**
 * Writes a new definition file: the known fields in schema.ts order, then any other keys, then the
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

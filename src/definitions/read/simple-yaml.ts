/**
 * A fast reader for the frontmatter nearly every agent file has: `key: value` lines whose values
 * are one-line scalars, one-line flow lists and maps, and block lists (of scalars, flow values or
 * one-level maps). The `yaml` library spends most of a registry load on such files (lexer, CST,
 * document, then toJS); this reads them in one pass.
 *
 * It answers only when it is sure: anything outside that subset (multi-line or block scalars,
 * anchors, tags, escapes beyond the common ones, numbers other than plain integers, tabs, CRs,
 * duplicate keys...) returns undefined and the caller parses with the `yaml` library as before.
 * Whatever it accepts, the library reads to the same values without an error or a diagnostic;
 * test/definitions/simple-yaml.test.ts checks that against the library.
 */
import type { PlainRecord } from './yaml-read.js';

/** Characters that make a file leave the fast path: controls (but `\n`), CR, tab, BOM, separators. */
// eslint-disable-next-line no-control-regex
const UNUSUAL_CHARACTER = /[\x00-\x09\x0b-\x1f\x7f-\x9f\u2028\u2029\ufeff]/;
const TOP_LEVEL_ENTRY = /^([A-Za-z_][A-Za-z0-9_-]*):(?: +(.*))?$/;
const NESTED_ENTRY = /^([A-Za-z_][A-Za-z0-9_-]*): +(.*)$/;
const ITEM = /^( *)- +(.*)$/;
const PLAIN_INTEGER = /^[0-9]+$/;
/** A plain scalar the core schema reads as a string: it starts with a letter, `_` or `/`. */
const PLAIN_STRING_START = /^[A-Za-z_/]/;
/** YAML caps an implicit key at 1024 characters; longer ones are an error the library reports. */
const MAX_PLAIN_KEY_LENGTH = 1000;
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
/** Plain words the YAML 1.2 core schema reads as null or a boolean. */
const PLAIN_WORDS: ReadonlyMap<string, null | boolean> = new Map<string, null | boolean>([
  ['~', null],
  ['null', null],
  ['Null', null],
  ['NULL', null],
  ['true', true],
  ['True', true],
  ['TRUE', true],
  ['false', false],
  ['False', false],
  ['FALSE', false],
]);
const ESCAPES: Readonly<Record<string, string>> = {
  '\\': '\\',
  '"': '"',
  '/': '/',
  n: '\n',
  t: '\t',
};

/** Not in the subset: the caller falls back to the `yaml` library. */
class NotSimple extends Error {}
const NOT_SIMPLE = new NotSimple();

/** The frontmatter's top-level values, or undefined when it is not in the simple subset. */
export function readSimpleFrontmatter(yamlText: string): PlainRecord | undefined {
  return readIfSimple(yamlText, () => false);
}

/**
 * The first error the `yaml` library reports for a top-level plain value containing `: `
 * (`description: Use when: 'x'`), the one mistake common in Claude Code files.
 */
export const UNQUOTED_COLON_ERROR = 'Nested mappings are not allowed in compact mappings';

/**
 * True when the text is simple but for top-level plain values containing `: `, which strict
 * YAML rejects, the library first with UNQUOTED_COLON_ERROR. Only values of the shape the
 * tests hold that error for: one that starts with a letter, `_` or `/`, goes on after its
 * first `: ` with a letter, digit, `_`, `/`, `(` or a quote, and has that `: ` well within
 * YAML's 1024-character limit for a key (past it the library reports that limit instead).
 */
export function isSimpleButForUnquotedColons(yamlText: string): boolean {
  let found = false;
  const tolerate = (value: string): boolean => {
    const colon = value.indexOf(': ');
    if (colon === -1 || colon > MAX_PLAIN_KEY_LENGTH || !PLAIN_STRING_START.test(value))
      return false;
    if (!/^ *[A-Za-z0-9_/('"]/.test(value.slice(colon + 2))) return false;
    found = true;
    return true;
  };
  return readIfSimple(yamlText, tolerate) !== undefined && found;
}

function readIfSimple(
  yamlText: string,
  tolerate: (topLevelValue: string) => boolean,
): PlainRecord | undefined {
  if (UNUSUAL_CHARACTER.test(yamlText)) return undefined;
  try {
    return readLines(yamlText.split('\n'), tolerate);
  } catch (error) {
    if (error instanceof NotSimple) return undefined;
    throw error;
  }
}

function readLines(lines: string[], tolerate: (topLevelValue: string) => boolean): PlainRecord {
  const values = Object.create(null) as PlainRecord;
  let index = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    index++;
    if (isBlankOrComment(line)) continue;
    const entry = TOP_LEVEL_ENTRY.exec(line);
    if (entry === null) throw NOT_SIMPLE;
    const key = checkedKey(entry[1]!, values);
    const rest = withoutComment(entry[2] ?? '');
    if (rest !== '') {
      values[key] = tolerate(rest) ? rest : readInlineValue(rest);
      continue;
    }
    const block = readBlockList(lines, index);
    values[key] = block.list ?? null;
    index = block.next;
  }
  return values;
}

/** The block list under a key whose value is empty, or none (the value is null). */
function readBlockList(lines: string[], start: number): { list?: unknown[]; next: number } {
  let index = start;
  let indent: number | undefined;
  const list: unknown[] = [];
  let openMap: PlainRecord | undefined;
  let mapIndent = 0;
  while (index < lines.length) {
    const line = lines[index]!;
    if (isBlankOrComment(line)) {
      index++;
      continue;
    }
    const item = ITEM.exec(line);
    if (item !== null && (indent === undefined || item[1]!.length === indent)) {
      indent = item[1]!.length;
      index++;
      const content = item[2]!;
      const entry = NESTED_ENTRY.exec(content);
      if (entry === null) {
        openMap = undefined;
        list.push(readInlineValue(withoutComment(content)));
      } else {
        openMap = Object.create(null) as PlainRecord;
        // The map's further keys line up with its first one, after the `- `.
        mapIndent = line.length - content.length;
        openMap[checkedKey(entry[1]!, openMap)] = readInlineValue(withoutComment(entry[2]!));
        list.push(openMap);
      }
      continue;
    }
    const lineIndent = line.length - line.trimStart().length;
    if (lineIndent === 0) break;
    // An indented line that is not an item: only a further key of the item's map is simple.
    if (openMap === undefined || lineIndent !== mapIndent) throw NOT_SIMPLE;
    const entry = NESTED_ENTRY.exec(line.slice(lineIndent));
    if (entry === null) throw NOT_SIMPLE;
    openMap[checkedKey(entry[1]!, openMap)] = readInlineValue(withoutComment(entry[2]!));
    index++;
  }
  return indent === undefined ? { next: index } : { list, next: index };
}

function isBlankOrComment(line: string): boolean {
  const trimmed = line.trimStart();
  return trimmed === '' || trimmed.startsWith('#');
}

function checkedKey(key: string, into: PlainRecord): string {
  // Duplicates and keys the schema reads as null or a boolean carry diagnostics: the library's job.
  if (
    key.length > MAX_PLAIN_KEY_LENGTH ||
    key === '__proto__' ||
    PLAIN_WORDS.has(key) ||
    Object.hasOwn(into, key)
  )
    throw NOT_SIMPLE;
  return key;
}

/** The value text without a trailing ` # comment` when it is a plain scalar or a flow value. */
function withoutComment(text: string): string {
  const first = text[0];
  if (first === '"' || first === "'") return text;
  const hash = text.indexOf(' #');
  return (hash === -1 ? text : text.slice(0, hash)).trimEnd();
}

/** A one-line value: a quoted or plain scalar, or a flow list or map of scalars. */
function readInlineValue(text: string): unknown {
  const first = text[0];
  if (first === '[' || first === '{' || first === '"' || first === "'") {
    const cursor = { text, at: 0 };
    const value =
      first === '['
        ? readFlowList(cursor)
        : first === '{'
          ? readFlowMap(cursor)
          : readQuoted(cursor);
    // Only spaces may follow, or a comment set off by at least one space.
    if (!/^(?: *| +#.*)$/.test(text.slice(cursor.at))) throw NOT_SIMPLE;
    return value;
  }
  return plainScalar(text, false);
}

interface Cursor {
  text: string;
  at: number;
}

function readFlowList(cursor: Cursor): unknown[] {
  cursor.at++; // [
  const list: unknown[] = [];
  skipSpaces(cursor);
  if (cursor.text[cursor.at] === ']') {
    cursor.at++;
    return list;
  }
  for (;;) {
    skipSpaces(cursor);
    const first = cursor.text[cursor.at];
    list.push(first === '{' ? readFlowMap(cursor) : readFlowScalar(cursor));
    skipSpaces(cursor);
    const separator = cursor.text[cursor.at++];
    if (separator === ']') return list;
    if (separator !== ',') throw NOT_SIMPLE;
  }
}

function readFlowMap(cursor: Cursor): PlainRecord {
  cursor.at++; // {
  const map = Object.create(null) as PlainRecord;
  skipSpaces(cursor);
  if (cursor.text[cursor.at] === '}') {
    cursor.at++;
    return map;
  }
  for (;;) {
    skipSpaces(cursor);
    const colon = cursor.text.indexOf(': ', cursor.at);
    if (colon === -1) throw NOT_SIMPLE;
    const key = cursor.text.slice(cursor.at, colon);
    if (!PLAIN_KEY.test(key)) throw NOT_SIMPLE;
    checkedKey(key, map);
    cursor.at = colon + 2;
    skipSpaces(cursor);
    map[key] = readFlowScalar(cursor);
    skipSpaces(cursor);
    const separator = cursor.text[cursor.at++];
    if (separator === '}') return map;
    if (separator !== ',') throw NOT_SIMPLE;
  }
}

/** A scalar inside `[ ]` or `{ }`: quoted, or plain up to the next `,`, `]` or `}`. */
function readFlowScalar(cursor: Cursor): unknown {
  const first = cursor.text[cursor.at];
  if (first === '"' || first === "'") return readQuoted(cursor);
  const match = /^[^,[\]{}]*/.exec(cursor.text.slice(cursor.at))![0];
  cursor.at += match.length;
  return plainScalar(match.trimEnd(), true);
}

function readQuoted(cursor: Cursor): string {
  const { text } = cursor;
  const quote = text[cursor.at]!;
  let out = '';
  for (let i = cursor.at + 1; i < text.length; i++) {
    const char = text[i]!;
    if (char === quote) {
      if (quote === "'" && text[i + 1] === "'") {
        out += "'";
        i++;
        continue;
      }
      cursor.at = i + 1;
      return out;
    }
    if (quote === '"' && char === '\\') {
      const escaped = ESCAPES[text[i + 1] ?? ''];
      if (escaped === undefined) throw NOT_SIMPLE;
      out += escaped;
      i++;
      continue;
    }
    out += char;
  }
  // Not closed on this line: a multi-line scalar, the library's job.
  throw NOT_SIMPLE;
}

/**
 * A plain scalar as the YAML 1.2 core schema reads it, limited to strings starting with a
 * letter, `_` or `/`, the null and boolean words and unsigned decimal integers.
 */
function plainScalar(text: string, inFlow: boolean): unknown {
  if (text === '') throw NOT_SIMPLE;
  const word = PLAIN_WORDS.get(text);
  if (word !== undefined) return word;
  if (PLAIN_INTEGER.test(text)) return parseInt(text, 10);
  if (!PLAIN_STRING_START.test(text)) throw NOT_SIMPLE;
  // `: ` or a final `:` would start a mapping, ` #` a comment; in a flow `:` and `#` at all.
  if (text.includes(': ') || text.endsWith(':') || text.includes(' #')) throw NOT_SIMPLE;
  if (inFlow && (text.includes(':') || text.includes('#'))) throw NOT_SIMPLE;
  return text;
}

function skipSpaces(cursor: Cursor): void {
  while (cursor.text[cursor.at] === ' ') cursor.at++;
}

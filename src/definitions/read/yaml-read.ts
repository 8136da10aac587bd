/**
 * Reads frontmatter YAML defensively: alias bombs, deep nesting, duplicate keys and
 * `__proto__` keys become diagnostics instead of crashes or polluted prototypes.
 */
import { isAlias, isMap, isPair, isScalar, isSeq, parseDocument } from 'yaml';
import type { Document, Node } from 'yaml';
import type { Diagnostic } from '../../shared/diagnostics.js';

/** Aliases expanded per top-level value; beyond this the value is refused (billion-laughs defence). */
export const MAX_ALIAS_COUNT = 100;
/** Deepest nesting accepted in one frontmatter value; no definition field needs more than 4. */
export const MAX_VALUE_DEPTH = 32;

export type PlainRecord = Record<string, unknown>;

export interface YamlReadResult {
  /** Top-level keys in file order, as a null-prototype object. `undefined` when unreadable. */
  values: PlainRecord | undefined;
  diagnostics: Diagnostic[];
}

/** How frontmatter is parsed; api/agents/source-lines.ts parses the same way to find lines. */
export const PARSE_OPTIONS = {
  uniqueKeys: false,
  maxAliasCount: MAX_ALIAS_COUNT,
  logLevel: 'silent',
  prettyErrors: false,
} as const;

/**
 * Flow collections (`[`, `{`) nested deeper than this are refused before parsing: the parser
 * would recurse thousands of frames deep before giving up, which costs far more than this scan.
 */
export const MAX_FLOW_DEPTH = 64;

/**
 * The values and diagnostics of one frontmatter text, through the `yaml` library. Callers go
 * through readFrontmatterYaml (yaml-memo.ts), which reads each distinct text once.
 */
export function parseFrontmatterYaml(yamlText: string): YamlReadResult {
  const diagnostics: Diagnostic[] = [];
  if (flowDepthExceeds(yamlText, MAX_FLOW_DEPTH)) {
    diagnostics.push({
      severity: 'error',
      path: '',
      code: 'frontmatter.too-deep',
      message: `frontmatter nests [ ] or { } more than ${MAX_FLOW_DEPTH} levels deep and is not read; every field uses its default`,
    });
    return { values: undefined, diagnostics };
  }
  let doc = parseDocument(yamlText, PARSE_OPTIONS);
  if (doc.errors.length > 0) {
    const first = doc.errors[0];
    const recovered = recoverUnquotedValues(yamlText);
    const retry = recovered === yamlText ? undefined : parseDocument(recovered, PARSE_OPTIONS);
    if (retry !== undefined && retry.errors.length === 0) {
      // Claude Code files often write `description: Use when...: 'x'` unquoted, which strict
      // YAML rejects. Quoting such values is what their authors meant; say that we did it.
      diagnostics.push({
        severity: 'warning',
        path: '',
        code: 'frontmatter.yaml-recovered',
        message: `frontmatter is not valid YAML (${firstLine(first?.message)}); read it with unquoted values containing ": " taken as plain strings`,
      });
      doc = retry;
    } else {
      diagnostics.push({
        severity: 'error',
        path: '',
        code:
          first?.code === 'RESOURCE_EXHAUSTION'
            ? 'frontmatter.too-deep'
            : 'frontmatter.invalid-yaml',
        message: `frontmatter is not valid YAML, every field uses its default: ${firstLine(first?.message)}`,
      });
      return { values: undefined, diagnostics };
    }
  }
  const contents = doc.contents;
  const values: PlainRecord = Object.create(null) as PlainRecord;
  if (contents === null || (isScalar(contents) && contents.value === null)) {
    return { values, diagnostics };
  }
  if (!isMap(contents)) {
    diagnostics.push({
      severity: 'error',
      path: '',
      code: 'frontmatter.not-a-map',
      message:
        'frontmatter must be a mapping of field names to values; every field uses its default',
    });
    return { values: undefined, diagnostics };
  }
  for (const pair of contents.items) {
    const key = scalarKey(pair.key);
    if (key === undefined) {
      diagnostics.push({
        severity: 'error',
        path: '',
        code: 'frontmatter.key-not-string',
        message: 'a frontmatter key is not a plain string; that entry is ignored',
      });
      continue;
    }
    if (Object.hasOwn(values, key)) {
      diagnostics.push({
        severity: 'error',
        path: key,
        code: 'frontmatter.duplicate-key',
        message: `'${key}' appears more than once; the last one is used`,
      });
    }
    const valueNode = pair.value as Node | null;
    const problem = checkNode(valueNode, key, diagnostics);
    if (problem !== undefined) {
      diagnostics.push(problem);
      delete values[key];
      continue;
    }
    try {
      values[key] = toPlain(
        valueNode === null
          ? null
          : valueNode.toJS(doc as Document, { maxAliasCount: MAX_ALIAS_COUNT }),
      );
    } catch (error) {
      delete values[key];
      diagnostics.push({
        severity: 'error',
        path: key,
        code: 'frontmatter.alias-limit',
        message: `'${key}' could not be read and is ignored: ${firstLine((error as Error).message)}`,
      });
    }
  }
  return { values, diagnostics };
}

/**
 * Walks a value node without recursion: refuses it when nested deeper than MAX_VALUE_DEPTH
 * and reports duplicate keys inside nested maps.
 */
function checkNode(
  root: Node | null,
  rootPath: string,
  diagnostics: Diagnostic[],
): Diagnostic | undefined {
  const stack: Array<{ node: unknown; depth: number; path: string }> = [
    { node: root, depth: 0, path: rootPath },
  ];
  while (stack.length > 0) {
    const { node, depth, path } = stack.pop()!;
    if (depth > MAX_VALUE_DEPTH) {
      return {
        severity: 'error',
        path: rootPath,
        code: 'frontmatter.too-deep',
        message: `'${rootPath}' is nested more than ${MAX_VALUE_DEPTH} levels deep and is ignored`,
      };
    }
    if (isSeq(node)) {
      node.items.forEach((item, index) =>
        stack.push({ node: item, depth: depth + 1, path: `${path}[${index}]` }),
      );
    } else if (isMap(node)) {
      const seen = new Set<string>();
      for (const item of node.items) {
        if (!isPair(item)) continue;
        const key = scalarKey(item.key) ?? '?';
        if (seen.has(key)) {
          diagnostics.push({
            severity: 'error',
            path: `${path}.${key}`,
            code: 'frontmatter.duplicate-key',
            message: `'${path}.${key}' appears more than once; the last one is used`,
          });
        }
        seen.add(key);
        stack.push({ node: item.value, depth: depth + 1, path: `${path}.${key}` });
      }
    } else if (isAlias(node) || isScalar(node) || node === null || node === undefined) {
      continue;
    }
  }
  return undefined;
}

function scalarKey(key: unknown): string | undefined {
  if (!isScalar(key)) return typeof key === 'string' ? key : undefined;
  const value = key.value;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/** Copies parsed YAML into arrays and null-prototype objects, so no key can reach a prototype. */
export function toPlain(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object' && !(value instanceof Date)) {
    const out = Object.create(null) as PlainRecord;
    for (const key of Object.keys(value)) {
      out[key] = toPlain((value as PlainRecord)[key]);
    }
    return out;
  }
  return value;
}

/**
 * Quotes top-level plain values that contain `: `, the one YAML mistake common in
 * hand-written agent files. Only used after strict parsing failed.
 */
function recoverUnquotedValues(yamlText: string): string {
  return yamlText
    .split('\n')
    .map((line) => {
      const match = /^([A-Za-z_][\w.-]*)(:[ \t]+)(.*?)(\r?)$/.exec(line);
      if (match === null) return line;
      const [, key, separator, value = '', cr] = match;
      if (value === '' || /^["'[{|>&*!#%@`]/.test(value) || !value.includes(': ')) return line;
      return `${key}${separator}${JSON.stringify(value.trimEnd())}${cr}`;
    })
    .join('\n');
}

/**
 * Conservative scan for flow nesting depth: a bracket opens a collection only where YAML allows
 * one (after `:`, `-`, `,`, `?`, another bracket, or at the start of a line); quoted text inside a
 * collection is skipped. Over-counting is possible only in absurd files, which is acceptable.
 */
function flowDepthExceeds(text: string, limit: number): boolean {
  let depth = 0;
  let previous = '\n';
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    if (depth > 0 && (char === '"' || char === "'")) {
      const end = skipQuoted(text, i, char);
      i = end;
      previous = char;
      continue;
    }
    if (char === '[' || char === '{') {
      if (depth > 0 || ':-,?[{\n'.includes(previous)) {
        depth++;
        if (depth > limit) return true;
      } else {
        // Inside a plain scalar (`a [b`): text, not a collection.
        previous = 'x';
        continue;
      }
    } else if ((char === ']' || char === '}') && depth > 0) {
      depth--;
    } else if (char === '\n' && depth === 0) {
      previous = '\n';
      continue;
    }
    if (char !== ' ' && char !== '\t') previous = char;
  }
  return false;
}

function skipQuoted(text: string, start: number, quote: string): number {
  for (let i = start + 1; i < text.length; i++) {
    if (quote === '"' && text[i] === '\\') i++;
    else if (text[i] === quote) {
      if (quote === "'" && text[i + 1] === "'") i++;
      else return i;
    }
  }
  return text.length;
}

function firstLine(message: string | undefined): string {
  return (message ?? 'unknown error').split('\n')[0] ?? '';
}

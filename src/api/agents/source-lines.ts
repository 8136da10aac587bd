/**
 * Where in an agent file a diagnostic points: the 1-based line of the YAML node its field path
 * names (`tools[1]`, `mcpServers.github.env.TOKEN`, `knowledge`), of the first YAML error, or
 * of the body for `systemPrompt`. For the editor's check route; best effort, never throws:
 * a path it cannot follow points at the deepest part it found, or at no line.
 */
import { isMap, isNode, isScalar, isSeq, LineCounter, parseDocument } from 'yaml';
import type { Document } from 'yaml';
import { splitFrontmatter } from '../../definitions/read/frontmatter.js';
// As src/definitions/read/yaml-read.ts parses frontmatter, so the nodes are the ones it read.
import { PARSE_OPTIONS } from '../../definitions/read/yaml-read.js';
import type { Diagnostic } from '../../shared/diagnostics.js';

export type LineOf = (diagnostic: Pick<Diagnostic, 'path' | 'code'>) => number | undefined;

/**
 * @param parseDiagnostics what parseDefinition said about `source`: a frontmatter it refused to
 *   parse at all (`frontmatter.too-deep` on the whole file) is not parsed here either.
 */
export function sourceLines(source: string, parseDiagnostics: readonly Diagnostic[]): LineOf {
  const split = splitFrontmatter(source);
  if (split.unclosed) {
    return ({ code }) => (code === 'frontmatter.unclosed' ? 1 : undefined);
  }
  if (!split.hasFrontmatter) {
    return ({ path }) => (path === 'systemPrompt' ? 1 : undefined);
  }
  const bodyLine = countLines(split.open + split.yaml + split.close) + 1;
  // The YAML starts on the line after the opening fence.
  const yamlFirstLine = countLines(split.open) + 1;
  const refused = parseDiagnostics.some(
    (diagnostic) => diagnostic.path === '' && diagnostic.code === 'frontmatter.too-deep',
  );
  if (refused) {
    return ({ path }) => (path === 'systemPrompt' ? bodyLine : undefined);
  }
  const lineCounter = new LineCounter();
  const doc = parseDocument(split.yaml, { ...PARSE_OPTIONS, lineCounter });
  const lineAt = (offset: number | undefined): number | undefined =>
    offset === undefined ? undefined : yamlFirstLine + lineCounter.linePos(offset).line - 1;
  const firstError = doc.errors[0]?.pos[0];

  return ({ path, code }) => {
    if (path === 'systemPrompt') return bodyLine;
    if (path === '') {
      if (!code.startsWith('frontmatter.')) return undefined;
      if (firstError !== undefined) return lineAt(firstError);
      return code === 'frontmatter.not-a-map' ? lineAt(rangeStart(doc.contents)) : undefined;
    }
    return lineAt(offsetOf(doc, path));
  };
}

/** The offset of the key (in a map) or item (in a list) the path names, or of its deepest part. */
function offsetOf(doc: Document, path: string): number | undefined {
  let node: unknown = doc.contents;
  let offset: number | undefined;
  for (const segment of segments(path)) {
    if (isMap(node)) {
      const items = node.items;
      let pair = undefined as (typeof items)[number] | undefined;
      // The last of duplicate keys is the one read (definitions/read/yaml-read.ts).
      for (let index = items.length - 1; index >= 0 && pair === undefined; index -= 1) {
        if (keyText(items[index]!.key) === String(segment)) pair = items[index];
      }
      // `mcpServers[0]` of a definition that writes its servers as a record: the first entry.
      if (pair === undefined && typeof segment === 'number') pair = items[segment];
      if (pair === undefined) break;
      offset = rangeStart(pair.key) ?? rangeStart(pair.value) ?? offset;
      node = pair.value;
    } else if (isSeq(node)) {
      const index =
        typeof segment === 'number' ? segment : /^\d+$/.test(segment) ? Number(segment) : -1;
      const item: unknown = node.items[index];
      if (item === undefined) break;
      offset = rangeStart(item) ?? offset;
      node = item;
    } else {
      break;
    }
  }
  return offset;
}

/** `mcpServers[0].env.TOKEN` -> ['mcpServers', 0, 'env', 'TOKEN']; `.0.` is a segment too. */
function segments(path: string): Array<string | number> {
  return (path.match(/\[\d+\]|[^.[\]]+/g) ?? []).map((segment) =>
    segment.startsWith('[') ? Number(segment.slice(1, -1)) : segment,
  );
}

function keyText(key: unknown): string | undefined {
  if (!isScalar(key)) return typeof key === 'string' ? key : undefined;
  const value = key.value;
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
    ? String(value)
    : undefined;
}

function rangeStart(node: unknown): number | undefined {
  return isNode(node) && node.range !== undefined && node.range !== null
    ? node.range[0]
    : undefined;
}

function countLines(text: string): number {
  let count = 0;
  for (let index = text.indexOf('\n'); index !== -1; index = text.indexOf('\n', index + 1)) {
    count += 1;
  }
  return count;
}

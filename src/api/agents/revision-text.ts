/**
 * One revision's text beside the current file's at the revision's level, for the
 * console's diff. Raw definition files may hold an inline MCP server's env values, headers and
 * OAuth client secret; the detail shows those as `__redacted__`, and so does this: each such
 * value is replaced where it stands in the YAML (its source range), so every other byte, and
 * so the diff, is the file's own.
 */
import { readRegularText } from '../../paths/regular-file.js';
import { isMap, isScalar, isSeq, parseDocument, type Node } from 'yaml';
import { splitFrontmatter } from '../../definitions/read/frontmatter.js';
import type { RevisionInfo } from '../../definitions/registry/revisions.js';
import { REDACTED } from '../../shared/redact.js';

export interface RevisionText {
  revision: RevisionInfo;
  content: string;
  /** Null when no file of that name is at the revision's level now (deleted). */
  current: string | null;
}

export async function revisionText(
  revision: { info: RevisionInfo; content: string },
  currentPath: string | undefined,
): Promise<RevisionText> {
  const current =
    currentPath === undefined ? null : await readRegularText(currentPath).catch(() => null);
  return {
    revision: revision.info,
    content: redactFile(revision.content),
    current: current === null ? null : redactFile(current),
  };
}

/** The file with each inline MCP server secret value as `__redacted__`, the rest untouched. */
export function redactFile(text: string): string {
  const split = splitFrontmatter(text);
  if (!split.hasFrontmatter) return text;
  const document = parseDocument(split.yaml, { keepSourceTokens: false });
  const servers = document.get('mcpServers', true);
  const ranges: Array<[number, number]> = [];
  // A list of names and inline servers, or Claude Code's record of name to server.
  const entries: unknown[] = isSeq(servers)
    ? servers.items
    : isMap(servers)
      ? servers.items.map((pair) => pair.value)
      : [];
  for (const server of entries) {
    if (!isMap(server)) continue;
    for (const key of ['env', 'headers']) {
      const values = server.get(key, true);
      if (isMap(values)) for (const entry of values.items) collect(entry.value, ranges);
    }
    const oauth = server.get('oauth', true);
    if (isMap(oauth)) collect(oauth.get('clientSecret', true), ranges);
  }
  if (ranges.length === 0) return text;
  let yaml = split.yaml;
  // From the end, so earlier offsets stay right.
  for (const [start, end] of ranges.sort((a, b) => b[0] - a[0])) {
    yaml = `${yaml.slice(0, start)}${REDACTED}${yaml.slice(end)}`;
  }
  return `${split.open}${yaml}${split.close}${split.body}`;
}

/** A scalar's source range; anything else (a nested value) is not a secret string. */
function collect(node: unknown, ranges: Array<[number, number]>): void {
  if (!isScalar(node as Node)) return;
  const range = (node as Node).range;
  if (range !== undefined && range !== null) ranges.push([range[0], range[1]]);
}

import { ToolError } from './tool.js';

/**
 * The line matcher shared by kb_search and memory_search: case-insensitive terms, found with
 * `indexOf` on the lowercased text (no per-line regex: this runs over megabytes per call), and
 * a bounded ranking that keeps only what can still be shown.
 */

export const MAX_QUERY_TERMS = 16;

export interface LineQuery {
  /** Distinct lowercased words of the query. */
  terms: string[];
  /** The whole query, lowercased with single spaces, when it has several words. */
  phrase: string | null;
}

export function parseQuery(query: unknown): LineQuery {
  if (typeof query !== 'string' || query.trim() === '') {
    throw new ToolError('query must be a non-empty string');
  }
  const words = query
    .toLowerCase()
    .split(/\s+/)
    .filter((word) => word !== '');
  const terms = [...new Set(words)];
  if (terms.length > MAX_QUERY_TERMS) {
    throw new ToolError(`query has ${terms.length} words; use at most ${MAX_QUERY_TERMS}`);
  }
  return { terms, phrase: words.length > 1 ? words.join(' ') : null };
}

/** A matching line, as the scanner reports it. Offsets index `text`. */
export interface LineMatch {
  /** 1-based line number. */
  line: number;
  start: number;
  end: number;
  /** How many distinct terms the line holds. */
  matched: number;
  /** The line holds the whole query as a phrase. */
  phrase: boolean;
}

/**
 * Calls `onMatch` for every line of `text` that holds at least one term, in line order.
 * `lower` must be `text.toLowerCase()`; when lowercasing changed the length (some non-ASCII
 * letters do), offsets would not line up and the slower line-by-line path is taken.
 */
export function scanLines(
  text: string,
  lower: string,
  query: LineQuery,
  onMatch: (match: LineMatch) => void,
): void {
  if (lower.length !== text.length) {
    scanLineByLine(text, query, onMatch);
    return;
  }
  const lines = new LineCounter(lower);
  const { terms } = query;
  if (terms.length === 1) {
    const term = terms[0] ?? '';
    let position = lower.indexOf(term);
    while (position !== -1) {
      const start = lower.lastIndexOf('\n', position) + 1;
      let end = lower.indexOf('\n', position);
      if (end === -1) end = lower.length;
      onMatch({ line: lines.lineAt(start), start, end, matched: 1, phrase: false });
      position = end < lower.length ? lower.indexOf(term, end + 1) : -1;
    }
    return;
  }
  // Several terms: collect the lines each term touches, then visit them in line order.
  const masks = new Map<number, number>();
  const ends = new Map<number, number>();
  terms.forEach((term, bit) => {
    let position = lower.indexOf(term);
    while (position !== -1) {
      const start = lower.lastIndexOf('\n', position) + 1;
      let end = ends.get(start);
      if (end === undefined) {
        end = lower.indexOf('\n', position);
        if (end === -1) end = lower.length;
        ends.set(start, end);
      }
      masks.set(start, (masks.get(start) ?? 0) | (1 << bit));
      position = end < lower.length ? lower.indexOf(term, end + 1) : -1;
    }
  });
  const starts = [...masks.keys()].sort((a, b) => a - b);
  for (const start of starts) {
    const end = ends.get(start) ?? start;
    const matched = popCount(masks.get(start) ?? 0);
    const phrase =
      matched === terms.length &&
      query.phrase !== null &&
      lower.slice(start, end).includes(query.phrase);
    onMatch({ line: lines.lineAt(start), start, end, matched, phrase });
  }
}

function scanLineByLine(text: string, query: LineQuery, onMatch: (match: LineMatch) => void): void {
  let start = 0;
  let line = 1;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end === -1) end = text.length;
    const lowerLine = text.slice(start, end).toLowerCase();
    let matched = 0;
    for (const term of query.terms) if (lowerLine.includes(term)) matched += 1;
    if (matched > 0) {
      const phrase =
        matched === query.terms.length && query.phrase !== null && lowerLine.includes(query.phrase);
      onMatch({ line, start, end, matched, phrase });
    }
    if (end === text.length) break;
    start = end + 1;
    line += 1;
  }
}

/** Line numbers of increasing offsets, counting newlines only once per file. */
class LineCounter {
  private offset = 0;
  private line = 1;
  constructor(private readonly text: string) {}

  lineAt(start: number): number {
    let next = this.text.indexOf('\n', this.offset);
    while (next !== -1 && next < start) {
      this.line += 1;
      this.offset = next + 1;
      next = this.text.indexOf('\n', this.offset);
    }
    return this.line;
  }
}

function popCount(mask: number): number {
  let count = 0;
  for (let value = mask; value !== 0; value &= value - 1) count += 1;
  return count;
}

/** A hit as it will be shown. `rank` orders hits: phrase first, then most terms matched. */
export interface RankedHit {
  rank: number;
  label: string;
  line: number;
  text: string;
  /** Length of the line before it was shortened, when it was. */
  cutFrom: number | null;
}

export function rankOf(match: LineMatch): number {
  return (match.phrase ? MAX_QUERY_TERMS + 1 : 0) + match.matched;
}

/**
 * Keeps the best `limit` hits in arrival order within a rank (so ties stay in file and line
 * order: stable), without materialising the lines that can no longer make the cut.
 */
export class HitCollector {
  private hits: RankedHit[] = [];
  /** Hits of rank <= this cannot enter any more: `limit` earlier hits rank at least as high. */
  private floor = -1;
  total = 0;

  constructor(private readonly limit: number) {}

  /** Whether a match of this rank could still be shown; counts it either way. */
  wants(rank: number): boolean {
    this.total += 1;
    return rank > this.floor;
  }

  add(hit: RankedHit): void {
    this.hits.push(hit);
    if (this.hits.length >= this.limit * 4) this.prune();
  }

  result(): RankedHit[] {
    this.prune();
    return this.hits;
  }

  private prune(): void {
    this.hits.sort((a, b) => b.rank - a.rank); // stable: ties keep arrival order
    if (this.hits.length >= this.limit) {
      this.hits.length = this.limit;
      this.floor = this.hits[this.limit - 1]?.rank ?? -1;
    }
  }
}

/**
 * The hit line, at most `maxChars` characters. A long line is shown around its first match so
 * the model sees why it matched.
 */
export function hitText(
  text: string,
  lower: string,
  match: LineMatch,
  query: LineQuery,
  maxChars: number,
): { text: string; cutFrom: number | null } {
  let line = text.slice(match.start, match.end);
  if (line.endsWith('\r')) line = line.slice(0, -1);
  if (line.length <= maxChars) return { text: line, cutFrom: null };
  const lowerLine =
    lower.length === text.length ? lower.slice(match.start, match.end) : line.toLowerCase();
  let first = query.phrase === null ? -1 : lowerLine.indexOf(query.phrase);
  for (const term of query.terms) {
    if (first !== -1) break;
    first = lowerLine.indexOf(term);
  }
  const from = Math.max(0, Math.min(first - Math.floor(maxChars / 4), line.length - maxChars));
  return { text: line.slice(from, from + maxChars), cutFrom: line.length };
}

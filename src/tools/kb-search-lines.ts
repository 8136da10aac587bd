import { ToolError } from './tool.js';

/**
 * The line matcher shared by kb_search and memory_search. It runs over megabytes per call, so
 * it avoids per-line work for lines that cannot match: one global case-insensitive regex of
 * the query's literal words finds candidate lines in the whole text (V8 compiles it to a fast
 * scanner), and only those lines are lowercased and scored. Line numbers are counted lazily,
 * for the hits that are actually shown.
 */

export const MAX_QUERY_TERMS = 16;

/**
 * Characters of one query word. The words are escaped, so the model's text is never a pattern,
 * but the alternation still compares a word at every position it could start: on text that
 * repeats a long word's prefix (`xxxx...` for `xxxx...y`) one word costs its length per
 * character scanned. With the cap, 16 such words over the 8 MiB read budget take about a second
 * at worst; without it, hours.
 */
export const MAX_TERM_CHARS = 100;

export interface LineQuery {
  /** Distinct lowercased words of the query. */
  terms: string[];
  /** The whole query, lowercased with single spaces, when it has several words. */
  phrase: string | null;
  /** Global, case-insensitive alternation of the escaped terms, longest first. */
  pattern: RegExp;
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
  const long = terms.find((term) => term.length > MAX_TERM_CHARS);
  if (long !== undefined) {
    throw new ToolError(
      `query word '${long.slice(0, 20)}...' is ${long.length} characters long; use words of at most ${MAX_TERM_CHARS} characters`,
    );
  }
  // Longest first, so a term that is a prefix of another does not hide it in the alternation.
  const alternatives = [...terms].sort((a, b) => b.length - a.length).map(escapeRegExp);
  return {
    terms,
    phrase: words.length > 1 ? words.join(' ') : null,
    pattern: new RegExp(alternatives.join('|'), 'gi'),
  };
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A matching line. Offsets index the scanned text; `end` excludes the newline. */
export interface LineMatch {
  start: number;
  end: number;
  /** How many distinct terms the line holds. */
  matched: number;
  /** The line holds the whole query as a phrase. */
  phrase: boolean;
}

/** Calls `onMatch` for every line of `text` holding at least one term, in line order. */
export function scanLines(
  text: string,
  query: LineQuery,
  onMatch: (match: LineMatch) => void,
): void {
  const pattern = query.pattern;
  pattern.lastIndex = 0; // the scan is synchronous: nothing else uses the regex meanwhile
  const single = query.terms.length === 1;
  let found = pattern.exec(text);
  while (found !== null) {
    const position = found.index;
    const start = text.lastIndexOf('\n', position) + 1;
    let end = text.indexOf('\n', position);
    if (end === -1) end = text.length;
    if (single) {
      onMatch({ start, end, matched: 1, phrase: false });
    } else {
      const line = text.slice(start, end).toLowerCase();
      let matched = 0;
      for (const term of query.terms) if (line.includes(term)) matched += 1;
      const phrase =
        matched === query.terms.length && query.phrase !== null && line.includes(query.phrase);
      // Case folding of the regex and of toLowerCase differ for a few non-ASCII letters.
      if (matched > 0) onMatch({ start, end, matched, phrase });
    }
    if (end >= text.length) break;
    pattern.lastIndex = end + 1; // one report per line
    found = pattern.exec(text);
  }
}

/** Line numbers of increasing offsets in one text, counting its newlines once. */
export class LineCounter {
  private offset = 0;
  private line = 1;
  constructor(private readonly text: string) {}

  /** 1-based line number of the line starting at `start`; call with non-decreasing offsets. */
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

/** Phrase first, then most terms matched. */
export function rankOf(match: LineMatch): number {
  return (match.phrase ? MAX_QUERY_TERMS + 1 : 0) + match.matched;
}

/**
 * Keeps the best `limit` items, ties in arrival order (so hits stay in file and line order:
 * stable), without keeping what can no longer make the cut.
 */
export class HitCollector<T extends { rank: number }> {
  private items: T[] = [];
  /** Ranks <= this cannot enter any more: `limit` earlier items rank at least as high. */
  private floor = -1;
  /** Every match offered, shown or not. */
  total = 0;

  constructor(private readonly limit: number) {}

  /** Whether an item of this rank could still be shown; counts it either way. */
  wants(rank: number): boolean {
    this.total += 1;
    return rank > this.floor;
  }

  add(item: T): void {
    this.items.push(item);
    if (this.items.length >= this.limit * 4) this.prune();
  }

  result(): T[] {
    this.prune();
    return this.items;
  }

  private prune(): void {
    this.items.sort((a, b) => b.rank - a.rank); // stable: ties keep arrival order
    if (this.items.length >= this.limit) {
      this.items.length = this.limit;
      this.floor = this.items[this.limit - 1]?.rank ?? -1;
    }
  }
}

/** A kept match, still unnumbered: `text` is its whole file. */
export interface PendingHit {
  rank: number;
  label: string;
  text: string;
  start: number;
  end: number;
}

export interface ShownHit {
  label: string;
  line: number;
  text: string;
  /** Length of the line before it was shortened, when it was. */
  cutFrom: number | null;
}

/**
 * Numbers and renders the kept hits, in their ranked order. A line longer than `maxChars` is
 * shown around its first match, so the model sees why it matched.
 */
export function renderHits(hits: PendingHit[], query: LineQuery, maxChars: number): ShownHit[] {
  const counters = new Map<string, LineCounter>();
  const lines = new Map<PendingHit, number>();
  const byPosition = [...hits].sort((a, b) =>
    a.label === b.label ? a.start - b.start : a.label < b.label ? -1 : 1,
  );
  for (const hit of byPosition) {
    let counter = counters.get(hit.label);
    if (counter === undefined) {
      counter = new LineCounter(hit.text);
      counters.set(hit.label, counter);
    }
    lines.set(hit, counter.lineAt(hit.start));
  }
  return hits.map((hit) => {
    let line = hit.text.slice(hit.start, hit.end);
    if (line.endsWith('\r')) line = line.slice(0, -1);
    let cutFrom: number | null = null;
    if (line.length > maxChars) {
      cutFrom = line.length;
      const lower = line.toLowerCase();
      let first = query.phrase === null ? -1 : lower.indexOf(query.phrase);
      for (const term of query.terms) {
        if (first !== -1) break;
        first = lower.indexOf(term);
      }
      const from = Math.max(0, Math.min(first - Math.floor(maxChars / 4), line.length - maxChars));
      line = line.slice(from, from + maxChars);
    }
    return { label: hit.label, line: lines.get(hit) ?? 0, text: line, cutFrom };
  });
}

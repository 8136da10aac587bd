import { isAscii } from 'node:buffer';
import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { knowledgeGlobProblem } from '../shared/knowledge-glob.js';
import { KB_SEARCH_TOOL_SCHEMA } from '../shared/tools/capability-tool-schemas.js';
import type { KnowledgeSourceRef } from '../shared/capability-snapshot.js';
import {
  HitCollector,
  parseQuery,
  rankOf,
  renderHits,
  scanLines,
  type LineQuery,
  type PendingHit,
  type ShownHit,
} from './kb-search-lines.js';
import { ToolError, type ToolContext, type ToolImplementation } from './tool.js';
import { isInside } from '../shared/path-containment.js';
import { isHiddenPath } from '../shared/policy-contract.js';
import { isHiddenByIdentity } from '../paths/path-identity.js';
import { NotRegularFileError, openRegularFileSync } from '../paths/regular-file.js';

/** Budgets of one kb_search call. Hitting one is reported in the result. */
export const KB_SEARCH_LIMITS = {
  /** Bytes read per call. */
  maxReadBytes: 8 * 1024 * 1024,
  /** Hits returned per call. */
  maxHits: 50,
  /** Characters shown of one hit line. */
  maxLineChars: 400,
  /** Milliseconds of scanning between event-loop turns, so a stop (abort signal) gets through. */
  yieldEveryMs: 20,
};
export type KbSearchLimits = typeof KB_SEARCH_LIMITS;

/** Skipped files listed by name; the rest are counted, so the result stays readable. */
const MAX_SKIPPED_SHOWN = 20;
/** Bytes inspected for a NUL to tell binary files from text, as grep tools do. */
const BINARY_SNIFF_BYTES = 8000;

/**
 * `kb_search(query, source?)` over the declared knowledge sources: an in-memory line
 * scan returning ranked `path:line: text` hits. Files are read whole as buffers and searched
 * with `indexOf` on the lowercased text; symlinks that lead out of the workspace are skipped
 * and reported, and every budget cut is spelled out in the result.
 */
export function createKbSearchTool(
  knowledge: KnowledgeSourceRef[],
  workspaceRoot: string,
  limits: Partial<KbSearchLimits> = {},
  /** Resolved roots no agent may read (deputyRoots(...).hiddenRoots): never searched. */
  hiddenRoots: readonly string[] = [],
): ToolImplementation {
  const budget: KbSearchLimits = { ...KB_SEARCH_LIMITS, ...limits };
  return {
    schema: KB_SEARCH_TOOL_SCHEMA,
    run: (args, context) => kbSearch(knowledge, workspaceRoot, hiddenRoots, budget, args, context),
  };
}

interface Candidate {
  relative: string;
  absolute: string;
}

async function kbSearch(
  knowledge: KnowledgeSourceRef[],
  workspaceRoot: string,
  hiddenRoots: readonly string[],
  budget: KbSearchLimits,
  args: Record<string, unknown>,
  context: Pick<ToolContext, 'signal' | 'heartbeat'>,
): Promise<string> {
  const query = parseQuery(args.query);
  const sources = chooseSources(knowledge, args.source);
  const root = fs.realpathSync.native(workspaceRoot);
  const refused: string[] = [];
  const globs: string[] = [];
  for (const source of sources) {
    const problem = knowledgeGlobProblem(source.glob);
    if (problem === null) globs.push(source.glob);
    else {
      refused.push(
        `source '${source.name}': glob ${JSON.stringify(source.glob)} refused: ${problem}`,
      );
    }
  }
  const { files, skipped } = listFiles(root, globs, hiddenRoots);
  const arena = takeArena(budget.maxReadBytes);
  let scan: ScanOutcome;
  try {
    scan = await scanFiles({ root, hiddenRoots, files, skipped, query, budget, arena, context });
  } finally {
    spareArena = arena; // hits hold decoded strings, never arena bytes: it can be reused
  }
  return formatResult({
    ...scan,
    query: String(args.query),
    sources,
    globs,
    filesMatched: files.length,
    hits: renderHits(scan.pending, query, budget.maxLineChars),
    budget,
    skipped,
    refused,
  });
}

/**
 * One spare arena is kept between calls: allocating (and faulting in) 8 MiB per search costs
 * about as much as searching a mid-sized corpus. Concurrent searches each take their own.
 */
let spareArena: Buffer | null = null;

function takeArena(size: number): Buffer {
  const spare = spareArena;
  spareArena = null;
  return spare !== null && spare.length === size ? spare : Buffer.allocUnsafe(size);
}

interface ScanPlan {
  root: string;
  hiddenRoots: readonly string[];
  files: Candidate[];
  /** Receives files that were not searched, with the reason. */
  skipped: string[];
  query: LineQuery;
  budget: KbSearchLimits;
  arena: Buffer;
  context: Pick<ToolContext, 'signal' | 'heartbeat'>;
}

interface ScanOutcome {
  pending: PendingHit[];
  totalHits: number;
  filesSearched: number;
  bytesRead: number;
  binaryFiles: number;
  partialFile: string | null;
  notSearched: { files: number; bytes: number } | null;
}

/**
 * Reads every file into the arena (the size of the read budget: no allocation per file, and
 * one read() per file, since a short read of a regular file means end of file) and scans it.
 */
async function scanFiles(plan: ScanPlan): Promise<ScanOutcome> {
  const { root, hiddenRoots, files, skipped, query, budget, arena, context } = plan;
  let used = 0;
  const collector = new HitCollector<PendingHit>(budget.maxHits);
  let filesSearched = 0;
  let binaryFiles = 0;
  let partialFile: string | null = null;
  let notSearched: { files: number; bytes: number } | null = null;
  let lastYield = Date.now();

  for (let index = 0; index < files.length; index += 1) {
    if (Date.now() - lastYield >= budget.yieldEveryMs) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = Date.now();
      context.heartbeat({ filesSearched, bytesRead: used });
    }
    if (context.signal.aborted) throw new ToolError('kb_search was stopped before it finished');
    const file = files[index] as Candidate;
    const start = used;
    let size: number | null;
    try {
      const fd = openInside(root, file.absolute, hiddenRoots);
      if (typeof fd === 'string') {
        skipped.push(`${file.relative}: ${SKIP_REASONS[fd]}`);
        continue;
      }
      try {
        const wanted = arena.length - used;
        const count = wanted === 0 ? 0 : fs.readSync(fd, arena, used, wanted, 0);
        used += count;
        // Only a full arena leaves doubt whether the file had more: ask its size then.
        size = count < wanted ? null : fs.fstatSync(fd).size;
      } finally {
        fs.closeSync(fd);
      }
    } catch (error) {
      skipped.push(
        error instanceof NotRegularFileError
          ? `${file.relative}: ${error.kind}, not a regular file; not searched`
          : `${file.relative}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
      continue;
    }
    const read = used - start;
    if (size !== null && size > read) {
      // The read budget ends inside this file: search what was read, count the rest as unread.
      const started = read > 0;
      if (started) partialFile = `${file.relative} (searched ${read} of ${size} bytes)`;
      notSearched = { files: files.length - index - (started ? 1 : 0), bytes: size - read };
      for (const rest of files.slice(index + 1)) notSearched.bytes += fileSize(rest.absolute);
      if (!started) break;
    }
    const bytes = arena.subarray(start, used);
    if (isBinary(bytes)) {
      binaryFiles += 1;
    } else {
      filesSearched += 1;
      searchFile(file.relative, bytes, size !== null && size > read, query, collector);
    }
    if (notSearched !== null) break;
  }

  return {
    pending: collector.result(),
    totalHits: collector.total,
    filesSearched,
    bytesRead: used,
    binaryFiles,
    partialFile,
    notSearched,
  };
}

function chooseSources(knowledge: KnowledgeSourceRef[], source: unknown): KnowledgeSourceRef[] {
  const names = knowledge.map((entry) => entry.name).join(', ') || 'none';
  if (source === undefined || source === null || source === '') {
    if (knowledge.length === 0) throw new ToolError('no knowledge sources are declared');
    return knowledge;
  }
  if (typeof source !== 'string') {
    throw new ToolError(`source must be a string; declared sources: ${names}`);
  }
  const found = knowledge.find((entry) => entry.name.toLowerCase() === source.toLowerCase());
  if (found === undefined) {
    throw new ToolError(`unknown knowledge source '${source}'; declared sources: ${names}`);
  }
  return [found];
}

/**
 * Files matching the globs, workspace-relative and sorted. A directory on the way that leads
 * out of the workspace (a symlinked folder, or the glob's own base) drops its files with a
 * report; the real path of each folder is computed once. Symlinked files are caught when
 * opened (`openInside`).
 */
function listFiles(
  root: string,
  globs: string[],
  hiddenRoots: readonly string[],
): { files: Candidate[]; skipped: string[] } {
  const skipped: string[] = [];
  if (globs.length === 0) return { files: [], skipped };
  const matches = fg.sync(globs, {
    cwd: root,
    onlyFiles: true,
    followSymbolicLinks: true,
    unique: true,
    suppressErrors: true,
  });
  matches.sort();
  // Real path of each folder inside the workspace (null: it leads outside), resolved once.
  const realDirectories = new Map<string, string | null>();
  const files: Candidate[] = [];
  for (const relative of matches) {
    const absolute = path.join(root, relative);
    const directory = path.dirname(absolute);
    let realDirectory = realDirectories.get(directory);
    if (realDirectory === undefined) {
      realDirectory = realDirectoryInside(root, directory);
      realDirectories.set(directory, realDirectory);
    }
    if (realDirectory === null) {
      skipped.push(`${relative}: ${SKIP_REASONS.outside}`);
    } else if (isHiddenPath(hiddenRoots, path.join(realDirectory, path.basename(absolute)))) {
      // A symlinked file into a hidden root is caught when opened (openInside).
      skipped.push(`${relative}: ${SKIP_REASONS.hidden}`);
    } else {
      files.push({ relative, absolute });
    }
  }
  return { files, skipped };
}

const SKIP_REASONS = {
  outside: 'a symbolic link leads outside the workspace; not searched',
  hidden: "deputy's configuration and data are not open to agents; not searched",
} as const;

/**
 * Opens a file whose folder is known to be inside the workspace. `O_NOFOLLOW` makes the common
 * case (a plain file) cost no extra system call; a symlinked file fails with ELOOP and is then
 * resolved and opened only when its target is inside. Returns null when it leads outside.
 */
function openInside(
  root: string,
  absolute: string,
  hiddenRoots: readonly string[],
): number | keyof typeof SKIP_REASONS {
  try {
    // Non-blocking and checked: a FIFO swapped in since the listing would block this
    // synchronous read, and the whole process with it (openRegularFileSync refuses it).
    const fd = openRegularFileSync(absolute, fs.constants.O_RDONLY, { noFollow: true });
    // A hard link to a hidden file is that file, whatever its name here.
    if (fs.fstatSync(fd).nlink > 1 && isHiddenByIdentity(hiddenRoots, absolute)) {
      fs.closeSync(fd);
      return 'hidden';
    }
    return fd;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ELOOP') throw error;
  }
  const real = fs.realpathSync.native(absolute);
  if (!isInside(root, real)) return 'outside';
  if (isHiddenPath(hiddenRoots, real) || isHiddenByIdentity(hiddenRoots, real)) return 'hidden';
  return openRegularFileSync(real);
}

function realDirectoryInside(root: string, directory: string): string | null {
  try {
    const real = fs.realpathSync.native(directory);
    return isInside(root, real) ? real : null;
  } catch {
    return null;
  }
}

function fileSize(absolute: string): number {
  try {
    return fs.statSync(absolute).size;
  } catch {
    return 0;
  }
}

function isBinary(bytes: Buffer): boolean {
  return bytes.subarray(0, BINARY_SNIFF_BYTES).indexOf(0) !== -1;
}

function searchFile(
  label: string,
  bytes: Buffer,
  partial: boolean,
  query: LineQuery,
  collector: HitCollector<PendingHit>,
): void {
  // Pure ASCII (the common case) decodes as latin1: same characters, several times faster.
  let text = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  if (partial) {
    // The budget cut this file mid-way: drop the last, possibly incomplete line.
    const lastNewline = text.lastIndexOf('\n');
    text = lastNewline === -1 ? '' : text.slice(0, lastNewline);
  }
  scanLines(text, query, (match) => {
    const rank = rankOf(match);
    if (collector.wants(rank)) {
      collector.add({ rank, label, text, start: match.start, end: match.end });
    }
  });
}

interface ResultParts {
  query: string;
  sources: KnowledgeSourceRef[];
  globs: string[];
  filesMatched: number;
  filesSearched: number;
  bytesRead: number;
  binaryFiles: number;
  hits: ShownHit[];
  totalHits: number;
  budget: KbSearchLimits;
  partialFile: string | null;
  notSearched: { files: number; bytes: number } | null;
  skipped: string[];
  refused: string[];
}

function formatResult(parts: ResultParts): string {
  const lines: string[] = [];
  const sourceNames = parts.sources.map((source) => source.name).join(', ');
  lines.push(
    `kb_search ${JSON.stringify(parts.query)} in ${sourceNames}: ${parts.filesSearched} of ${parts.filesMatched} files searched (${formatBytes(parts.bytesRead)} read)`,
  );
  if (parts.filesMatched === 0) {
    lines.push(
      `No file matches ${parts.globs.map((glob) => JSON.stringify(glob)).join(', ') || 'the sources'}.`,
    );
  }
  if (parts.hits.length === 0) {
    lines.push('No hits.');
  } else {
    lines.push(
      `${parts.hits.length} hit${parts.hits.length === 1 ? '' : 's'} (exact phrase first, then most words matched; each is one line: open the file with read for context):`,
    );
    for (const hit of parts.hits) lines.push(`${hit.label}:${hit.line}: ${hit.text}`);
  }
  const cuts: string[] = [];
  if (parts.totalHits > parts.hits.length) {
    cuts.push(
      `hit budget: ${parts.totalHits} lines matched, only the best ${parts.hits.length} are shown (${parts.totalHits - parts.hits.length} not shown); narrow the query or pick a source`,
    );
  }
  const shortened = parts.hits.filter((hit) => hit.cutFrom !== null);
  if (shortened.length > 0) {
    cuts.push(
      `${shortened.length} hit line${shortened.length === 1 ? '' : 's'} shortened to ${parts.budget.maxLineChars} characters (${shortened.map((hit) => `${hit.label}:${hit.line} has ${hit.cutFrom}`).join(', ')})`,
    );
  }
  if (parts.notSearched !== null) {
    cuts.push(
      `read budget of ${formatBytes(parts.budget.maxReadBytes)} reached: ${parts.partialFile === null ? '' : `${parts.partialFile} only partly searched; `}${parts.notSearched.files} more file${parts.notSearched.files === 1 ? '' : 's'} not searched, ${formatBytes(parts.notSearched.bytes)} unread in all; pick a source or narrow its glob`,
    );
  }
  for (const cut of cuts) lines.push(`[cut] ${cut}`);
  if (parts.binaryFiles > 0) {
    lines.push(
      `[skipped] ${parts.binaryFiles} binary file${parts.binaryFiles === 1 ? '' : 's'} not searched`,
    );
  }
  const skipped = [...parts.refused, ...parts.skipped];
  for (const entry of skipped.slice(0, MAX_SKIPPED_SHOWN)) lines.push(`[skipped] ${entry}`);
  if (skipped.length > MAX_SKIPPED_SHOWN) {
    lines.push(`[skipped] ... and ${skipped.length - MAX_SKIPPED_SHOWN} more files not searched`);
  }
  return lines.join('\n');
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { knowledgeGlobProblem } from '../capabilities/knowledge-glob.js';
import { KB_SEARCH_TOOL_SCHEMA } from '../capabilities/tool-schemas.js';
import type { KnowledgeSourceRef } from '../shared/capability-snapshot.js';
import {
  HitCollector,
  hitText,
  parseQuery,
  rankOf,
  scanLines,
  type LineQuery,
  type RankedHit,
} from './kb-search-lines.js';
import { ToolError, type ToolContext, type ToolImplementation } from './tool.js';
import { isInsideDirectory } from './workspace-path.js';

/** Budgets of one kb_search call (CAP-4). Hitting one is reported in the result. */
export const KB_SEARCH_LIMITS = {
  /** Bytes read per call. */
  maxReadBytes: 8 * 1024 * 1024,
  /** Hits returned per call. */
  maxHits: 50,
  /** Characters shown of one hit line. */
  maxLineChars: 400,
};
export type KbSearchLimits = typeof KB_SEARCH_LIMITS;

/** Give the event loop a turn this often, so a stop (abort signal) reaches a long scan. */
const YIELD_EVERY_MS = 20;
/** Bytes inspected for a NUL to tell binary files from text, as grep tools do. */
const BINARY_SNIFF_BYTES = 8000;

/**
 * `kb_search(query, source?)` over the declared knowledge sources (CAP-4): an in-memory line
 * scan returning ranked `path:line: text` hits. Files are read whole as buffers and searched
 * with `indexOf` on the lowercased text; symlinks that lead out of the workspace are skipped
 * and reported, and every budget cut is spelled out in the result.
 */
export function createKbSearchTool(
  knowledge: KnowledgeSourceRef[],
  workspaceRoot: string,
  limits: Partial<KbSearchLimits> = {},
): ToolImplementation {
  const budget: KbSearchLimits = { ...KB_SEARCH_LIMITS, ...limits };
  return {
    schema: KB_SEARCH_TOOL_SCHEMA,
    run: (args, context) => kbSearch(knowledge, workspaceRoot, budget, args, context),
  };
}

interface Candidate {
  relative: string;
  absolute: string;
}

async function kbSearch(
  knowledge: KnowledgeSourceRef[],
  workspaceRoot: string,
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
    else
      refused.push(
        `source '${source.name}': glob ${JSON.stringify(source.glob)} refused: ${problem}`,
      );
  }
  const { files, skipped } = listFiles(root, globs);

  const collector = new HitCollector(budget.maxHits);
  let bytesRead = 0;
  let filesSearched = 0;
  let binaryFiles = 0;
  let partialFile: string | null = null;
  let notSearched: { files: number; bytes: number } | null = null;
  let lastYield = Date.now();

  for (let index = 0; index < files.length; index += 1) {
    if (Date.now() - lastYield >= YIELD_EVERY_MS) {
      await new Promise((resolve) => setImmediate(resolve));
      lastYield = Date.now();
      context.heartbeat({ filesSearched, bytesRead });
    }
    if (context.signal.aborted) throw new ToolError('kb_search was stopped before it finished');
    const file = files[index] as Candidate;
    const remaining = budget.maxReadBytes - bytesRead;
    let data: { buffer: Buffer; size: number };
    try {
      data = readUpTo(file.absolute, remaining);
    } catch (error) {
      skipped.push(
        `${file.relative}: cannot be read (${(error as NodeJS.ErrnoException).code ?? 'error'})`,
      );
      continue;
    }
    if (data.buffer.length < data.size) {
      // The read budget ends inside this file: search what was read, count the rest as unread.
      const started = data.buffer.length > 0;
      if (started) {
        partialFile = `${file.relative} (searched ${data.buffer.length} of ${data.size} bytes)`;
      }
      notSearched = {
        files: files.length - index - (started ? 1 : 0),
        bytes: data.size - data.buffer.length,
      };
      for (const rest of files.slice(index + 1)) notSearched.bytes += fileSize(rest.absolute);
      if (!started) break;
    }
    bytesRead += data.buffer.length;
    if (isBinary(data.buffer)) {
      binaryFiles += 1;
    } else {
      filesSearched += 1;
      searchBuffer(
        file.relative,
        data.buffer,
        data.buffer.length < data.size,
        query,
        budget,
        collector,
      );
    }
    if (notSearched !== null) break;
  }

  return formatResult({
    query: String(args.query),
    sources,
    globs,
    filesMatched: files.length,
    filesSearched,
    bytesRead,
    binaryFiles,
    hits: collector.result(),
    totalHits: collector.total,
    budget,
    partialFile,
    notSearched,
    skipped,
    refused,
  });
}

function chooseSources(knowledge: KnowledgeSourceRef[], source: unknown): KnowledgeSourceRef[] {
  const names = knowledge.map((entry) => entry.name).join(', ') || 'none';
  if (source === undefined || source === null || source === '') {
    if (knowledge.length === 0) throw new ToolError('no knowledge sources are declared');
    return knowledge;
  }
  if (typeof source !== 'string')
    throw new ToolError(`source must be a string; declared sources: ${names}`);
  const found = knowledge.find((entry) => entry.name.toLowerCase() === source.toLowerCase());
  if (found === undefined) {
    throw new ToolError(`unknown knowledge source '${source}'; declared sources: ${names}`);
  }
  return [found];
}

/**
 * Files matching the globs, workspace-relative, sorted, each verified to resolve inside the
 * workspace: a symlinked file or directory that leads out is skipped and reported. Directory
 * real paths are cached, so the check costs one lstat per file plus one realpath per folder.
 */
function listFiles(root: string, globs: string[]): { files: Candidate[]; skipped: string[] } {
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
  const directoryInside = new Map<string, boolean>();
  const files: Candidate[] = [];
  for (const relative of matches) {
    const absolute = path.join(root, relative);
    const directory = path.dirname(absolute);
    let inside = directoryInside.get(directory);
    if (inside === undefined) {
      inside = realInside(root, directory);
      directoryInside.set(directory, inside);
    }
    if (inside) {
      try {
        if (fs.lstatSync(absolute).isSymbolicLink()) inside = realInside(root, absolute);
      } catch {
        inside = false;
      }
    }
    if (inside) files.push({ relative, absolute });
    else skipped.push(`${relative}: a symbolic link leads outside the workspace; not searched`);
  }
  return { files, skipped };
}

function realInside(root: string, target: string): boolean {
  try {
    return isInsideDirectory(root, fs.realpathSync.native(target));
  } catch {
    return false;
  }
}

/** Reads at most `maxBytes` of a file; `size` is the file's whole size. */
function readUpTo(absolute: string, maxBytes: number): { buffer: Buffer; size: number } {
  const fd = fs.openSync(absolute, 'r');
  try {
    const size = fs.fstatSync(fd).size;
    const wanted = Math.max(0, Math.min(size, maxBytes));
    const buffer = Buffer.allocUnsafe(wanted);
    let filled = 0;
    while (filled < wanted) {
      const count = fs.readSync(fd, buffer, filled, wanted - filled, filled);
      if (count === 0) break; // the file shrank since fstat
      filled += count;
    }
    return {
      buffer: filled === wanted ? buffer : buffer.subarray(0, filled),
      size: Math.max(size, filled),
    };
  } finally {
    fs.closeSync(fd);
  }
}

function fileSize(absolute: string): number {
  try {
    return fs.statSync(absolute).size;
  } catch {
    return 0;
  }
}

function isBinary(buffer: Buffer): boolean {
  const end = Math.min(buffer.length, BINARY_SNIFF_BYTES);
  return buffer.subarray(0, end).indexOf(0) !== -1;
}

function searchBuffer(
  label: string,
  buffer: Buffer,
  partial: boolean,
  query: LineQuery,
  budget: KbSearchLimits,
  collector: HitCollector,
): void {
  let text = buffer.toString('utf8');
  if (partial) {
    // The budget cut this file mid-way: drop the last, possibly incomplete line.
    const lastNewline = text.lastIndexOf('\n');
    text = lastNewline === -1 ? '' : text.slice(0, lastNewline);
  }
  const lower = text.toLowerCase();
  scanLines(text, lower, query, (match) => {
    const rank = rankOf(match);
    if (!collector.wants(rank)) return;
    const shown = hitText(text, lower, match, query, budget.maxLineChars);
    collector.add({ rank, label, line: match.line, text: shown.text, cutFrom: shown.cutFrom });
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
  hits: RankedHit[];
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
  for (const entry of [...parts.refused, ...parts.skipped]) lines.push(`[skipped] ${entry}`);
  return lines.join('\n');
}

function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}

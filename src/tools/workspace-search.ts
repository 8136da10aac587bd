import fs from 'node:fs/promises';
import path from 'node:path';
import { isHiddenFromAgents } from '../paths/deputy-roots.js';
import { nonRegularKind } from '../paths/regular-file.js';
import type { FileSystemLimits } from './file-system-limits.js';
import { GrepMatcher, type LineHit } from './grep-matcher.js';
import { compileFailureError, prepareGrepPattern } from './grep-pattern.js';
import { limitText } from './output-limit.js';
import { ToolError, type ToolContext } from './tool.js';
import { optionalBoolean, optionalString, requiredString } from './tool-arguments.js';
import { listWorkspaceFiles, skippedNotes, type ListedFile } from './workspace-listing.js';
import { resolveInWorkspace, toWorkspaceRelative } from './workspace-path.js';

/**
 * glob and grep: the FileSystem tools that walk a tree. They list through workspace-listing.ts
 * (links followed only while they stay inside the workspace, hidden roots skipped, every skip
 * reported) and grep matches on its own thread through grep-matcher.ts (RE2 syntax, linear
 * time, a time budget).
 */

export interface SearchSettings {
  /** Resolved roots no agent may read; empty: none. */
  hiddenRoots: readonly string[];
  limits: FileSystemLimits;
}

/** glob and grep take the same arguments: the call's, its context, and the search settings. */
export type SearchRun = (
  args: Record<string, unknown>,
  context: ToolContext,
  settings: SearchSettings,
) => Promise<string>;

export const runGlob: SearchRun = async (args, context, settings) => {
  const pattern = requiredString(args, 'pattern');
  const userPath = optionalString(args, 'path') ?? '.';
  const directory = await resolveDirectory(context.workspaceRoot, userPath);
  refuseHidden(settings, directory, userPath);
  const { files, skipped } = await listWorkspaceFiles({
    workspaceRoot: context.workspaceRoot,
    directory,
    pattern,
    hiddenRoots: settings.hiddenRoots,
  });
  const limit = settings.limits.globMaxResults;
  const where = toWorkspaceRelative(context.workspaceRoot, directory);
  const lines =
    files.length === 0
      ? [`No files match '${pattern}' in ${where}`]
      : files.slice(0, limit).map((file) => file.shown);
  if (files.length > limit) {
    lines.push(
      `[output truncated: showed ${limit} of ${files.length} matching files; narrow the pattern or path]`,
    );
  }
  lines.push(...skippedNotes(skipped));
  return limitText(lines.join('\n'), settings.limits.resultMaxChars);
};

export const runGrep: SearchRun = async (args, context, settings) => {
  const pattern = requiredString(args, 'pattern');
  const userPath = optionalString(args, 'path') ?? '.';
  const fileGlob = optionalString(args, 'glob') ?? '**/*';
  const fixed = optionalBoolean(args, 'fixed_strings') ?? false;
  const ignoreCase = optionalBoolean(args, 'ignore_case') ?? false;
  const limits = settings.limits;
  const prepared = prepareGrepPattern(pattern, { fixed, ignoreCase });

  const target = resolveInWorkspace(context.workspaceRoot, userPath, { mustExist: true });
  const named = namedPath(context.workspaceRoot, userPath);
  refuseHidden(settings, named, userPath);
  const where = toWorkspaceRelative(context.workspaceRoot, named);
  const started = await GrepMatcher.start(prepared, {
    maxProgramSize: limits.grepMaxProgramSize,
    budgetMs: limits.grepMaxMatchMs,
    signal: context.signal,
  });
  if (started !== 'expired' && !(started instanceof GrepMatcher)) {
    throw compileFailureError(pattern, started, limits.grepMaxProgramSize);
  }
  // Heartbeats go on while the matcher thread works: the main thread is free, and the time
  // budget bounds the work, so a live heartbeat never hides a stuck call.
  let searched = 0;
  const beat = setInterval(() => context.heartbeat({ filesSearched: searched }), 1000);
  try {
    const stats = await fs.stat(target);
    // A FIFO, socket or device named outright is refused here; a walk lists regular files only.
    if (!stats.isDirectory() && !stats.isFile()) {
      throw new ToolError(
        `${where} is ${nonRegularKind(stats) ?? 'not a regular file'}, not a regular file; only regular files can be searched`,
      );
    }
    const listing = stats.isDirectory()
      ? await listWorkspaceFiles({
          workspaceRoot: context.workspaceRoot,
          directory: named,
          pattern: fileGlob,
          hiddenRoots: settings.hiddenRoots,
        })
      : { files: [{ shown: where, real: target }], skipped: undefined };
    const scan = await searchFiles(started, listing.files, limits, () => (searched += 1));
    const cuts = cutNotices(scan, listing.files.length, limits);
    const skips = listing.skipped === undefined ? [] : skippedNotes(listing.skipped);
    const lines =
      scan.hits.length === 0 && cuts.length === 0
        ? [`No matches for '${pattern}' in ${where}`]
        : scan.hits;
    return limitText([...lines, ...cuts, ...skips].join('\n'), limits.resultMaxChars);
  } finally {
    clearInterval(beat);
    if (started instanceof GrepMatcher) started.close();
  }
};

/** What one grep call found, and where it stopped early. */
interface GrepScan {
  hits: string[];
  hitLimitReached: boolean;
  /** Files not searched because the read budget ran out. */
  unreadFiles: number;
  /** Set when the time budget ran out: the file being matched and the files not searched. */
  expired: { file: string | null; notSearched: number } | null;
}

async function searchFiles(
  matcher: GrepMatcher | 'expired',
  files: ListedFile[],
  limits: FileSystemLimits,
  onFileSearched: () => void,
): Promise<GrepScan> {
  const hits: string[] = [];
  if (matcher === 'expired') {
    const expired = { file: null, notSearched: files.length };
    return { hits, hitLimitReached: false, unreadFiles: 0, expired };
  }
  const outcome = await matcher.search(
    {
      files: files.map((file) => file.real),
      maxHits: limits.grepMaxHits,
      maxLineChars: limits.grepMaxLineChars,
      maxBytes: limits.grepMaxBytes,
    },
    (index, found) => {
      onFileSearched();
      const shown = files[index]?.shown ?? '?';
      for (const hit of found) hits.push(formatHit(shown, hit));
    },
  );
  if (outcome.kind === 'expired') {
    const file = files[outcome.filesDone]?.shown ?? null;
    const expired = { file, notSearched: files.length - outcome.filesDone };
    return { hits, hitLimitReached: false, unreadFiles: 0, expired };
  }
  return {
    hits,
    hitLimitReached: outcome.hitLimitReached,
    unreadFiles: outcome.unreadFiles,
    expired: null,
  };
}

function formatHit(shown: string, hit: LineHit): string {
  const cut =
    hit.length > hit.text.length
      ? ` [line cut: showed ${hit.text.length} of ${hit.length} characters]`
      : '';
  return `${shown}:${hit.line}: ${hit.text}${cut}`;
}

function cutNotices(scan: GrepScan, fileCount: number, limits: FileSystemLimits): string[] {
  const notices: string[] = [];
  if (scan.hitLimitReached) {
    notices.push(
      `[output truncated: stopped at ${limits.grepMaxHits} matching lines; narrow the pattern, path or glob]`,
    );
  }
  if (scan.unreadFiles > 0) {
    notices.push(
      `[read budget of ${limits.grepMaxBytes / (1024 * 1024)} MiB reached: ${scan.unreadFiles} of ${fileCount} files were not searched]`,
    );
  }
  if (scan.expired !== null) {
    const during =
      scan.expired.file === null
        ? 'before the pattern was ready'
        : `while searching ${scan.expired.file}`;
    notices.push(
      `[time budget of ${limits.grepMaxMatchMs / 1000} s for matching reached ${during}: ${scan.expired.notSearched} of ${fileCount} files were not searched; simplify the pattern or narrow the path or glob]`,
    );
  }
  return notices;
}

/** A path named outright that no agent may read is refused, as decide() refuses it. */
function refuseHidden(settings: SearchSettings, named: string, userPath: string): void {
  if (settings.hiddenRoots.length > 0 && isHiddenFromAgents(settings.hiddenRoots, named)) {
    throw new ToolError(
      `path '${userPath}' is not open to agents: deputy's configuration file and data directory are off limits`,
    );
  }
}

async function resolveDirectory(workspaceRoot: string, userPath: string): Promise<string> {
  const directory = resolveInWorkspace(workspaceRoot, userPath, { mustExist: true });
  if (!(await fs.stat(directory)).isDirectory()) {
    throw new ToolError(`path '${userPath}' is a file, not a directory`);
  }
  return namedPath(workspaceRoot, userPath);
}

/**
 * A path the model named, as it named it (normalized, links not resolved), once
 * resolveInWorkspace has accepted it: glob and grep show what they find under the name the
 * model used, so `path: 'docs-link'` lists `docs-link/a.md`. The listing resolves every folder
 * it walks, this one included, before reading it.
 */
function namedPath(workspaceRoot: string, userPath: string): string {
  return path.resolve(workspaceRoot, userPath === '' ? '.' : userPath);
}

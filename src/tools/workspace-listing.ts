import fs from 'node:fs';
import path from 'node:path';
import fg from 'fast-glob';
import { isHiddenByIdentity } from '../paths/path-identity.js';
import { realpathLenient } from '../paths/realpath-lenient.js';
import { isInside } from '../shared/path-containment.js';
import { isHiddenPath } from '../shared/policy-contract.js';
import { ToolError } from './tool.js';
import { toWorkspaceRelative } from './workspace-path.js';

/**
 * The files glob lists and grep searches: a glob pattern under a folder of the workspace, with
 * symbolic links followed only while they stay inside it. fast-glob walks the tree through a
 * file-system adapter that refuses to read a folder that really lies outside the workspace (a
 * linked folder, anywhere on the pattern's path), that holds a folder it was reached through
 * (a link loop), or that is hidden from agents; every file found is then resolved once more,
 * which catches file links. A skip is reported under the link (or hidden entry) that caused
 * it, never under names behind it, which are not read.
 */

/** Never descended into: huge, generated, and never what the model wants. */
const IGNORED = ['**/node_modules/**', '**/.git/**'];

/** Names shown per kind of skip; the rest are counted. */
const MAX_SKIPPED_SHOWN = 10;

export interface ListedFile {
  /** Workspace-relative, as reached (an inward link's name, not its target). */
  shown: string;
  /** Real absolute path: read this, it needs no more resolving. */
  real: string;
}

/** Workspace-relative names of entries not listed, by why. */
export interface SkippedEntries {
  outside: Set<string>;
  loops: Set<string>;
  hidden: Set<string>;
}

export interface Listing {
  /** Sorted by `shown`. */
  files: ListedFile[];
  skipped: SkippedEntries;
}

export interface ListingRequest {
  /** Real absolute workspace root. */
  workspaceRoot: string;
  /**
   * Absolute folder the pattern is relative to, as the model named it (links in it are not
   * resolved, so results show the model's names); resolveInWorkspace has accepted it.
   */
  directory: string;
  pattern: string;
  /** Resolved roots no agent may read (deputyRoots(...).hiddenRoots); empty: none. */
  hiddenRoots: readonly string[];
}

export async function listWorkspaceFiles(request: ListingRequest): Promise<Listing> {
  refuseEscapingPattern(request.pattern);
  const walk = new GuardedWalk(request);
  const entries = await fg(request.pattern, {
    cwd: request.directory,
    dot: false,
    ignore: IGNORED,
    onlyFiles: true,
    // Followed, so links inside the workspace work; the adapter stops the others.
    followSymbolicLinks: true,
    suppressErrors: true,
    fs: walk.adapter(),
  });
  const files: ListedFile[] = [];
  for (const entry of entries) {
    const file = walk.admitFile(path.join(request.directory, entry));
    if (file !== undefined) files.push(file);
  }
  files.sort((a, b) => (a.shown < b.shown ? -1 : a.shown > b.shown ? 1 : 0));
  return { files, skipped: walk.skipped };
}

/** One listing's containment decisions, with the real path of every folder resolved once. */
class GuardedWalk {
  readonly skipped: SkippedEntries = { outside: new Set(), loops: new Set(), hidden: new Set() };
  private readonly realPaths = new Map<string, string | null>();
  private readonly folderVerdicts = new Map<string, boolean>();

  constructor(private readonly request: ListingRequest) {}

  /**
   * fast-glob reads folders with readdir, and looks up a symlinked entry, or the files of a
   * pattern without wildcards (`link/a.txt`), with lstat and stat. All three refuse whatever
   * lies in a refused folder, so not even the existence of a name there is learned.
   */
  adapter(): Partial<fg.FileSystemAdapter> {
    const readdir = ((folder: string, ...rest: unknown[]): void => {
      if (this.mayList(folder)) {
        (fs.readdir as (...args: unknown[]) => void)(folder, ...rest);
        return;
      }
      const callback = rest.at(-1) as (error: null, entries: never[]) => void;
      process.nextTick(callback, null, []);
    }) as fg.FileSystemAdapter['readdir'];
    type Lookup = fg.FileSystemAdapter['lstat'];
    const guard =
      (lookup: Lookup): Lookup =>
      (file, callback) => {
        if (this.mayList(path.dirname(file))) {
          lookup(file, callback);
          return;
        }
        const error = Object.assign(new Error(`ENOENT: not listed, '${file}'`), {
          code: 'ENOENT',
        });
        process.nextTick(callback, error);
      };
    return { readdir, lstat: guard(fs.lstat), stat: guard(fs.stat) };
  }

  /** The file as listed, or undefined when it is skipped (and recorded) or gone. */
  admitFile(absolute: string): ListedFile | undefined {
    const real = this.realOfFile(absolute);
    if (real === undefined) return undefined; // gone since the walk found it
    if (real === null || this.leadsOutside(real) || this.isHidden(absolute, real)) {
      this.recordSkipped(absolute);
      return undefined;
    }
    // A hard link to a hidden file is that file, whatever its name here.
    if (isHiddenByIdentity(this.request.hiddenRoots, real)) {
      this.skipped.hidden.add(this.shown(absolute));
      return undefined;
    }
    return { shown: this.shown(absolute), real };
  }

  /** Whether the walk may read `folder` (absolute, as reached); records why not. */
  private mayList(folder: string): boolean {
    let verdict = this.folderVerdicts.get(folder);
    if (verdict === undefined) {
      verdict = this.judgeFolder(folder);
      this.folderVerdicts.set(folder, verdict);
    }
    return verdict;
  }

  private judgeFolder(folder: string): boolean {
    const real = this.realOf(folder);
    if (real === null || this.leadsOutside(real) || this.isHidden(folder, real)) {
      this.recordSkipped(folder);
      return false;
    }
    // A folder that holds one it was reached through would be walked again inside itself.
    const { directory } = this.request;
    for (
      let above = path.dirname(folder);
      isInside(directory, above);
      above = path.dirname(above)
    ) {
      const realAbove = this.realOf(above);
      if (realAbove !== null && isInside(real, realAbove)) {
        this.skipped.loops.add(this.shown(folder));
        return false;
      }
      if (above === directory) break;
    }
    return true;
  }

  /**
   * Records a refused path under the first path on its way (from the searched folder) that
   * leads out or is hidden: the link or the hidden root, never a name behind it.
   */
  private recordSkipped(absolute: string): void {
    let prefix = this.request.directory;
    for (const segment of path.relative(prefix, absolute).split(path.sep)) {
      prefix = path.join(prefix, segment);
      const real = this.realOf(prefix);
      if (real === null || this.leadsOutside(real)) {
        this.skipped.outside.add(this.shown(prefix));
        return;
      }
      if (this.isHidden(prefix, real)) {
        this.skipped.hidden.add(this.shown(prefix));
        return;
      }
    }
    this.skipped.outside.add(this.shown(absolute)); // it changed since it was refused
  }

  /**
   * The real path of a found file: its folder's (resolved once per folder) plus its name,
   * unless the file itself is a link, which is resolved whole. Null: it cannot be resolved (a
   * loop); undefined: it no longer exists.
   */
  private realOfFile(absolute: string): string | null | undefined {
    let stats: fs.Stats;
    try {
      stats = fs.lstatSync(absolute);
    } catch {
      return undefined;
    }
    if (stats.isSymbolicLink()) return this.realOf(absolute);
    const folder = this.realOf(path.dirname(absolute));
    return folder === null ? null : path.join(folder, path.basename(absolute));
  }

  /** Where `absolute` really leads, or null when it cannot be resolved (a loop, no access). */
  private realOf(absolute: string): string | null {
    let real = this.realPaths.get(absolute);
    if (real === undefined) {
      try {
        real = realpathLenient(absolute);
      } catch {
        real = null;
      }
      this.realPaths.set(absolute, real);
    }
    return real;
  }

  private leadsOutside(real: string): boolean {
    return !isInside(this.request.workspaceRoot, real);
  }

  /**
   * Hidden as resolved or as written, like isHiddenFromAgents, but with the real path this walk
   * has already resolved (once per folder), not a realpath per file.
   */
  private isHidden(absolute: string, real: string): boolean {
    const roots = this.request.hiddenRoots;
    return isHiddenPath(roots, real) || isHiddenPath(roots, path.resolve(absolute));
  }

  private shown(absolute: string): string {
    return toWorkspaceRelative(this.request.workspaceRoot, absolute);
  }
}

/** Patterns are relative to the folder searched and may not climb out of it. */
function refuseEscapingPattern(pattern: string): void {
  if (path.isAbsolute(pattern) || pattern.startsWith('~')) {
    throw new ToolError(
      `glob pattern '${pattern}' is absolute; use a pattern relative to the path`,
    );
  }
  if (pattern.split(/[\\/]/).includes('..')) {
    throw new ToolError(`glob pattern '${pattern}' contains '..'; patterns may not leave the path`);
  }
}

/** One line per kind of skip, for the end of a glob or grep result. */
export function skippedNotes(skipped: SkippedEntries): string[] {
  const notes: string[] = [];
  const add = (names: Set<string>, one: string, many: string): void => {
    if (names.size === 0) return;
    const sorted = [...names].sort();
    const listed = sorted.slice(0, MAX_SKIPPED_SHOWN).join(', ');
    const rest = sorted.length - MAX_SKIPPED_SHOWN;
    const more = rest > 0 ? `, and ${rest} more` : '';
    const count = sorted.length === 1 ? '1 entry' : `${sorted.length} entries`;
    notes.push(`[${count} skipped: ${sorted.length === 1 ? one : many} (${listed}${more})]`);
  };
  add(
    skipped.outside,
    'it leads outside the workspace through a symbolic link',
    'they lead outside the workspace through symbolic links',
  );
  add(
    skipped.loops,
    'it is a symbolic link to a folder that holds it',
    'they are symbolic links to a folder that holds them',
  );
  const hidden = "deputy's configuration file and data directory are not open to agents";
  add(skipped.hidden, hidden, hidden);
  return notes;
}

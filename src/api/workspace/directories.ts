/**
 * The subdirectories of one workspace directory, for the knowledge source picker
 * (`GET /workspace/directories`). The requested path must stay inside the workspace lexically
 * and, symlinks followed, really (src/shared/path-containment.ts, src/paths/); deputy's hidden
 * roots (its data directory, src/paths/deputy-roots.ts) and `.git` are never listed nor
 * listable, and a linked subdirectory is listed only when its real path is inside the workspace.
 */
import { readdir, stat } from 'node:fs/promises';
import { realpathSync, statSync } from 'node:fs';
import path from 'node:path';
import { DeputyError } from '../../errors.js';
import { realpathLenient } from '../../paths/realpath-lenient.js';
import { isInside, relativeInside } from '../../shared/path-containment.js';
import { knowledgeGlobProblem } from '../../shared/knowledge-glob.js';
import { isHiddenPath } from '../../shared/policy-contract.js';
import { clip } from '../../shared/clip.js';
import type { DirectoryList } from './schemas.js';

/** Subdirectories answered at most; `truncated` says when there are more. */
export const MAX_LISTED_DIRECTORIES = 500;

export interface DirectoryRequest {
  /** Real absolute workspace root (DeputyConfig.workspace). */
  workspace: string;
  /** `deputyRoots(config).hiddenRoots`: resolved roots no agent may read. */
  hiddenRoots: readonly string[];
  /** As the caller sent it; '' is the workspace. */
  path: string;
  /** Default MAX_LISTED_DIRECTORIES. */
  limit?: number;
}

export async function listDirectories(request: DirectoryRequest): Promise<DirectoryList> {
  const { workspace, hiddenRoots } = request;
  const shown = `'${clip(request.path, 100)}'`;
  const lexical = insideWorkspace(workspace, request.path, shown);
  const relative = relativeInside(workspace, lexical) ?? '';
  let real: string;
  try {
    real = realpathLenient(lexical);
  } catch (error) {
    throw refused(`path ${shown} cannot be resolved: ${(error as Error).message}`);
  }
  if (!isInside(workspace, real)) {
    throw refused(`path ${shown} leads outside the workspace through a symbolic link`);
  }
  if (notListed(workspace, hiddenRoots, lexical, real)) {
    throw refused(
      `path ${shown} is hidden: deputy's own data and .git are not offered as knowledge sources`,
    );
  }
  const found = await stat(real).catch(() => undefined);
  if (found === undefined) {
    throw new DeputyError('not-found', `no directory ${shown} in the workspace`);
  }
  if (!found.isDirectory()) {
    throw new DeputyError('not-found', `${shown} is a file, not a directory`);
  }

  const names = (await entries(real, shown)).filter((entry) => {
    if (entry.name === '.git') return false;
    const realChild = childDirectory(real, entry);
    return (
      realChild !== undefined &&
      isInside(workspace, realChild) &&
      !notListed(workspace, hiddenRoots, path.join(lexical, entry.name), realChild)
    );
  });
  names.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const limit = request.limit ?? MAX_LISTED_DIRECTORIES;
  const directories = names.slice(0, limit).map(({ name }) => {
    const below = relative === '' ? name : `${relative}/${name}`;
    return { name, path: below, glob: knowledgeGlobOf(below) };
  });
  return {
    v: 1,
    path: relative,
    parent: relative === '' ? null : relative.includes('/') ? path.posix.dirname(relative) : '',
    directories,
    truncated: names.length > limit,
  };
}

/** The absolute lexical path of `requested`, refused when it is not a path inside the workspace. */
function insideWorkspace(workspace: string, requested: string, shown: string): string {
  if (requested.includes('\0')) throw refused(`path ${shown} contains a NUL byte`);
  if (
    path.isAbsolute(requested) ||
    /^[A-Za-z]:[\\/]/.test(requested) ||
    requested === '~' ||
    requested.startsWith('~/')
  ) {
    throw refused(`path ${shown} is absolute; give a path relative to the workspace`);
  }
  const lexical = path.resolve(workspace, requested === '' ? '.' : requested);
  if (!isInside(workspace, lexical)) {
    throw refused(`path ${shown} leaves the workspace ('..'); paths stay inside it`);
  }
  return lexical;
}

/** Hidden from agents (deputyRoots), as named or really, or inside `.git`. */
function notListed(
  workspace: string,
  hiddenRoots: readonly string[],
  lexical: string,
  real: string,
): boolean {
  const git = path.join(workspace, '.git');
  return (
    isHiddenPath(hiddenRoots, lexical) ||
    isHiddenPath(hiddenRoots, real) ||
    isInside(git, lexical) ||
    isInside(git, real)
  );
}

interface Entry {
  name: string;
  isDirectory(): boolean;
  isSymbolicLink(): boolean;
}

async function entries(directory: string, shown: string): Promise<Entry[]> {
  try {
    return await readdir(directory, { withFileTypes: true });
  } catch (error) {
    throw new DeputyError(
      'forbidden',
      `directory ${shown} cannot be read: ${(error as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
}

/** The real path of a subdirectory entry; undefined for a file, or a link to one or to nothing. */
function childDirectory(parentReal: string, entry: Entry): string | undefined {
  const child = path.join(parentReal, entry.name);
  if (entry.isDirectory()) return child;
  if (!entry.isSymbolicLink()) return undefined;
  try {
    const target = realpathSync(child);
    return statSync(target).isDirectory() ? target : undefined;
  } catch {
    return undefined; // dangling, a loop, or not searchable: not a directory to offer
  }
}

/**
 * `<path>/**\/*`, with glob characters of the names matched literally (`[*]`), so the source is
 * that directory whatever it is called; null when no knowledge glob can name it.
 */
export function knowledgeGlobOf(relativePath: string): string | null {
  let glob = `${relativePath.replace(/[*?[\]{}()+@]/g, (char) => `[${char}]`)}/**/*`;
  // A leading `!` negates, `~` and `C:` read as absolute: `./` keeps them names.
  if (/^(!|~|[A-Za-z]:)/.test(glob)) glob = `./${glob}`;
  return knowledgeGlobProblem(glob) === null ? glob : null;
}

function refused(message: string): DeputyError {
  return new DeputyError('invalid', message, { issues: [{ path: 'path', message }] });
}

/**
 * Watches the definition directories, so hand edits reload. A directory that does not exist yet is
 * watched through its nearest existing ancestor, filtered down to the path leading to it, so
 * creating `.subagents/agents/` later is noticed without watching the whole workspace.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import { watch } from 'chokidar';
import type { Stats } from 'node:fs';
import { isInside } from '../../shared/path-containment.js';

export interface WatchTarget {
  directory: string;
  recursive: boolean;
  /**
   * Directory to watch from (an ancestor of `directory`, e.g. the workspace). Watching from
   * above means deleting and re-creating the definitions folder is still noticed.
   * Default: `directory` itself.
   */
  root?: string;
}

export interface DirectoryWatcher {
  /** Resolves once the initial scan of the watched roots is done. */
  ready: Promise<void>;
  close(): Promise<void>;
}

export interface WatchOptions {
  /** Quiet period before `onChange` fires, in milliseconds. Default 100. */
  debounceMs?: number;
}

function nearestExisting(directory: string): string {
  let current = directory;
  while (!existsSync(current)) {
    const parent = dirname(current);
    if (parent === current) return current;
    current = parent;
  }
  return current;
}

export function watchDefinitionDirectories(
  targets: WatchTarget[],
  onChange: () => void,
  options: WatchOptions = {},
): DirectoryWatcher {
  const debounceMs = options.debounceMs ?? 100;
  const roots = [
    ...new Set(targets.map((target) => nearestExisting(target.root ?? target.directory))),
  ];
  // Lexical on purpose, not isInsideReal: chokidar reports paths under the watched root as
  // they are spelled there (a linked definition file `agents/a.md -> ~/shared/a.md` arrives
  // as `agents/a.md`), and resolving them would stop noticing edits to such links.
  const relevant = (path: string, stats?: Stats): boolean =>
    targets.some((target) => {
      // The folder itself or one of its ancestors: keep walking towards it.
      if (isInside(path, target.directory)) return true;
      if (!isInside(target.directory, path)) return false;
      if (stats?.isDirectory() === true) return target.recursive;
      if (stats?.isFile() === true) {
        return (
          path.toLowerCase().endsWith('.md') &&
          (target.recursive || dirname(path) === target.directory)
        );
      }
      // chokidar asks once without stats; decide when it asks again with them.
      return true;
    });
  const watcher = watch(roots, {
    ignoreInitial: true,
    ignored: (path, stats) => !relevant(path, stats),
  });
  let timer: NodeJS.Timeout | undefined;
  const schedule = (): void => {
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, debounceMs);
  };
  watcher.on('all', (_event, path) => {
    // An ancestor appearing or vanishing (`mkdir -p .claude/agents/x`) counts too: the files
    // inside may land before chokidar watches the new folder, and the rescan finds them.
    if (relevant(path)) schedule();
  });
  // A watcher error (a directory removed under it) must not crash the process.
  watcher.on('error', () => schedule());
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async close() {
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      await watcher.close();
    },
  };
}

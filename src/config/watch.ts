/**
 * Watches `<workspace>/.subagents/config.yaml` and keeps the last good configuration.
 * Each edit is read and validated like at start (`readConfigFile`); a valid one replaces the
 * file part of the configuration for the next request and delegation, an invalid one is kept
 * out and reported (`problem()`, one warning line per distinct problem) until the file is good
 * again.
 *
 * Only the file part changes: the workspace, data and user directories, the project root,
 * `temporal` and `api` (host, port) stay as the process started with them, since sockets,
 * connections and the data directory were opened with them. Changing those needs a restart.
 */
import { dirname } from 'node:path';
import type { Stats } from 'node:fs';
import { watch } from 'chokidar';
import { configFilePath, mcpJsonPath, readConfigFile } from './load.js';
import { type DeputyConfig } from './schema.js';
import type { ConfigProblem, LiveConfig } from './live-config.js';

/** Above chokidar's 50 ms throttle of `change` events (see `debounceMs`). */
const MIN_DEBOUNCE_MS = 60;

export interface ConfigWatchLogger {
  warn(message: string): void;
  info(message: string): void;
}

export interface WatchConfigOptions {
  /** Environment the file's variables are read from; the one the process started with. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /**
   * Quiet period after the last change before the file is read, in milliseconds. Default 100;
   * at least 60: chokidar drops a change that comes within 50 ms of the previous one, so a read
   * sooner than that could miss the last edit for good.
   */
  debounceMs?: number;
  /** Where problems, recoveries and new warnings are said. Default: nowhere. */
  logger?: ConfigWatchLogger;
  /** Clock of `problem().since`. Default `() => new Date()`. */
  now?: () => Date;
}

export interface ConfigWatcher extends LiveConfig {
  /** Resolves once the watch is in place (edits from then on are seen). */
  ready: Promise<void>;
  /** Called with each new good configuration; returns the unsubscribe function. */
  onChange(listener: (config: DeputyConfig) => void): () => void;
  close(): Promise<void>;
}

export function watchConfig(
  initial: DeputyConfig,
  options: WatchConfigOptions = {},
): ConfigWatcher {
  const env = options.env ?? process.env;
  const debounceMs = Math.max(options.debounceMs ?? 100, MIN_DEBOUNCE_MS);
  const logger = options.logger ?? { warn: () => {}, info: () => {} };
  const now = options.now ?? (() => new Date());
  const file = configFilePath(initial.workspace);
  const folder = dirname(file);
  let current = initial;
  let problem: ConfigProblem | null = null;
  const listeners = new Set<(config: DeputyConfig) => void>();

  const reload = (): void => {
    let next: DeputyConfig;
    try {
      // Locations, Temporal and the API from the start; everything the file decides from now.
      next = { ...initial, ...readConfigFile(initial.workspace, env) };
    } catch (error) {
      // ConfigError messages name the file, fields and positions only (src/config/config.ts); an I/O
      // error names the path. Folded into one line: one problem, one log line, one health field.
      const message = oneLine(error instanceof Error ? error.message : String(error));
      if (problem?.message !== message) {
        problem = { message, since: now().toISOString() };
        logger.warn(`configuration not applied, the last good one stays in use: ${message}`);
      }
      return;
    }
    if (problem !== null) logger.info(`${file} is valid again and in use`);
    problem = null;
    // A literal secret added by the edit is said like at start, once.
    const known = new Set(current.warnings);
    for (const warning of next.warnings) if (!known.has(warning)) logger.warn(warning);
    current = next;
    for (const listener of listeners) listener(next);
  };

  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const schedule = (): void => {
    if (closed) return;
    if (timer !== undefined) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      reload();
    }, debounceMs);
  };

  // From the workspace, pruned to `.subagents` and the file (nothing else of the workspace is
  // walked), so creating or deleting the file, or deleting and re-creating the whole folder, is
  // seen. Watching the folder itself would go blind once it is deleted.
  const mcpJson = mcpJsonPath(initial.workspace);
  const relevant = (path: string, stats?: Stats): boolean =>
    path === initial.workspace ||
    path === file ||
    path === mcpJson ||
    (path === folder && (stats === undefined || stats.isDirectory()));
  const watcher = watch(initial.workspace, {
    ignoreInitial: true,
    ignored: (path, stats) => !relevant(path, stats),
  });
  watcher.on('all', (_event, path) => {
    if (path === file || path === folder || path === mcpJson) schedule();
  });
  // A watcher error (the folder removed under it) must not crash the process; read again.
  watcher.on('error', () => schedule());
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  // An edit made between the start's read and the watch being in place is caught by one read.
  void ready.then(schedule);

  return {
    ready,
    current: () => current,
    problem: () => problem,
    onChange(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    async close() {
      closed = true;
      if (timer !== undefined) clearTimeout(timer);
      timer = undefined;
      listeners.clear();
      await watcher.close();
    },
  };
}

function oneLine(message: string): string {
  return message
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('; ')
    .replace(/:; /g, ': ');
}

/** Reads every definition file of one level. Unreadable files become diagnostics, not failures. */
import { basename } from 'node:path';
import fg from 'fast-glob';
import type { Diagnostic } from '../../shared/diagnostics.js';
import type { LoadedDefinition } from '../definition.js';
import type { LevelSource } from '../levels.js';
import { isDefinitionFileName } from '../levels.js';
import { fallbackName, parseDefinition } from '../read/parse.js';
import { readRegularFile } from '../../paths/regular-file.js';
import { sha256 } from './revisions.js';

/** Files read at once; keeps a 1,000-file level well under the process's descriptor limit. */
const READ_CONCURRENCY = 32;

export async function scanLevel(
  source: LevelSource,
  aliases: Record<string, string>,
  builtinModel?: (name: string) => string | undefined,
): Promise<LoadedDefinition[]> {
  const entries = await fg(source.recursive ? '**/*.md' : '*.md', {
    cwd: source.directory,
    absolute: true,
    // Not onlyFiles: a FIFO, socket or device named like a definition is listed too, so that
    // reading it (which refuses it unopened) reports it instead of it vanishing without a word.
    onlyFiles: false,
    objectMode: true,
    dot: false,
    caseSensitiveMatch: false,
    suppressErrors: true,
    // A symlinked sub-directory could loop or lead anywhere; linked files are still read.
    followSymbolicLinks: false,
  });
  const paths = entries
    .filter((entry) => !entry.dirent.isDirectory() && !entry.dirent.isSymbolicLink())
    .map((entry) => entry.path)
    .filter((path) => isDefinitionFileName(basename(path)))
    .sort();
  const loaded: Array<LoadedDefinition | undefined> = new Array<LoadedDefinition | undefined>(
    paths.length,
  );
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < paths.length) {
      const index = next++;
      loaded[index] = await loadFile(paths[index]!, source, aliases, builtinModel);
    }
  };
  await Promise.all(Array.from({ length: Math.min(READ_CONCURRENCY, paths.length) }, worker));
  return loaded.filter((entry): entry is LoadedDefinition => entry !== undefined);
}

export async function loadFile(
  filePath: string,
  source: Pick<LevelSource, 'level' | 'readOnly'>,
  aliases: Record<string, string>,
  builtinModel?: (name: string) => string | undefined,
): Promise<LoadedDefinition | undefined> {
  let bytes: Buffer;
  // An unreadable file still loads, as an empty stub named after the file carrying this error.
  let unreadable: Diagnostic | undefined;
  try {
    bytes = await readBytes(filePath);
  } catch (error) {
    // Deleted between listing and reading: the watcher reloads again shortly.
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    bytes = Buffer.alloc(0);
    unreadable = {
      severity: 'error',
      path: '',
      code: 'file.unreadable',
      message: `${fallbackName(filePath)}: file could not be read: ${(error as Error).message}`,
    };
  }
  const { definition, diagnostics } = parseDefinition(bytes.toString('utf8'), {
    fileName: filePath,
    level: source.level,
    aliases,
    ...(builtinModel === undefined ? {} : { builtinModel }),
  });
  return {
    definition,
    level: source.level,
    readOnly: source.readOnly,
    filePath,
    contentHash: sha256(bytes),
    diagnostics: unreadable === undefined ? diagnostics : [unreadable],
  };
}

/**
 * The file's bytes; a FIFO, socket or device is refused unopened (a FIFO's open would block the
 * scan, and with it the process), which makes the unreadable-file diagnostic above.
 */
function readBytes(filePath: string): Promise<Buffer> {
  return readRegularFile(filePath);
}

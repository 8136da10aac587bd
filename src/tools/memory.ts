import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import {
  MEMORY_READ_TOOL_SCHEMA,
  MEMORY_SEARCH_TOOL_SCHEMA,
  MEMORY_WRITE_TOOL_SCHEMA,
} from '../shared/tools/capability-tool-schemas.js';
import type { MemoryRef } from '../shared/capability-snapshot.js';
import type { ResidentMemory } from '../shared/resident-memory.js';
import {
  HitCollector,
  parseQuery,
  rankOf,
  renderHits,
  scanLines,
  type PendingHit,
} from './kb-search-lines.js';
import {
  NotRegularFileError,
  appendRegularFile,
  readRegularFile,
  readRegularText,
} from '../paths/regular-file.js';
import { ToolError, type ToolImplementation } from './tool.js';

/**
 * Memory tools. The directory is fixed when the tools are built; no argument names a
 * scope or a root, and file names are checked to stay inside it, so a model cannot write
 * elsewhere by forging arguments. Appends are serialized across processes with a lock on the
 * directory: several workers may run delegations of the same agent at once.
 */

export const MEMORY_LIMITS = {
  /** A resident (root `*.md`) file above this many bytes is not injected into the prompt. */
  residentFileMaxBytes: 4 * 1024,
  /** All injected resident files together stay under this many bytes. */
  residentTotalMaxBytes: 12 * 1024,
  /** Characters of one memory_write entry. */
  entryMaxChars: 16_000,
  /** Hits memory_search returns. */
  maxHits: 50,
  /** Characters shown of one hit line. */
  maxLineChars: 400,
};

const NAME = /^[A-Za-z0-9._-]+$/;
const DAILY = 'daily';
const LOCK_FILE = '.memory.lock';

/**
 * Lock retries: mkdir-based locks are polled, so under contention a writer waits in short,
 * growing, jittered steps (about a minute in all before it gives up loudly).
 */
const LOCK_OPTIONS = {
  retries: { retries: 400, factor: 1.3, minTimeout: 2, maxTimeout: 200, randomize: true },
  // A writer that died holding the lock frees it after this long (its mtime stops updating).
  stale: 10_000,
  realpath: false,
  // proper-lockfile's default throws from a timer, which would kill the worker process with
  // every delegation on it. A compromised lock (its refresh was delayed past `stale`) can at
  // worst let one other append run alongside ours; each append is a single write.
  onCompromised: () => undefined,
} as const;

/** `name` (as the model wrote it) -> a file name inside the memory directory, or a ToolError. */
export function memoryFileName(name: unknown): string {
  if (typeof name !== 'string' || name.trim() === '') {
    throw new ToolError('name must be a non-empty string');
  }
  const base = name.trim().replace(/\.md$/i, '');
  if (!NAME.test(base) || base.startsWith('.') || base.includes('..') || base.length > 100) {
    throw new ToolError(
      `memory file name ${JSON.stringify(name)} is refused: use letters, digits, ".", "_" and "-" only (no "/", no "..", no leading "."), at most 100 characters`,
    );
  }
  return `${base}.md`;
}

/** Today's daily log, by UTC date so every worker agrees on it. */
export function dailyFileName(now: Date): string {
  return `${DAILY}/${now.toISOString().slice(0, 10)}.md`;
}

/** One entry exactly as appended: a timestamp heading, the text, a blank line. */
export function formatEntry(content: string, now: Date): string {
  return `### ${now.toISOString()}\n\n${content.replace(/\s+$/, '')}\n\n`;
}

/**
 * Appends one entry to `relativeFile` (`name.md` or `daily/<date>.md`) of `directory`,
 * holding the directory's cross-process lock so no entry is lost or interleaved. Returns the
 * file's size after the append.
 */
export async function appendMemoryEntry(
  directory: string,
  relativeFile: string,
  entry: string,
): Promise<number> {
  await fs.promises.mkdir(path.join(directory, DAILY), { recursive: true });
  const release = await lockfile.lock(directory, {
    ...LOCK_OPTIONS,
    lockfilePath: path.join(directory, LOCK_FILE),
  });
  try {
    const target = path.join(directory, relativeFile);
    refuseSymlinks(directory, relativeFile);
    // One write of the whole entry, under the lock: readers never see half of it interleaved.
    // A FIFO here would block the append (and the lock with it): refused, like a symlink.
    try {
      await appendRegularFile(target, entry, { mode: 0o600, noFollow: true });
    } catch (error) {
      if (error instanceof NotRegularFileError) {
        throw new ToolError(`memory file ${relativeFile} is ${error.kind}, not a regular file`);
      }
      throw error;
    }
    return (await fs.promises.stat(target)).size;
  } finally {
    await release();
  }
}

/** A symlink planted inside the memory directory must not carry a write outside it. */
function refuseSymlinks(directory: string, relativeFile: string): void {
  const parts = relativeFile.split('/');
  let current = directory;
  for (const part of parts) {
    current = path.join(current, part);
    let stats: fs.Stats;
    try {
      stats = fs.lstatSync(current);
    } catch {
      return; // does not exist yet: the append creates a plain file
    }
    if (stats.isSymbolicLink()) {
      throw new ToolError(`memory file ${relativeFile} is a symbolic link; refusing to follow it`);
    }
  }
}

export interface MemoryToolOptions {
  /** Clock for entry timestamps and the daily file name (tests pin it). */
  now?: () => Date;
}

export function createMemoryTools(
  memory: MemoryRef,
  options: MemoryToolOptions = {},
): ToolImplementation[] {
  const directory = memory.directory;
  const now = options.now ?? (() => new Date());
  return [
    {
      schema: MEMORY_WRITE_TOOL_SCHEMA,
      async run(args) {
        const content = args.content;
        if (typeof content !== 'string' || content.trim() === '') {
          throw new ToolError('content must be a non-empty string');
        }
        if (content.length > MEMORY_LIMITS.entryMaxChars) {
          throw new ToolError(
            `content has ${content.length} characters; one entry holds at most ${MEMORY_LIMITS.entryMaxChars}`,
          );
        }
        const at = now();
        const file =
          args.name === undefined || args.name === null
            ? dailyFileName(at)
            : memoryFileName(args.name);
        const size = await appendMemoryEntry(directory, file, formatEntry(content, at));
        let text = `Saved to ${file} (${size} bytes).`;
        if (!file.startsWith(`${DAILY}/`) && size > MEMORY_LIMITS.residentFileMaxBytes) {
          text += ` Note: ${file} is now over the ${MEMORY_LIMITS.residentFileMaxBytes / 1024} KiB resident budget, so it will not be shown in your instructions; memory_read and memory_search still reach it. Keep resident files short.`;
        }
        return text;
      },
    },
    {
      schema: MEMORY_READ_TOOL_SCHEMA,
      async run(args) {
        if (args.name === undefined || args.name === null || args.name === '') {
          return listMemory(directory);
        }
        const file = memoryFileName(args.name);
        refuseSymlinks(directory, file);
        try {
          return await readRegularText(path.join(directory, file), { noFollow: true });
        } catch (error) {
          if (error instanceof NotRegularFileError) {
            throw new ToolError(`memory file ${file} is ${error.kind}, not a regular file`);
          }
          if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
          throw new ToolError(`no memory file ${file}. ${await listMemory(directory)}`);
        }
      },
    },
    {
      schema: MEMORY_SEARCH_TOOL_SCHEMA,
      async run(args) {
        return searchMemory(directory, args.query);
      },
    },
  ];
}

async function memoryFiles(directory: string): Promise<{ resident: string[]; daily: string[] }> {
  const list = async (relative: string): Promise<string[]> => {
    try {
      const entries = await fs.promises.readdir(path.join(directory, relative), {
        withFileTypes: true,
      });
      return entries
        .filter((entry) => entry.isFile() && entry.name.endsWith('.md'))
        .map((entry) => entry.name)
        .sort();
    } catch {
      return []; // no memory yet
    }
  };
  return {
    resident: await list('.'),
    // Newest day first: ties in ranking then favour what was learned most recently.
    daily: (await list(DAILY)).reverse().map((name) => `${DAILY}/${name}`),
  };
}

async function listMemory(directory: string): Promise<string> {
  const { resident, daily } = await memoryFiles(directory);
  if (resident.length === 0 && daily.length === 0) return 'Memory is empty.';
  return (
    `Resident files: ${resident.join(', ') || 'none'}. ` +
    `Daily logs (search them with memory_search): ${daily.join(', ') || 'none'}.`
  );
}

async function searchMemory(directory: string, rawQuery: unknown): Promise<string> {
  const query = parseQuery(rawQuery);
  const { resident, daily } = await memoryFiles(directory);
  const collector = new HitCollector<PendingHit>(MEMORY_LIMITS.maxHits);
  for (const file of [...resident, ...daily]) {
    // Listed as a regular file; one swapped for a FIFO since is refused, not waited on.
    const text = await readRegularText(path.join(directory, file), { noFollow: true });
    scanLines(text, query, (match) => {
      const rank = rankOf(match);
      if (collector.wants(rank)) {
        collector.add({ rank, label: file, text, start: match.start, end: match.end });
      }
    });
  }
  const hits = renderHits(collector.result(), query, MEMORY_LIMITS.maxLineChars);
  const searched = resident.length + daily.length;
  if (hits.length === 0) return `No hits in ${searched} memory files.`;
  const lines = hits.map((hit) => `${hit.label}:${hit.line}: ${hit.text}`);
  if (collector.total > hits.length) {
    lines.push(
      `[cut] ${collector.total} lines matched, only the best ${hits.length} are shown; narrow the query`,
    );
  }
  const shortened = hits.filter((hit) => hit.cutFrom !== null).length;
  if (shortened > 0) {
    lines.push(
      `[cut] ${shortened} hit lines shortened to ${MEMORY_LIMITS.maxLineChars} characters`,
    );
  }
  return lines.join('\n');
}

/**
 * Resident memory for the prompt: root `*.md` files in name order, at most 4 KiB each
 * and 12 KiB in all. A file over budget is dropped whole (never cut mid-way) and a note says so.
 */
export async function readResidentMemory(directory: string): Promise<ResidentMemory> {
  const result: ResidentMemory = { files: [], notes: [] };
  const { resident } = await memoryFiles(directory);
  let total = 0;
  for (const name of resident) {
    const absolute = path.join(directory, name);
    let buffer: Buffer;
    try {
      buffer = await readRegularFile(absolute, { noFollow: true });
    } catch (error) {
      result.notes.push(
        `${name} could not be read (${(error as Error).message}) and was not loaded.`,
      );
      continue;
    }
    if (buffer.length > MEMORY_LIMITS.residentFileMaxBytes) {
      result.notes.push(
        `${name} (${buffer.length} bytes) is over the ${MEMORY_LIMITS.residentFileMaxBytes / 1024} KiB per-file budget and was not loaded; read it with memory_read.`,
      );
      continue;
    }
    if (total + buffer.length > MEMORY_LIMITS.residentTotalMaxBytes) {
      result.notes.push(
        `${name} (${buffer.length} bytes) would exceed the ${MEMORY_LIMITS.residentTotalMaxBytes / 1024} KiB budget of resident memory and was not loaded; read it with memory_read.`,
      );
      continue;
    }
    total += buffer.length;
    result.files.push({ name, content: buffer.toString('utf8') });
  }
  return result;
}

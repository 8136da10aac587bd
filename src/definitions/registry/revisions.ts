/**
 * Revision history: every save keeps the previous bytes under
 * `<dataDir>/revisions/<level>/<name>/<sortable-timestamp>-<hash8>.md`.
 * File names sort in time order, so listing needs no index file.
 */
import { createHash } from 'node:crypto';
import { readdir, stat } from 'node:fs/promises';
import { readRegularFile, readRegularText } from '../../paths/regular-file.js';
import { join } from 'node:path';
import { writeFileAtomic } from './atomic-write.js';
import { WRITABLE_LEVELS } from '../levels.js';
import type { WritableLevel } from '../levels.js';
import { isValidName } from '../names.js';

export interface RevisionInfo {
  /** `<timestamp>-<hash8>`, unique per definition; pass it to `restore`. */
  id: string;
  name: string;
  level: WritableLevel;
  /** ISO time the revision was recorded (when it stopped being current). */
  createdAt: string;
  /** sha256 hex of the revision's bytes. */
  contentHash: string;
  size: number;
}

const REVISION_FILE = /^(\d{8}T\d{9}Z)-([0-9a-f]{8})\.md$/;

export function sha256(content: string | Buffer): string {
  return createHash('sha256').update(content).digest('hex');
}

/** `2026-11-30T09:23:11.123Z` -> `20261130T092311123Z`: lexical order is time order. */
function stamp(time: number): string {
  return new Date(time).toISOString().replace(/[-:.]/g, '');
}

function parseStamp(text: string): number {
  const match = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z$/.exec(text);
  if (match === null) return Number.NaN;
  const [, y, mo, d, h, mi, s, ms] = match.map(Number) as number[];
  return Date.UTC(y!, mo! - 1, d!, h!, mi!, s!, ms!);
}

export interface RevisionStore {
  /** Records `content` as the newest revision; skipped when it equals the newest already kept. */
  save(level: WritableLevel, name: string, content: string): Promise<RevisionInfo | undefined>;
  /** Every revision of `name` across writable levels, newest first. */
  list(name: string): Promise<RevisionInfo[]>;
  read(name: string, id: string): Promise<{ info: RevisionInfo; content: string } | undefined>;
}

export function createRevisionStore(dataDir: string, now: () => number = Date.now): RevisionStore {
  const root = join(dataDir, 'revisions');
  const directory = (level: WritableLevel, name: string): string => {
    // Names reach the file system here; only registry keys (already validated) may.
    if (!isValidName(name)) throw new Error(`refusing revision path for invalid name '${name}'`);
    return join(root, level, name);
  };

  async function listLevel(level: WritableLevel, name: string): Promise<RevisionInfo[]> {
    let files: string[];
    try {
      files = await readdir(directory(level, name));
    } catch {
      return [];
    }
    const infos: RevisionInfo[] = [];
    for (const file of files) {
      const match = REVISION_FILE.exec(file);
      if (match === null) continue;
      const path = join(directory(level, name), file);
      const content = await readRegularFile(path);
      infos.push({
        id: file.slice(0, -3),
        name,
        level,
        createdAt: new Date(parseStamp(match[1]!)).toISOString(),
        contentHash: sha256(content),
        size: (await stat(path)).size,
      });
    }
    return infos;
  }

  return {
    async save(level, name, content) {
      const existing = (await listLevel(level, name)).sort((a, b) => b.id.localeCompare(a.id));
      const hash = sha256(content);
      if (existing[0]?.contentHash === hash) return undefined;
      // Strictly increasing stamps even for saves within one millisecond.
      const newest =
        existing[0] === undefined
          ? Number.NEGATIVE_INFINITY
          : parseStamp(existing[0].id.slice(0, 19));
      const time = Math.max(now(), newest + 1);
      const id = `${stamp(time)}-${hash.slice(0, 8)}`;
      await writeFileAtomic(join(directory(level, name), `${id}.md`), content);
      return {
        id,
        name,
        level,
        createdAt: new Date(time).toISOString(),
        contentHash: hash,
        size: Buffer.byteLength(content),
      };
    },
    async list(name) {
      if (!isValidName(name)) return [];
      const all = (
        await Promise.all(WRITABLE_LEVELS.map((level) => listLevel(level, name)))
      ).flat();
      return all.sort((a, b) => b.id.localeCompare(a.id) || a.level.localeCompare(b.level));
    },
    async read(name, id) {
      if (!isValidName(name) || !/^\d{8}T\d{9}Z-[0-9a-f]{8}$/.test(id)) return undefined;
      for (const level of WRITABLE_LEVELS) {
        try {
          const content = await readRegularText(join(directory(level, name), `${id}.md`));
          return {
            info: {
              id,
              name,
              level,
              createdAt: new Date(parseStamp(id.slice(0, 19))).toISOString(),
              contentHash: sha256(content),
              size: Buffer.byteLength(content),
            },
            content,
          };
        } catch {
          continue;
        }
      }
      return undefined;
    },
  };
}

/**
 * Content-addressed storage for large tool results and capability snapshots, so they do not ride
 * in every activity payload of a long delegation. One interface, two places: the data
 * directory (`FileBlobStore`, the dev-server default; workers on several machines must share it)
 * or a PostgreSQL table every worker reaches over the network (src/activities/postgres-blob-store.ts).
 * src/activities/blob-stores.ts picks one.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BlobRef } from '../shared/model-contract.js';

/** Results longer than this stay out of history; the transcript keeps a preview this long. */
export const INLINE_RESULT_CHARS = 2_048;

/**
 * The blob is not there, or not what its digest says: retrying cannot bring it back, so callers
 * turn it into a non-retryable failure. A store that cannot be reached throws anything else.
 */
export class BlobMissingError extends Error {
  override readonly name = 'BlobMissingError';
}

export interface BlobStore {
  /** Stores `text` under its sha256; storing the same text again is a no-op. */
  put(text: string): Promise<BlobRef>;
  /** The text `ref` names, checked against its digest; `BlobMissingError` when absent or corrupt. */
  get(ref: BlobRef): Promise<string>;
  /** Releases what the store holds open (connections); the store is not used after. */
  close(): Promise<void>;
}

export function sha256Of(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}

/** A reference's digest, refused unless it is one: it becomes a file name or a query key. */
export function blobIdOf(ref: BlobRef): string {
  if (!/^[0-9a-f]{64}$/.test(ref.sha256))
    throw new BlobMissingError(`not a blob id: ${ref.sha256}`);
  return ref.sha256;
}

export class FileBlobStore implements BlobStore {
  constructor(private readonly directory: string) {}

  private pathOf(sha256: string): string {
    return join(this.directory, sha256.slice(0, 2), `${sha256}.txt`);
  }

  async put(text: string): Promise<BlobRef> {
    const sha256 = sha256Of(text);
    const path = this.pathOf(sha256);
    const exists = await stat(path).then(
      () => true,
      () => false,
    );
    if (!exists) {
      await mkdir(dirname(path), { recursive: true });
      // Write-then-rename: a reader (another worker) never sees half a blob.
      const staging = `${path}.${randomUUID()}.tmp`;
      await writeFile(staging, text);
      await rename(staging, path);
    }
    return { sha256, chars: text.length };
  }

  async get(ref: BlobRef): Promise<string> {
    const path = this.pathOf(blobIdOf(ref));
    let text: string;
    try {
      text = await readFile(path, 'utf8');
    } catch {
      throw new BlobMissingError(
        `blob ${ref.sha256} is missing from ${this.directory}: every worker must share deputy's data directory (or set DEPUTY_BLOB_STORE_URL to a PostgreSQL database they all reach)`,
      );
    }
    if (sha256Of(text) !== ref.sha256) {
      throw new BlobMissingError(`blob ${ref.sha256} in ${this.directory} is corrupt`);
    }
    return text;
  }

  /** Nothing is held open between calls. */
  async close(): Promise<void> {}
}

/** Moves a long result into the store and leaves a preview that says where the rest went. */
export async function offloadLongResult(
  store: BlobStore,
  content: string,
): Promise<{ content: string; blob?: BlobRef }> {
  if (content.length <= INLINE_RESULT_CHARS) return { content };
  const blob = await store.put(content);
  return {
    content: `${content.slice(0, INLINE_RESULT_CHARS)}\n[preview: ${INLINE_RESULT_CHARS} of ${content.length} characters; the model sees the whole result]`,
    blob,
  };
}

/**
 * Content-addressed storage for large tool results and capability snapshots, so they do not ride
 * in every activity payload of a long delegation (RUN-9). Lives in the data directory: workers on
 * several machines must share it, as they share the workspace.
 */
import { createHash, randomUUID } from 'node:crypto';
import { mkdir, readFile, rename, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { BlobRef } from '../shared/model-contract.js';

/** Results longer than this stay out of history; the transcript keeps a preview this long. */
export const INLINE_RESULT_CHARS = 2_048;

export class BlobMissingError extends Error {
  override readonly name = 'BlobMissingError';
}

export class BlobStore {
  constructor(private readonly directory: string) {}

  private pathOf(sha256: string): string {
    if (!/^[0-9a-f]{64}$/.test(sha256)) throw new BlobMissingError(`not a blob id: ${sha256}`);
    return join(this.directory, sha256.slice(0, 2), `${sha256}.txt`);
  }

  async put(text: string): Promise<BlobRef> {
    const sha256 = createHash('sha256').update(text).digest('hex');
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
    let text: string;
    try {
      text = await readFile(this.pathOf(ref.sha256), 'utf8');
    } catch {
      throw new BlobMissingError(
        `blob ${ref.sha256} is missing from ${this.directory}: every worker must share deputy's data directory`,
      );
    }
    if (createHash('sha256').update(text).digest('hex') !== ref.sha256) {
      throw new BlobMissingError(`blob ${ref.sha256} in ${this.directory} is corrupt`);
    }
    return text;
  }
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

import { mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import {
  BlobMissingError,
  FileBlobStore,
  INLINE_RESULT_CHARS,
  offloadLongResult,
} from '../../src/activities/blob-store.js';
import { blobStoreContract } from './blob-store-contract.js';

let directory: string;
let store: FileBlobStore;

beforeEach(async () => {
  directory = await mkdtemp(join(tmpdir(), 'deputy-blobs-'));
  store = new FileBlobStore(directory);
});

describe('FileBlobStore: the blob store contract', () => {
  blobStoreContract({
    store: () => store,
    corrupt: (ref, body) =>
      writeFile(join(directory, ref.sha256.slice(0, 2), `${ref.sha256}.txt`), body),
  });
});

describe('FileBlobStore', () => {
  it('round-trips text by content address, writing each content once', async () => {
    const first = await store.put('héllo wörld');
    const second = await store.put('héllo wörld');
    expect(second).toEqual(first);
    expect(first.chars).toBe(11);
    expect(await store.get(first)).toBe('héllo wörld');
    const shards = await readdir(directory);
    expect(shards).toHaveLength(1);
    expect(await readdir(join(directory, shards[0]!))).toEqual([`${first.sha256}.txt`]);
  });

  it('refuses a missing, a corrupt and a malformed reference with a clear error', async () => {
    const ref = await store.put('original');
    await writeFile(join(directory, ref.sha256.slice(0, 2), `${ref.sha256}.txt`), 'tampered');
    await expect(store.get(ref)).rejects.toThrow(/corrupt/);
    await expect(store.get({ sha256: 'a'.repeat(64), chars: 1 })).rejects.toThrow(
      /missing .*share deputy's data directory/,
    );
    await expect(store.get({ sha256: '../../etc/passwd', chars: 1 })).rejects.toBeInstanceOf(
      BlobMissingError,
    );
  });
});

describe('offloadLongResult', () => {
  it('keeps short results inline', async () => {
    expect(await offloadLongResult(store, 'short')).toEqual({ content: 'short' });
    expect(await readdir(directory)).toEqual([]);
  });

  it('stores long results whole and leaves a preview that says so', async () => {
    const long = 'x'.repeat(INLINE_RESULT_CHARS) + 'TAIL';
    const { content, blob } = await offloadLongResult(store, long);
    expect(content.startsWith('x'.repeat(INLINE_RESULT_CHARS))).toBe(true);
    expect(content).not.toContain('TAIL');
    expect(content).toContain(`[preview: ${INLINE_RESULT_CHARS} of ${long.length} characters`);
    expect(await store.get(blob!)).toBe(long);
  });
});

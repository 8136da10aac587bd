/**
 * What every blob store must do, written once and run against each implementation
 * (test/activities/blob-store.test.ts: the data directory; blob-store-postgres.test.ts: a real
 * PostgreSQL). `corrupt` changes a stored body behind the store's back, the way each can rot.
 */
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { BlobMissingError, type BlobStore } from '../../src/activities/blob-store.js';
import type { BlobRef } from '../../src/shared/model-contract.js';

export interface BlobStoreHarness {
  store(): BlobStore;
  corrupt(ref: BlobRef, body: string): Promise<void>;
}

/** About 5 MB of mixed-width text (ASCII, accents, CJK, astral emoji), not one repeated char. */
function hugeText(): string {
  const line = (n: number) => `${n}: plain ascii, ümlauts, 漢字かな, 🦀🧪 and a tab\t.\n`;
  const lines: string[] = [];
  let length = 0;
  for (let n = 0; length < 5_000_000; n += 1) {
    lines.push(line(n));
    length += lines[lines.length - 1]!.length;
  }
  return lines.join('');
}

export function blobStoreContract(harness: BlobStoreHarness): void {
  it('round-trips text by content address, and a second put of it is the same reference', async () => {
    const store = harness.store();
    const first = await store.put('héllo wörld');
    const second = await store.put('héllo wörld');
    expect(second).toEqual(first);
    // The address is the text's sha256: every store names the same text alike.
    expect(first).toEqual({
      sha256: createHash('sha256').update('héllo wörld').digest('hex'),
      chars: 11,
    });
    expect(await store.get(first)).toBe('héllo wörld');
    expect(await store.get(second)).toBe('héllo wörld');
  });

  it('keeps unicode exactly: astral characters, combining marks, right-to-left, a NUL', async () => {
    const store = harness.store();
    const texts = [
      '🦀 crab, 👩‍👩‍👧 family, e\u0301 combining, עברית, 漢字',
      'a\u0000b: a NUL, which a binary file read with cat may hold',
      '"looks like a JSON string literal"',
      '',
    ];
    for (const text of texts) {
      const ref = await store.put(text);
      expect(ref.chars).toBe(text.length);
      expect(await store.get(ref)).toBe(text);
    }
  });

  it('stores and returns a huge text (about 5 MB) whole', async () => {
    const store = harness.store();
    const text = hugeText();
    const ref = await store.put(text);
    expect(ref.chars).toBe(text.length);
    const back = await store.get(ref);
    expect(back.length).toBe(text.length);
    expect(back === text).toBe(true);
  });

  it('refuses a missing blob with BlobMissingError', async () => {
    const missing = harness.store().get({ sha256: 'a'.repeat(64), chars: 1 });
    await expect(missing).rejects.toBeInstanceOf(BlobMissingError);
    await expect(missing).rejects.toThrow(/blob a{64} is missing/);
  });

  it('refuses a malformed reference with BlobMissingError', async () => {
    for (const sha256 of ['../../etc/passwd', "x' OR '1'='1", 'A'.repeat(64)]) {
      await expect(harness.store().get({ sha256, chars: 1 })).rejects.toBeInstanceOf(
        BlobMissingError,
      );
    }
  });

  it('refuses a corrupt blob with BlobMissingError', async () => {
    const store = harness.store();
    const ref = await store.put('original content');
    await harness.corrupt(ref, 'tampered content');
    await expect(store.get(ref)).rejects.toBeInstanceOf(BlobMissingError);
    await expect(store.get(ref)).rejects.toThrow(/corrupt/);
    // A corrupt JSON literal is corrupt too, not a text that decodes to something else.
    await harness.corrupt(ref, JSON.stringify('tampered\u0000'));
    await expect(store.get(ref)).rejects.toThrow(/corrupt/);
  });
}

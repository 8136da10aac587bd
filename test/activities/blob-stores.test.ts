import { mkdtemp, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileBlobStore } from '../../src/activities/blob-store.js';
import { BLOB_STORE_URL_VARIABLE, createBlobStore } from '../../src/activities/blob-stores.js';
import { PostgresBlobStore } from '../../src/activities/postgres-blob-store.js';
import { ConfigError } from '../../src/shared/config-error.js';

const SECRET = 'correct-horse-battery-staple';

describe('createBlobStore', () => {
  it('keeps blobs in the data directory when DEPUTY_BLOB_STORE_URL is unset or blank', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'deputy-blob-stores-'));
    for (const env of [{}, { [BLOB_STORE_URL_VARIABLE]: '  ' }]) {
      const store = createBlobStore({ dataDir, env });
      expect(store).toBeInstanceOf(FileBlobStore);
      const ref = await store.put('x'.repeat(10));
      expect(await readdir(join(dataDir, 'blobs'))).toEqual([ref.sha256.slice(0, 2)]);
      await store.close();
    }
  });

  it('picks PostgreSQL for a postgres:// or postgresql:// URL, connecting only on first use', async () => {
    for (const scheme of ['postgres', 'postgresql', 'PostgreSQL']) {
      const store = createBlobStore({
        dataDir: '/nonexistent',
        env: { [BLOB_STORE_URL_VARIABLE]: `${scheme}://temporal:${SECRET}@127.0.0.1:1/deputy` },
      });
      expect(store).toBeInstanceOf(PostgresBlobStore);
      await store.close();
    }
  });

  it('refuses any other URL at start, naming the variable and never the value', () => {
    const cases: Array<[string, RegExp]> = [
      [`mysql://temporal:${SECRET}@db:3306/deputy`, /it is a mysql:\/\/ URL/],
      [`temporal:${SECRET}@db:5432/deputy`, /it has no scheme/],
      [SECRET, /it has no scheme/],
      [`postgres://temporal:${SECRET}@[::1/deputy`, /is not a valid URL/],
    ];
    for (const [value, reason] of cases) {
      let error: unknown;
      try {
        createBlobStore({ dataDir: '/nonexistent', env: { [BLOB_STORE_URL_VARIABLE]: value } });
      } catch (thrown) {
        error = thrown;
      }
      expect(error).toBeInstanceOf(ConfigError);
      const message = (error as Error).message;
      expect(message).toContain(BLOB_STORE_URL_VARIABLE);
      expect(message).toMatch(reason);
      expect(message).not.toContain(SECRET);
      expect((error as Error).stack).not.toContain(SECRET);
    }
  });
});

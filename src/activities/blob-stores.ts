/**
 * Which blob store a worker uses: `DEPUTY_BLOB_STORE_URL` (a `postgres://` or `postgresql://`
 * URL) puts blobs in that database, for workers that share no data directory (the cluster
 * profile); unset, they go to `<data dir>/blobs/` (the dev-server default). Read once, at start:
 * a wrong URL stops the worker there, not at its first long tool result.
 */
import { join } from 'node:path';
import { ConfigError } from '../shared/config-error.js';
import { BLOB_STORE_URL_VARIABLE } from '../secrets/environment-secrets.js';
import { FileBlobStore, type BlobStore } from './blob-store.js';
import { PostgresBlobStore } from './postgres-blob-store.js';

export { BLOB_STORE_URL_VARIABLE };

export interface BlobStoreSettings {
  /** deputy's data directory: the file store's blobs go to its `blobs/`. */
  dataDir: string;
  env?: NodeJS.ProcessEnv;
}

export function createBlobStore({ dataDir, env = process.env }: BlobStoreSettings): BlobStore {
  const url = env[BLOB_STORE_URL_VARIABLE]?.trim();
  if (url === undefined || url === '') return new FileBlobStore(join(dataDir, 'blobs'));
  // The value holds a password: messages name its scheme at most, never the value.
  const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(url)?.[1];
  if (scheme === undefined || !/^postgres(ql)?$/i.test(scheme)) {
    throw new ConfigError(
      `${BLOB_STORE_URL_VARIABLE} must be a postgres:// or postgresql:// URL; ${scheme === undefined ? 'it has no scheme' : `it is a ${scheme}:// URL`} (unset it to keep blobs in the data directory)`,
    );
  }
  if (!URL.canParse(url)) {
    throw new ConfigError(
      `${BLOB_STORE_URL_VARIABLE} is not a valid URL (percent-encode special characters in the password)`,
    );
  }
  return new PostgresBlobStore(url);
}

/**
 * The PostgreSQL blob store against a real PostgreSQL, started here from the machine's binaries
 * with the cluster's own module (src/servers/cluster/postgres.ts): the contract every store keeps, a
 * restart between put and get, and an outage that must read as retryable, not as a lost blob.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobMissingError, type BlobStore } from '../../src/activities/blob-store.js';
import {
  BlobStoreUnavailableError,
  PostgresBlobStore,
} from '../../src/activities/postgres-blob-store.js';
import { SnapshotStore } from '../../src/activities/snapshot-store.js';
import {
  connectionUrl,
  restartPostgres,
  sqlPassword,
  startPostgres,
  stopPostgres,
  type PostgresInstance,
} from '../../src/servers/cluster/postgres.js';
import { freePort } from '../../src/servers/dev/dev-server.js';
import { blobStoreContract } from './blob-store-contract.js';

const BIN = process.env.DEPUTY_PG_BIN ?? '/usr/lib/postgresql/15/bin';
const available = existsSync(join(BIN, 'postgres'));
if (!available) {
  console.warn(
    `\n*** SKIPPED: the PostgreSQL blob store tests need PostgreSQL's binaries, and ${join(BIN, 'postgres')} is missing. Install PostgreSQL 15 (Debian: apt-get install postgresql-15) or set DEPUTY_PG_BIN to its bin directory. ***\n`,
  );
}

let directory: string;
let instance: PostgresInstance | null = null;
let url: string;
let password: string;
let store: PostgresBlobStore;

/** Every form of the credentials a message must not hold. */
function expectSecretFree(error: unknown): void {
  const text = `${String((error as Error).message)}\n${String((error as Error).stack)}`;
  expect(text).not.toContain(url);
  expect(text).not.toContain(password);
  expect(text).not.toContain(encodeURIComponent(password));
}

/** SQL on a connection of its own, behind the stores' backs. */
async function sql(text: string, values: unknown[] = []): Promise<unknown[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows;
  } finally {
    await client.end();
  }
}

async function failureOf(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => expect.fail('expected a failure'),
    (error: unknown) => error,
  );
}

describe.skipIf(!available)('PostgresBlobStore on a real PostgreSQL', () => {
  beforeAll(async () => {
    // Under /tmp: as root initdb runs as `postgres`, which must traverse every folder above.
    directory = await mkdtemp('/tmp/deputy-pg-blobs-');
    instance = await startPostgres({ directory, port: await freePort() }, { detached: false });
    url = await connectionUrl(instance, 'deputy');
    password = await sqlPassword(directory);
    store = new PostgresBlobStore(url);
  }, 120_000);

  afterAll(async () => {
    await store?.close();
    if (instance !== null) await stopPostgres(instance);
    if (directory !== undefined) await rm(directory, { recursive: true, force: true });
  }, 60_000);

  describe('the blob store contract', () => {
    blobStoreContract({
      store: () => store,
      corrupt: async (ref, body) => {
        await sql('UPDATE deputy_blobs SET body = $2 WHERE sha256 = $1', [ref.sha256, body]);
      },
    });
  });

  it('creates its table on first use, in a fresh store too, and stores a text once', async () => {
    const other: BlobStore = new PostgresBlobStore(url);
    try {
      const ref = await other.put('stored by a second worker');
      expect(await store.get(ref)).toBe('stored by a second worker');
      await store.put('stored by a second worker');
      const rows = await sql(
        'SELECT chars, count(*) OVER () AS copies FROM deputy_blobs WHERE sha256 = $1',
        [ref.sha256],
      );
      expect(rows).toEqual([{ chars: 25, copies: '1' }]);
    } finally {
      await other.close();
    }
  });

  it('creates its table again when dropped, once when several workers start together', async () => {
    const before = await store.put('stored before the drop');
    await sql('DROP TABLE deputy_blobs');
    // The suite's store made its table long ago: the call after the drop fails, as retryable...
    const error = await failureOf(store.get(before));
    expect(error).toBeInstanceOf(BlobStoreUnavailableError);
    expect((error as Error).message).toMatch(/deputy_blobs" does not exist/);
    // ...and the next creates it, racing eight fresh workers that all create it too.
    const workers = Array.from({ length: 8 }, () => new PostgresBlobStore(url));
    try {
      const refs = await Promise.all([
        store.put('the suite store'),
        ...workers.map((worker, n) => worker.put(`worker ${n}`)),
      ]);
      expect(await Promise.all(refs.map((ref) => store.get(ref)))).toEqual([
        'the suite store',
        ...workers.map((_, n) => `worker ${n}`),
      ]);
    } finally {
      await Promise.all(workers.map((worker) => worker.close()));
    }
  });

  it('loses nothing across a PostgreSQL restart between put and get', async () => {
    const ref = await store.put('written before the restart');
    instance = await restartPostgres(instance!, { detached: false });
    // The pool's connections died with the old server: the store reconnects by itself.
    expect(await store.get(ref)).toBe('written before the restart');
    expect(await store.put('written after the restart')).toMatchObject({ chars: 25 });
  }, 60_000);

  it('fails a get while PostgreSQL is down as retryable and secret-free, not as a missing blob', async () => {
    const ref = await store.put('written while it was up');
    await stopPostgres(instance!);
    instance = null;
    try {
      const error = await failureOf(store.get(ref));
      expect(error).toBeInstanceOf(BlobStoreUnavailableError);
      expect(error).not.toBeInstanceOf(BlobMissingError);
      expect((error as Error).message).toMatch(
        /^blob store \(PostgreSQL at 127\.0\.0\.1:\d+\/deputy\): /,
      );
      expectSecretFree(error);
      // A snapshot read passes it on as it is: not the non-retryable SnapshotMissing.
      const viaSnapshots = await failureOf(new SnapshotStore(store).get(ref));
      expect(viaSnapshots).toBeInstanceOf(BlobStoreUnavailableError);
      expect(viaSnapshots).not.toBeInstanceOf(ApplicationFailure);
      // A put fails the same way.
      const putError = await failureOf(store.put('written while it was down'));
      expect(putError).toBeInstanceOf(BlobStoreUnavailableError);
      expectSecretFree(putError);
    } finally {
      instance = await startPostgres(instance ?? { directory, port: portOf(url) }, {
        detached: false,
      });
    }
    // Back up: the blob was there all along.
    expect(await store.get(ref)).toBe('written while it was up');
  }, 60_000);

  it('names a refused login without the password it tried', async () => {
    const wrong = 'not-the-password-but-long-enough';
    const bad = new PostgresBlobStore(url.replace(encodeURIComponent(password), wrong));
    try {
      const error = await failureOf(bad.get({ sha256: 'b'.repeat(64), chars: 1 }));
      expect(error).toBeInstanceOf(BlobStoreUnavailableError);
      expect((error as Error).message).toMatch(/password authentication failed/);
      expect(`${(error as Error).message}${(error as Error).stack}`).not.toContain(wrong);
      expectSecretFree(error);
    } finally {
      await bad.close();
    }
  });
});

function portOf(connection: string): number {
  return Number(new URL(connection).port);
}

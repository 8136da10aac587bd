/**
 * The blob store on a PostgreSQL table, for workers that share no file system (the cluster
 * profile): every worker reaches the database over the network. Same contract as the data
 * directory's store (src/activities/blob-store.ts): content-addressed by sha256, written once,
 * checked on read.
 *
 * The URL holds a password. It stays inside the pool: every message this module writes names the
 * database by host, port and name only, and a driver's message is scrubbed of the URL and password
 * before it goes anywhere (an activity failure is recorded in history and logged).
 */
import pg from 'pg';
import type { BlobRef } from '../shared/model-contract.js';
import { redactSecretText } from '../shared/redact.js';
import { urlSecretValues } from '../secrets/environment-secrets.js';
import { BlobMissingError, blobIdOf, sha256Of, type BlobStore } from './blob-store.js';

/**
 * `IF NOT EXISTS` is not safe against itself: two workers creating the table at once can both
 * pass the check, and the loser fails on the catalog's unique index (23505, 42P07 or 42710,
 * depending on where they meet). A transaction-scoped advisory lock serializes the creations;
 * both statements go as one simple query, which PostgreSQL runs as one implicit transaction.
 */
const CREATE_TABLE = `SELECT pg_advisory_xact_lock(${0x64657075 /* "depu" */});
CREATE TABLE IF NOT EXISTS deputy_blobs (
  sha256 text PRIMARY KEY,
  chars integer NOT NULL,
  body text NOT NULL,
  created_at timestamptz NOT NULL DEFAULT now()
)`;

/** A worker waits this long for a connection before the call fails (and is retried). */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The store could not be reached or answered with an error: transient as far as deputy can tell,
 * so it is thrown as is and the activity's retry policy tries again. Never a `BlobMissingError`:
 * a blob must not be given up on because the database was restarting.
 */
export class BlobStoreUnavailableError extends Error {
  override readonly name = 'BlobStoreUnavailableError';
}

export interface PostgresBlobStoreOptions {
  /** Connections this worker keeps at most (default 10, pg's own). */
  maxConnections?: number;
}

export class PostgresBlobStore implements BlobStore {
  private readonly pool: pg.Pool;
  /** `PostgreSQL at host:port/database`: what messages say instead of the URL. */
  private readonly where: string;
  private readonly secrets: string[];
  /** The table exists (created on first use); reset when creating it failed, to try again. */
  private ready: Promise<void> | null = null;

  constructor(url: string, options: PostgresBlobStoreOptions = {}) {
    this.where = describe(url);
    this.secrets = urlSecretValues(url);
    this.pool = new pg.Pool({
      connectionString: url,
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      ...(options.maxConnections === undefined ? {} : { max: options.maxConnections }),
      // A store nobody closed (a test's activities) must not keep the process alive.
      allowExitOnIdle: true,
    });
    // An idle connection the server drops (a restart, a failover) is reported here; without a
    // listener it would crash the worker. The pool discards it, and the next query reconnects.
    this.pool.on('error', () => {});
  }

  async put(text: string): Promise<BlobRef> {
    const sha256 = sha256Of(text);
    await this.query(
      'INSERT INTO deputy_blobs (sha256, chars, body) VALUES ($1, $2, $3) ON CONFLICT (sha256) DO NOTHING',
      [sha256, text.length, encodeBody(text)],
    );
    return { sha256, chars: text.length };
  }

  async get(ref: BlobRef): Promise<string> {
    const sha256 = blobIdOf(ref);
    const result = await this.query<{ body: string }>(
      'SELECT body FROM deputy_blobs WHERE sha256 = $1',
      [sha256],
    );
    const row = result.rows[0];
    if (row === undefined) {
      throw new BlobMissingError(`blob ${sha256} is missing from the blob store (${this.where})`);
    }
    const text = decodeBody(row.body, sha256);
    if (text === null) throw new BlobMissingError(`blob ${sha256} in ${this.where} is corrupt`);
    return text;
  }

  async close(): Promise<void> {
    await this.pool.end();
  }

  private async query<R extends pg.QueryResultRow>(
    sql: string,
    values: unknown[],
  ): Promise<pg.QueryResult<R>> {
    try {
      this.ready ??= this.pool.query(CREATE_TABLE).then(() => undefined);
      try {
        await this.ready;
      } catch (error) {
        this.ready = null;
        throw error;
      }
      return await this.pool.query<R>(sql, values);
    } catch (error) {
      // undefined_table: someone dropped it while we ran; the next call (a retry) creates it.
      if ((error as { code?: string }).code === '42P01') this.ready = null;
      throw new BlobStoreUnavailableError(
        `blob store (${this.where}): ${redactSecretText(reason(error), this.secrets)}`,
      );
    }
  }
}

/**
 * PostgreSQL's `text` cannot hold U+0000, which a tool result may (a binary file read with `cat`).
 * Such a text is stored as a JSON string literal instead. Which form a body is needs no flag: the
 * digest decides (a text that merely looks like a JSON literal matches its digest as it is).
 */
function encodeBody(text: string): string {
  return text.includes('\u0000') ? JSON.stringify(text) : text;
}

/** The text `body` holds if it matches `sha256`, else null (corrupt). */
function decodeBody(body: string, sha256: string): string | null {
  if (sha256Of(body) === sha256) return body;
  if (!body.startsWith('"')) return null;
  try {
    const text: unknown = JSON.parse(body);
    return typeof text === 'string' && sha256Of(text) === sha256 ? text : null;
  } catch {
    return null;
  }
}

/** `PostgreSQL at host:port/database`, without the user or password. */
function describe(url: string): string {
  const parsed = new URL(url);
  const port = parsed.port === '' ? '5432' : parsed.port;
  const database = decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default database)';
  // `?host=/run/postgresql` names a socket directory in place of the URL's host.
  const host = parsed.searchParams.get('host') ?? (parsed.hostname || 'localhost');
  return `PostgreSQL at ${host}:${port}/${database}`;
}

/** The driver's reason, with its code (`ECONNREFUSED`, `57P01`) when it has one. */
function reason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = (error as { code?: unknown }).code;
  const message =
    error.message === '' && error instanceof AggregateError
      ? error.errors
          .map((inner: unknown) => (inner instanceof Error ? inner.message : String(inner)))
          .join('; ')
      : error.message;
  return typeof code === 'string' && !message.includes(code) ? `${message} (${code})` : message;
}

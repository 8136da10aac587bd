/**
 * A private PostgreSQL instance under deputy's data directory, from the machine's own PostgreSQL
 * binaries (Debian's `postgresql-15` by default; `DEPUTY_PG_BIN` names another bin directory).
 *
 * PostgreSQL refuses to run as root, so as root the data directory belongs to the unprivileged
 * `postgres` user and every PostgreSQL program runs as that user (`setpriv`, which execs in
 * place: the pid we hold is the postmaster's own, so a kill reaches it and nothing else).
 *
 * Connections: the Unix socket (inside the instance's own 0700 folder) trusts its peer, which
 * only root and `postgres` can reach; TCP on 127.0.0.1 needs the password of role `temporal`,
 * generated at init and kept in a 0600 file beside the data. The password never appears on a
 * command line (SQL goes to psql on stdin), in a log line or in a status answer.
 */
import { execFile, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, chown, mkdir, readFile, stat, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { spawnService, type ServiceProcess } from './service-process.js';

const run = promisify(execFile);

export const SQL_USER = 'temporal';
/** The databases the cluster needs: Temporal's two, and deputy's own (the blob store). */
export const DATABASES = ['temporal', 'temporal_visibility', 'deputy'] as const;

export interface PostgresLayout {
  /** The instance's folder: `data/`, `socket/`, `password`, `postgres.log`. */
  directory: string;
  port: number;
}

export interface PostgresInstance extends PostgresLayout {
  process: ServiceProcess;
}

interface RunAs {
  uid: number;
  gid: number;
}

function binDirectory(): string {
  return process.env.DEPUTY_PG_BIN ?? '/usr/lib/postgresql/15/bin';
}

function binary(name: string): string {
  const path = join(binDirectory(), name);
  if (!existsSync(path)) {
    throw new Error(
      `PostgreSQL's ${name} is not at ${path}: install PostgreSQL (Debian: apt-get install postgresql) or set DEPUTY_PG_BIN to its bin directory`,
    );
  }
  return path;
}

/** Looked up once per process: every psql call (readiness polls included) needs it. */
let userToRunAs: Promise<RunAs | null> | null = null;

/** As root: the `postgres` user's ids (PostgreSQL will not run as root). Otherwise: ourselves. */
function runAs(): Promise<RunAs | null> {
  userToRunAs ??= lookUpUser();
  return userToRunAs;
}

async function lookUpUser(): Promise<RunAs | null> {
  if (process.getuid?.() !== 0) return null;
  try {
    const { stdout: uid } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
  } catch {
    throw new Error(
      'running as root, and there is no `postgres` user to run PostgreSQL as (PostgreSQL refuses root): create one (Debian: adduser --system postgres) or run deputy as an ordinary user',
    );
  }
}

/** The command line that runs `file` as `user` (or as we are). */
function asUser(user: RunAs | null, file: string, args: readonly string[]): [string, string[]] {
  if (user === null) return [file, [...args]];
  return [
    'setpriv',
    [`--reuid=${user.uid}`, `--regid=${user.gid}`, '--init-groups', '--', file, ...args],
  ];
}

const paths = (directory: string) => ({
  data: join(directory, 'data'),
  socket: join(directory, 'socket'),
  password: join(directory, 'password'),
  log: join(directory, 'postgres.log'),
});

/** The password of role `temporal` (0600 file, written at init). */
export async function sqlPassword(directory: string): Promise<string> {
  return (await readFile(paths(directory).password, 'utf8')).trim();
}

/**
 * Creates the instance when it does not exist yet (initdb, role, databases), then starts it and
 * waits until it takes connections.
 */
export async function startPostgres(
  layout: PostgresLayout,
  options: { detached: boolean; log?: (line: string) => void },
): Promise<PostgresInstance> {
  const user = await runAs();
  const where = paths(layout.directory);
  const fresh = !existsSync(join(where.data, 'PG_VERSION'));
  if (fresh) await initialise(layout.directory, user, options.log);
  const instance = launch(layout, user, options.detached);
  await waitForConnections(layout, user, instance.process);
  if (fresh) await createRoleAndDatabases(layout, user);
  return instance;
}

function launch(layout: PostgresLayout, user: RunAs | null, detached: boolean): PostgresInstance {
  const where = paths(layout.directory);
  const [file, args] = asUser(user, binary('postgres'), [
    '-D',
    where.data,
    '-p',
    String(layout.port),
    '-k',
    where.socket,
    '-c',
    'listen_addresses=127.0.0.1',
  ]);
  const process = spawnService('postgres', file, args, { logFile: where.log, detached });
  return { ...layout, process };
}

/** Stops the postmaster with a fast shutdown (SIGINT: open transactions roll back) and waits. */
export async function stopPostgres(instance: PostgresInstance): Promise<void> {
  await instance.process.stop('SIGINT');
}

/** A PostgreSQL restart: fast shutdown, `downMs` without it, then the same instance again. */
export async function restartPostgres(
  instance: PostgresInstance,
  { detached, downMs = 0 }: { detached: boolean; downMs?: number },
): Promise<PostgresInstance> {
  await stopPostgres(instance);
  await new Promise((resolve) => setTimeout(resolve, downMs));
  const user = await runAs();
  const next = launch(instance, user, detached);
  await waitForConnections(instance, user, next.process);
  return next;
}

/** Names the first folder above `directory` that `user` cannot enter: initdb's own error does not. */
async function assertTraversable(directory: string, user: RunAs): Promise<void> {
  for (let folder = dirname(directory); ; folder = dirname(folder)) {
    const info = await stat(folder);
    const bit = info.uid === user.uid ? 0o100 : info.gid === user.gid ? 0o010 : 0o001;
    if ((info.mode & bit) === 0) {
      throw new Error(
        `PostgreSQL runs as user postgres, which cannot enter ${folder} (mode ${(info.mode & 0o777).toString(8)}): allow it (chmod o+x ${folder}), choose another data directory, or run deputy as an ordinary user`,
      );
    }
    if (folder === dirname(folder)) return;
  }
}

async function initialise(
  directory: string,
  user: RunAs | null,
  log: ((line: string) => void) | undefined,
): Promise<void> {
  log?.(`creating a PostgreSQL instance in ${directory}`);
  await mkdir(directory, { recursive: true, mode: 0o700 });
  if (user !== null) await assertTraversable(directory, user);
  const where = paths(directory);
  await mkdir(where.data, { recursive: true, mode: 0o700 });
  await mkdir(where.socket, { recursive: true, mode: 0o700 });
  const password = randomBytes(24).toString('base64url');
  await writeFile(where.password, `${password}\n`, { mode: 0o600 });
  await chmod(directory, 0o700);
  if (user !== null) {
    for (const path of [directory, where.data, where.socket, where.password]) {
      await chown(path, user.uid, user.gid);
    }
  }
  const [file, args] = asUser(user, binary('initdb'), [
    '-D',
    where.data,
    '--username=postgres',
    '--auth-local=trust',
    '--auth-host=scram-sha-256',
    '--encoding=UTF8',
    '--locale=C',
  ]);
  try {
    await run(file, args, { maxBuffer: 4 * 1024 * 1024 });
  } catch (error) {
    throw new Error(
      `initdb failed in ${where.data}${user === null ? '' : ' (run as user postgres: every folder above it must be traversable by that user)'}: ${(error as { stderr?: string }).stderr ?? (error as Error).message}`,
    );
  }
}

/** SQL through psql on the Unix socket, on stdin: nothing of it shows in a process list. */
async function psql(
  layout: PostgresLayout,
  user: RunAs | null,
  sql: string,
  database = 'postgres',
): Promise<string> {
  const where = paths(layout.directory);
  const [file, args] = asUser(user, binary('psql'), [
    '-X',
    '-q',
    '-v',
    'ON_ERROR_STOP=1',
    '-h',
    where.socket,
    '-p',
    String(layout.port),
    '-U',
    'postgres',
    '-d',
    database,
    '-At',
    '-f',
    '-',
  ]);
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) =>
      code === 0 ? resolve(stdout) : reject(new Error(`psql: ${stderr.trim()}`)),
    );
    // psql may exit before it reads its input (PostgreSQL down, during a readiness poll): the
    // broken pipe is that same failure, which its exit code reports; unhandled it would throw.
    child.stdin.on('error', () => undefined);
    child.stdin.end(sql);
  });
}

/** One query's rows as psql prints them unaligned (`-At`): for checks, not for data. */
export async function queryPostgres(
  instance: PostgresLayout,
  sql: string,
  database: string,
): Promise<string> {
  return psql(instance, await runAs(), sql, database);
}

async function createRoleAndDatabases(layout: PostgresLayout, user: RunAs | null): Promise<void> {
  const password = await sqlPassword(layout.directory);
  // The password is base64url: no quote can end the literal.
  await psql(layout, user, `CREATE ROLE ${SQL_USER} LOGIN CREATEDB PASSWORD '${password}';`);
  for (const database of DATABASES) {
    await psql(layout, user, `CREATE DATABASE ${database} OWNER ${SQL_USER};`);
  }
}

async function waitForConnections(
  layout: PostgresLayout,
  user: RunAs | null,
  process: ServiceProcess,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let lastError = '';
  while (Date.now() < deadline) {
    if (!process.running()) {
      throw new Error(`PostgreSQL exited before it took connections:\n${await process.logTail()}`);
    }
    try {
      await psql(layout, user, 'SELECT 1;');
      return;
    } catch (error) {
      lastError = (error as Error).message;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(
    `PostgreSQL on port ${layout.port} not ready after ${timeoutMs} ms: ${lastError}`,
  );
}

/** `postgres://temporal:<password>@127.0.0.1:<port>/<database>`: a secret, never print it. */
export async function connectionUrl(layout: PostgresLayout, database: string): Promise<string> {
  const password = await sqlPassword(layout.directory);
  return `postgres://${SQL_USER}:${encodeURIComponent(password)}@127.0.0.1:${layout.port}/${database}`;
}

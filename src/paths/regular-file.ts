import fs from 'node:fs';
import type { FileHandle } from 'node:fs/promises';

/**
 * Opening files deputy reads or writes without ever blocking on one that is not a file.
 *
 * A plain open(2) of a FIFO blocks until the other end opens, and Node runs it on one of the
 * four threads of libuv's pool (or on the main thread, for the `*Sync` calls): a FIFO at
 * `.mcp.json` froze the process, and a few reads of one by the file tools took every pool thread,
 * which no stop can free because a blocked system call cannot be cancelled from JavaScript. So
 * every open here adds O_NONBLOCK, which makes a FIFO's open return at once (or fail with ENXIO
 * for a writer with no reader), and then checks the opened descriptor with fstat: whatever is not
 * a regular file (FIFO, socket, device, directory) is closed unread and refused with
 * `NotRegularFileError`. Checking the descriptor, not the name, leaves no window in which the
 * name could be swapped for a FIFO. O_NONBLOCK changes nothing for a regular file's reads and
 * writes, so the caller reads the descriptor as usual.
 */

/** What a path is when it is not a regular file, in words for a message. */
export type NonRegularKind =
  | 'a directory'
  | 'a FIFO (named pipe)'
  | 'a socket'
  | 'a character device'
  | 'a block device'
  | 'a symbolic link'
  | 'not a regular file';

/**
 * A path that names something other than a regular file. `code` is `EISDIR` for a directory
 * (what callers already expected from a read of one) and `ENOTREGULAR` otherwise.
 */
export class NotRegularFileError extends Error {
  readonly code: 'EISDIR' | 'ENOTREGULAR';
  constructor(
    readonly path: string,
    readonly kind: NonRegularKind,
  ) {
    super(`${path} is ${kind}, not a regular file`);
    this.name = 'NotRegularFileError';
    this.code = kind === 'a directory' ? 'EISDIR' : 'ENOTREGULAR';
  }
}

export interface RegularFileOptions {
  /**
   * Refuse a symbolic link as the last component (O_NOFOLLOW: ELOOP), for callers that already
   * refuse links. Default false: links are followed, and their target must be a regular file.
   */
  noFollow?: boolean;
}

/** The kind of a non-regular file, or null for a regular one. */
export function nonRegularKind(stats: fs.Stats): NonRegularKind | null {
  if (stats.isFile()) return null;
  if (stats.isDirectory()) return 'a directory';
  if (stats.isFIFO()) return 'a FIFO (named pipe)';
  if (stats.isSocket()) return 'a socket';
  if (stats.isCharacterDevice()) return 'a character device';
  if (stats.isBlockDevice()) return 'a block device';
  if (stats.isSymbolicLink()) return 'a symbolic link';
  return 'not a regular file';
}

/** The flags every open here uses: the caller's, never blocking, never a controlling tty. */
function openFlags(flags: number, options: RegularFileOptions): number {
  const { O_NONBLOCK, O_NOCTTY, O_NOFOLLOW } = fs.constants;
  return flags | O_NONBLOCK | O_NOCTTY | (options.noFollow === true ? O_NOFOLLOW : 0);
}

/**
 * open(2) cannot open a socket at all (ENXIO), nor a FIFO for writing while nobody reads it;
 * a look at the name then says what it is, so the caller gets the same refusal as for a FIFO.
 */
function explainOpenFailure(
  path: string,
  error: NodeJS.ErrnoException,
  options: RegularFileOptions,
): Error {
  if (error.code !== 'ENXIO' && error.code !== 'EOPNOTSUPP') return error;
  try {
    const kind = nonRegularKind(options.noFollow === true ? fs.lstatSync(path) : fs.statSync(path));
    return kind === null ? error : new NotRegularFileError(path, kind);
  } catch {
    return error;
  }
}

/**
 * Opens `path` with `flags` (`fs.constants.O_*`; O_NONBLOCK is added) and returns the
 * descriptor, or throws `NotRegularFileError` (descriptor closed) or the open's own error.
 */
export function openRegularFileSync(
  path: string,
  flags: number = fs.constants.O_RDONLY,
  options: RegularFileOptions = {},
): number {
  let fd: number;
  try {
    fd = fs.openSync(path, openFlags(flags, options));
  } catch (error) {
    throw explainOpenFailure(path, error as NodeJS.ErrnoException, options);
  }
  let kind: NonRegularKind | null;
  try {
    kind = nonRegularKind(fs.fstatSync(fd));
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
  if (kind !== null) {
    fs.closeSync(fd);
    throw new NotRegularFileError(path, kind);
  }
  return fd;
}

/** The bytes of a regular file, read synchronously; refuses anything else (see above). */
export function readRegularFileSync(path: string, options: RegularFileOptions = {}): Buffer {
  const fd = openRegularFileSync(path, fs.constants.O_RDONLY, options);
  try {
    return fs.readFileSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

/** `readRegularFileSync` decoded as UTF-8. */
export function readRegularTextSync(path: string, options: RegularFileOptions = {}): string {
  return readRegularFileSync(path, options).toString('utf8');
}

/**
 * The bytes of a regular file; refuses anything else (see above). Callbacks rather than
 * `fs/promises`: the definitions scan reads hundreds of small files, and a FileHandle and a
 * promise per step cost more than reading one does.
 */
export function readRegularFile(path: string, options: RegularFileOptions = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    fs.open(path, openFlags(fs.constants.O_RDONLY, options), (openError, fd) => {
      if (openError !== null) {
        reject(explainOpenFailure(path, openError, options));
        return;
      }
      const finish = (error: Error | null, bytes?: Buffer): void => {
        fs.close(fd, () => (error === null ? resolve(bytes as Buffer) : reject(error)));
      };
      fs.fstat(fd, (statError, stats) => {
        if (statError !== null) return finish(statError);
        const kind = nonRegularKind(stats);
        if (kind !== null) return finish(new NotRegularFileError(path, kind));
        fs.readFile(fd, (readError, bytes) => finish(readError, bytes));
      });
    });
  });
}

/** `readRegularFile` decoded as UTF-8. */
export async function readRegularText(
  path: string,
  options: RegularFileOptions = {},
): Promise<string> {
  return (await readRegularFile(path, options)).toString('utf8');
}

/**
 * Opens `path` with `flags` (O_NONBLOCK is added; pass O_CREAT to create it) as a FileHandle,
 * or throws `NotRegularFileError` (handle closed). For writes: a plain open of a FIFO for
 * writing blocks until someone reads it. Truncate through the handle, after the check, rather
 * than with O_TRUNC, so nothing is cut before the file is known to be a file.
 */
export async function openRegularFile(
  path: string,
  flags: number,
  options: RegularFileOptions & { mode?: number } = {},
): Promise<FileHandle> {
  let handle: FileHandle;
  try {
    handle = await fs.promises.open(path, openFlags(flags, options), options.mode);
  } catch (error) {
    throw explainOpenFailure(path, error as NodeJS.ErrnoException, options);
  }
  try {
    const kind = nonRegularKind(await handle.stat());
    if (kind !== null) throw new NotRegularFileError(path, kind);
  } catch (error) {
    await handle.close();
    throw error;
  }
  return handle;
}

/**
 * Writes `content` to the regular file at `path`, created if missing (with `mode`, default
 * 0o666 before the umask), replacing what it held; refuses anything that is not a file.
 */
export async function writeRegularFile(
  path: string,
  content: string | Uint8Array,
  options: RegularFileOptions & { mode?: number } = {},
): Promise<void> {
  const { O_WRONLY, O_CREAT } = fs.constants;
  const handle = await openRegularFile(path, O_WRONLY | O_CREAT, options);
  try {
    await handle.truncate(0);
    await handle.writeFile(content);
  } finally {
    await handle.close();
  }
}

/** Appends `content` to the regular file at `path`, created if missing; refuses anything else. */
export async function appendRegularFile(
  path: string,
  content: string,
  options: RegularFileOptions & { mode?: number } = {},
): Promise<void> {
  const { O_WRONLY, O_CREAT, O_APPEND } = fs.constants;
  const handle = await openRegularFile(path, O_WRONLY | O_CREAT | O_APPEND, options);
  try {
    await handle.writeFile(content, 'utf8');
  } finally {
    await handle.close();
  }
}

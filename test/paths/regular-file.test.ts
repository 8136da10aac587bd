/**
 * The one way deputy opens a file it loads or a tool touches: never blocking, and only a regular
 * file. Every FIFO here has no writer, so a blocking open of it would hang; `afterEach` opens each
 * one read-write (which never blocks) to release any open that did, so a failure is a test
 * timeout rather than a stuck process.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  NotRegularFileError,
  appendRegularFile,
  openRegularFileSync,
  readRegularFile,
  readRegularFileSync,
  writeRegularFile,
} from '../../src/paths/regular-file.js';

let base: string;
let fifo: string;
let socketPath: string;
let server: net.Server;

beforeEach(async () => {
  base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'deputy-regular-')));
  fifo = path.join(base, 'pipe');
  execFileSync('mkfifo', [fifo]);
  socketPath = path.join(base, 'sock');
  server = net.createServer();
  await new Promise<void>((resolve) => server.listen(socketPath, resolve));
});

afterEach(async () => {
  // Releases an open(2) that blocked on the FIFO (none does when the fix holds).
  fs.closeSync(fs.openSync(fifo, fs.constants.O_RDWR | fs.constants.O_NONBLOCK));
  await new Promise<void>((resolve) => server.close(() => resolve()));
  fs.rmSync(base, { recursive: true, force: true });
});

function refusal(read: () => unknown): NotRegularFileError {
  try {
    read();
  } catch (error) {
    expect(error).toBeInstanceOf(NotRegularFileError);
    return error as NotRegularFileError;
  }
  throw new Error('expected a refusal');
}

async function asyncRefusal(read: () => Promise<unknown>): Promise<NotRegularFileError> {
  const error: unknown = await read().then(
    () => new Error('expected a refusal'),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(NotRegularFileError);
  return error as NotRegularFileError;
}

describe('reading only regular files', () => {
  it('refuses a FIFO without a writer, naming it, synchronously and not', async () => {
    const sync = refusal(() => readRegularFileSync(fifo));
    expect(sync.message).toBe(`${fifo} is a FIFO (named pipe), not a regular file`);
    expect(sync.code).toBe('ENOTREGULAR');
    const promised = await asyncRefusal(() => readRegularFile(fifo));
    expect(promised.message).toBe(`${fifo} is a FIFO (named pipe), not a regular file`);
  });

  it('refuses a FIFO reached through a symbolic link, and the link itself with noFollow', () => {
    const link = path.join(base, 'link');
    fs.symlinkSync(fifo, link);
    expect(refusal(() => readRegularFileSync(link)).message).toBe(
      `${link} is a FIFO (named pipe), not a regular file`,
    );
    expect(() => readRegularFileSync(link, { noFollow: true })).toThrow(
      expect.objectContaining({ code: 'ELOOP' }),
    );
  });

  it('refuses a socket, a device and a directory', async () => {
    expect(refusal(() => readRegularFileSync(socketPath)).message).toBe(
      `${socketPath} is a socket, not a regular file`,
    );
    expect((await asyncRefusal(() => readRegularFile(socketPath))).kind).toBe('a socket');
    expect(refusal(() => readRegularFileSync('/dev/null')).message).toBe(
      '/dev/null is a character device, not a regular file',
    );
    const directory = refusal(() => readRegularFileSync(base));
    expect(directory.message).toBe(`${base} is a directory, not a regular file`);
    expect(directory.code).toBe('EISDIR');
  });

  it('reads a regular file, and passes a missing one on as ENOENT', async () => {
    const file = path.join(base, 'notes.md');
    fs.writeFileSync(file, 'plain text\n');
    expect(readRegularFileSync(file).toString()).toBe('plain text\n');
    expect((await readRegularFile(file)).toString()).toBe('plain text\n');
    const fd = openRegularFileSync(file);
    fs.closeSync(fd);
    expect(() => readRegularFileSync(path.join(base, 'missing'))).toThrow(
      expect.objectContaining({ code: 'ENOENT' }),
    );
  });
});

describe('writing only regular files', () => {
  it('refuses to write or append to a FIFO nobody reads, or to a socket', async () => {
    const write = await asyncRefusal(() => writeRegularFile(fifo, 'x'));
    expect(write.message).toBe(`${fifo} is a FIFO (named pipe), not a regular file`);
    expect((await asyncRefusal(() => appendRegularFile(fifo, 'x'))).kind).toBe(
      'a FIFO (named pipe)',
    );
    expect((await asyncRefusal(() => writeRegularFile(socketPath, 'x'))).kind).toBe('a socket');
  });

  it('refuses a FIFO that has a reader, and writes nothing into it', async () => {
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      expect((await asyncRefusal(() => writeRegularFile(fifo, 'x'))).kind).toBe(
        'a FIFO (named pipe)',
      );
      // The refused writer has closed again: the pipe is at its end, with nothing in it.
      expect(fs.readSync(reader, Buffer.alloc(8))).toBe(0);
    } finally {
      fs.closeSync(reader);
    }
  });

  it('creates, replaces and appends to a regular file', async () => {
    const file = path.join(base, 'out.txt');
    await writeRegularFile(file, 'first version, longer\n');
    await writeRegularFile(file, 'second\n');
    await appendRegularFile(file, 'more\n');
    expect(fs.readFileSync(file, 'utf8')).toBe('second\nmore\n');
  });
});

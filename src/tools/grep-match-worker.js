// @ts-check
/**
 * The thread that runs grep's regular expressions (started by grep-matcher.ts). Patterns come
 * from the model, so they run here, on RE2JS (linear time, no backtracking), and never on the
 * main thread: even a linear-time match of a large pattern over a long line can take seconds,
 * and the main thread keeps heartbeats, other tools and cancellation going meanwhile.
 * grep-matcher.ts enforces the time budget by terminating this thread. It reads the files
 * itself, so a search of many small files costs no round trip per file.
 *
 * Plain JavaScript on purpose: a worker thread does not inherit the tsx loader that
 * bin/deputy.mjs registers in-process, so its entry must be code Node runs as it is.
 *
 * Messages in:  { kind: 'compile', source, flags, maxProgramSize }
 *               { kind: 'search', files: string[], maxHits, maxLineChars, maxBytes }
 * Messages out: { kind: 'ready' } | { kind: 'invalid', message } | { kind: 'too-large', size }
 *               { kind: 'file', index, hits: { line, text, length }[] }  (each file done)
 *               { kind: 'done', hitLimitReached, unreadFiles }
 */
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { RE2JS } from 're2js';

if (parentPort === null) throw new Error('grep-match-worker.js must run as a worker thread');
const port = parentPort;

/** Bytes inspected for a NUL to tell binary files from text, as git and grep do. */
const BINARY_SNIFF_BYTES = 8000;

/** @type {RE2JS | null} */
let pattern = null;

port.on('message', (/** @type {any} */ message) => {
  if (message.kind === 'compile') port.postMessage(compile(message));
  else if (message.kind === 'search') port.postMessage(search(message));
});

/** @param {{ source: string, flags: number, maxProgramSize: number }} request */
function compile(request) {
  pattern = null;
  let compiled;
  try {
    compiled = RE2JS.compile(request.source, request.flags);
  } catch (error) {
    return { kind: 'invalid', message: error instanceof Error ? error.message : String(error) };
  }
  const size = compiled.programSize();
  if (size > request.maxProgramSize) return { kind: 'too-large', size };
  pattern = compiled;
  return { kind: 'ready' };
}

/**
 * Searches `files` (real paths, already checked by the caller) in order, reporting each one as
 * it is done. Stops at `maxHits` matching lines once a further one matches, and before the
 * file that would take the bytes read past `maxBytes` (it and the rest count as unread).
 *
 * @param {{ files: string[], maxHits: number, maxLineChars: number, maxBytes: number }} request
 */
function search(request) {
  const { files, maxLineChars, maxBytes } = request;
  let room = request.maxHits;
  let bytesRead = 0;
  for (let index = 0; index < files.length; index += 1) {
    const file = /** @type {string} */ (files[index]);
    let buffer;
    let fd;
    try {
      // Non-blocking, and only a regular file is read (src/paths/regular-file.ts does the same
      // for the TypeScript side): a FIFO's plain open would block this thread in a system call,
      // where terminating the thread at the time budget cannot reach it.
      fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
      const stats = fs.fstatSync(fd);
      if (!stats.isFile()) throw new Error('not a regular file');
      if (bytesRead + stats.size > maxBytes) {
        return { kind: 'done', hitLimitReached: false, unreadFiles: files.length - index };
      }
      bytesRead += stats.size;
      buffer = fs.readFileSync(fd);
    } catch {
      // Gone since it was listed, or no longer a regular file: nothing found in it.
      port.postMessage({ kind: 'file', index, hits: [] });
      continue;
    } finally {
      if (fd !== undefined) fs.closeSync(fd);
    }
    const found = buffer.subarray(0, BINARY_SNIFF_BYTES).includes(0)
      ? { hits: [], more: false }
      : matchLines(buffer.toString('utf8'), room, maxLineChars);
    port.postMessage({ kind: 'file', index, hits: found.hits });
    room -= found.hits.length;
    if (found.more) return { kind: 'done', hitLimitReached: true, unreadFiles: 0 };
  }
  return { kind: 'done', hitLimitReached: false, unreadFiles: 0 };
}

/**
 * Matching lines of one text, in order, at most `maxHits`; `more` says a further line matched.
 * Lines are split as the other file tools split them: `\r?\n`, no extra line after a final one.
 *
 * @param {string} text
 * @param {number} maxHits
 * @param {number} maxLineChars
 */
function matchLines(text, maxHits, maxLineChars) {
  if (pattern === null) throw new Error('search before a successful compile');
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  /** @type {{ line: number, text: string, length: number }[]} */
  const hits = [];
  for (let index = 0; index < lines.length; index += 1) {
    const line = /** @type {string} */ (lines[index]);
    if (!pattern.test(line)) continue;
    if (hits.length === maxHits) return { hits, more: true };
    hits.push({ line: index + 1, text: line.slice(0, maxLineChars), length: line.length });
  }
  return { hits, more: false };
}

import { constants as fsConstants, type Stats } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  EDIT_TOOL_SCHEMA,
  GLOB_TOOL_SCHEMA,
  GREP_TOOL_SCHEMA,
  READ_TOOL_SCHEMA,
  WRITE_TOOL_SCHEMA,
} from '../shared/tools/workspace-tool-schemas.js';
import { NotRegularFileError, openRegularFile, writeRegularFile } from '../paths/regular-file.js';
import { FILE_SYSTEM_LIMITS, type FileSystemLimits } from './file-system-limits.js';
import { limitText } from './output-limit.js';
import { ToolError } from './tool.js';
import type { ToolContext, ToolImplementation } from './tool.js';
import { optionalBoolean, optionalPositiveInteger, requiredString } from './tool-arguments.js';
import { runGlob, runGrep, type SearchSettings } from './workspace-search.js';
import { resolveInWorkspace, toWorkspaceRelative } from './workspace-path.js';

export { FILE_SYSTEM_LIMITS, type FileSystemLimits } from './file-system-limits.js';

export interface FileSystemToolOptions {
  /**
   * Resolved files and folders no agent may read: deputy's configuration file and data
   * directory (`deputyRoots(config).hiddenRoots`, src/paths/deputy-roots.ts). glob and grep
   * skip them and say so; grep refuses one named as its path. Omitted: none.
   */
  hiddenRoots?: readonly string[];
  /** Budgets, FILE_SYSTEM_LIMITS by default (tests lower them). */
  limits?: Partial<FileSystemLimits>;
}

/**
 * The five FileSystem tools. Every path the model names goes through
 * resolveInWorkspace; every file glob and grep find, through workspace-listing.ts.
 */
export function createFileSystemTools(options: FileSystemToolOptions = {}): ToolImplementation[] {
  const settings: SearchSettings = {
    hiddenRoots: options.hiddenRoots ?? [],
    limits: { ...FILE_SYSTEM_LIMITS, ...options.limits },
  };
  return [
    { schema: READ_TOOL_SCHEMA, run: runRead },
    { schema: WRITE_TOOL_SCHEMA, run: runWrite },
    { schema: EDIT_TOOL_SCHEMA, run: runEdit },
    { schema: GLOB_TOOL_SCHEMA, run: (args, context) => runGlob(args, context, settings) },
    { schema: GREP_TOOL_SCHEMA, run: (args, context) => runGrep(args, context, settings) },
  ];
}

async function runRead(args: Record<string, unknown>, context: ToolContext): Promise<string> {
  const userPath = requiredString(args, 'path');
  const offset = optionalPositiveInteger(args, 'offset') ?? 1;
  const limit = optionalPositiveInteger(args, 'limit') ?? FILE_SYSTEM_LIMITS.readDefaultLines;
  const file = resolveInWorkspace(context.workspaceRoot, userPath, { mustExist: true });
  const shown = toWorkspaceRelative(context.workspaceRoot, file);
  const text = await readTextFile(file, shown);
  if (text === '') return `[${shown} is empty]`;

  const lines = splitLines(text);
  if (offset > lines.length) {
    throw new ToolError(
      `offset ${offset} is past the end of ${shown}, which has ${lines.length} lines`,
    );
  }
  const last = Math.min(lines.length, offset - 1 + limit);
  const numbered = lines.slice(offset - 1, last).map((line, index) => {
    const cut =
      line.length > FILE_SYSTEM_LIMITS.readMaxLineChars
        ? `${line.slice(0, FILE_SYSTEM_LIMITS.readMaxLineChars)} [line cut: showed ${FILE_SYSTEM_LIMITS.readMaxLineChars} of ${line.length} characters]`
        : line;
    return `${String(offset + index).padStart(6)}\t${cut}`;
  });
  let result = numbered.join('\n');
  if (offset > 1 || last < lines.length) {
    const more = last < lines.length ? `; use offset=${last + 1} to read more` : '';
    result += `\n[showed lines ${offset}-${last} of ${lines.length}${more}]`;
  }
  return limitText(result, FILE_SYSTEM_LIMITS.resultMaxChars);
}

async function runWrite(args: Record<string, unknown>, context: ToolContext): Promise<string> {
  const userPath = requiredString(args, 'path');
  const content = requiredString(args, 'content', { allowEmpty: true });
  const file = resolveInWorkspace(context.workspaceRoot, userPath);
  const shown = toWorkspaceRelative(context.workspaceRoot, file);
  const existing = await statOrUndefined(file);
  if (existing?.isDirectory() === true) throw new ToolError(`${shown} is a directory, not a file`);
  // The parent chain resolved inside the workspace, so every directory created lands there.
  await fs.mkdir(path.dirname(file), { recursive: true });
  await writeTextFile(file, shown, content);
  const bytes = Buffer.byteLength(content, 'utf8');
  const lines = content === '' ? 0 : splitLines(content).length;
  const verb = existing === undefined ? 'Created' : 'Overwrote';
  return `${verb} ${shown} (${plural(bytes, 'byte')}, ${plural(lines, 'line')})`;
}

async function runEdit(args: Record<string, unknown>, context: ToolContext): Promise<string> {
  const userPath = requiredString(args, 'path');
  const oldString = requiredString(args, 'old_string', { allowEmpty: true });
  const newString = requiredString(args, 'new_string', { allowEmpty: true });
  const replaceAll = optionalBoolean(args, 'replace_all') ?? false;
  if (oldString === '') {
    throw new ToolError('old_string is empty; use write to create a file or replace all of it');
  }
  if (oldString === newString) {
    throw new ToolError('old_string and new_string are identical; there is nothing to change');
  }
  const file = resolveInWorkspace(context.workspaceRoot, userPath, { mustExist: true });
  const shown = toWorkspaceRelative(context.workspaceRoot, file);
  const text = await readTextFile(file, shown);
  const occurrences = text.split(oldString).length - 1;
  if (occurrences === 0) {
    throw new ToolError(
      `old_string was not found in ${shown}; it must match the file exactly, including whitespace and indentation (read the file first)`,
    );
  }
  if (occurrences > 1 && !replaceAll) {
    throw new ToolError(
      `old_string occurs ${occurrences} times in ${shown}; include more surrounding context to make it unique, or set replace_all to replace every occurrence`,
    );
  }
  // split/join rather than String.replace: `$&` and friends in new_string must stay literal.
  await writeTextFile(file, shown, text.split(oldString).join(newString));
  return `Replaced ${plural(occurrences, 'occurrence')} in ${shown}`;
}

/**
 * Opened non-blocking and checked before a byte is read: a FIFO's plain open would hold one of
 * the four threads of Node's file-system pool until someone wrote to it, and no stop can free a
 * thread blocked in a system call (a few such reads and every file operation of the worker
 * waits). A FIFO, socket or device is a tool error the model can read instead.
 */
async function readTextFile(file: string, shown: string): Promise<string> {
  let handle: FileHandle;
  try {
    handle = await openRegularFile(file, fsConstants.O_RDONLY);
  } catch (error) {
    throw notRegularError(error, shown, 'read');
  }
  let buffer: Buffer;
  try {
    const stats = await handle.stat();
    if (stats.size > FILE_SYSTEM_LIMITS.readMaxBytes) {
      throw new ToolError(
        `${shown} is ${stats.size} bytes, over the ${FILE_SYSTEM_LIMITS.readMaxBytes} byte limit; use grep to find the lines you need`,
      );
    }
    buffer = await handle.readFile();
  } finally {
    await handle.close();
  }
  if (looksBinary(buffer)) {
    throw new ToolError(`${shown} looks like a binary file; only text files can be read`);
  }
  return buffer.toString('utf8');
}

/** Writing opens without blocking too: a plain open of a FIFO for writing waits for a reader. */
async function writeTextFile(file: string, shown: string, content: string): Promise<void> {
  try {
    await writeRegularFile(file, content);
  } catch (error) {
    throw notRegularError(error, shown, 'written');
  }
}

/** A refusal of a non-regular file as a tool error; any other error as it was. */
function notRegularError(error: unknown, shown: string, verb: 'read' | 'written'): unknown {
  if (!(error instanceof NotRegularFileError)) return error;
  if (error.kind === 'a directory') {
    return new ToolError(`${shown} is a directory, not a file; use glob to list its files`);
  }
  return new ToolError(
    `${shown} is ${error.kind}, not a regular file; only regular files can be ${verb}`,
  );
}

/** The heuristic git and grep use: a NUL byte near the start means binary. */
function looksBinary(buffer: Buffer): boolean {
  return buffer.subarray(0, 8000).includes(0);
}

/** Lines without their terminators; a trailing newline does not make an extra empty line. */
function splitLines(text: string): string[] {
  const lines = text.split(/\r?\n/);
  if (lines.length > 1 && lines[lines.length - 1] === '') lines.pop();
  return lines;
}

async function statOrUndefined(file: string): Promise<Stats | undefined> {
  try {
    return await fs.stat(file);
  } catch {
    return undefined;
  }
}

function plural(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

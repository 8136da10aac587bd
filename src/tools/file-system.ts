import type { Stats } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import fg from 'fast-glob';
import {
  EDIT_TOOL_SCHEMA,
  GLOB_TOOL_SCHEMA,
  GREP_TOOL_SCHEMA,
  READ_TOOL_SCHEMA,
  WRITE_TOOL_SCHEMA,
} from '../shared/workspace-tool-schemas.js';
import { limitText } from './output-limit.js';
import { ToolError } from './tool.js';
import type { ToolContext, ToolImplementation } from './tool.js';
import { resolveInWorkspace, toWorkspaceRelative } from './workspace-path.js';

/** Budgets of the file-system tools. Every cut says so in the result. */
export const FILE_SYSTEM_LIMITS = {
  /** `read` refuses larger files outright (bytes); grep/offset are the way into them. */
  readMaxBytes: 10 * 1024 * 1024,
  /** Lines `read` returns when no limit is given. */
  readDefaultLines: 2000,
  /** Characters of one line `read` shows. */
  readMaxLineChars: 2000,
  /** Characters of any single result. */
  resultMaxChars: 100_000,
  /** Paths `glob` lists. */
  globMaxResults: 1000,
  /** Matching lines `grep` returns. */
  grepMaxHits: 200,
  /** Characters of one matching line `grep` shows. */
  grepMaxLineChars: 400,
  /** Bytes `grep` reads per call; files beyond are reported as not searched. */
  grepMaxBytes: 32 * 1024 * 1024,
} as const;

/** Never descended into by glob or grep: huge, generated, and never what the model wants. */
const IGNORED = ['**/node_modules/**', '**/.git/**'];

/** The five FileSystem tools (CAP-1). Every path goes through resolveInWorkspace. */
export function createFileSystemTools(): ToolImplementation[] {
  return [
    { schema: READ_TOOL_SCHEMA, run: runRead },
    { schema: WRITE_TOOL_SCHEMA, run: runWrite },
    { schema: EDIT_TOOL_SCHEMA, run: runEdit },
    { schema: GLOB_TOOL_SCHEMA, run: runGlob },
    { schema: GREP_TOOL_SCHEMA, run: runGrep },
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
  await fs.writeFile(file, content, 'utf8');
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
  await fs.writeFile(file, text.split(oldString).join(newString), 'utf8');
  return `Replaced ${plural(occurrences, 'occurrence')} in ${shown}`;
}

async function runGlob(args: Record<string, unknown>, context: ToolContext): Promise<string> {
  const pattern = requiredString(args, 'pattern');
  const userPath = optionalString(args, 'path') ?? '.';
  const directory = await resolveDirectory(context.workspaceRoot, userPath);
  const files = await globFiles(context.workspaceRoot, directory, pattern);
  const where = toWorkspaceRelative(context.workspaceRoot, directory);
  if (files.length === 0) return `No files match '${pattern}' in ${where}`;
  const shownFiles = files.slice(0, FILE_SYSTEM_LIMITS.globMaxResults);
  let result = shownFiles.join('\n');
  if (files.length > shownFiles.length) {
    result += `\n[output truncated: showed ${shownFiles.length} of ${files.length} matching files; narrow the pattern or path]`;
  }
  return limitText(result, FILE_SYSTEM_LIMITS.resultMaxChars);
}

async function runGrep(args: Record<string, unknown>, context: ToolContext): Promise<string> {
  const pattern = requiredString(args, 'pattern');
  const userPath = optionalString(args, 'path') ?? '.';
  const fileGlob = optionalString(args, 'glob') ?? '**/*';
  const fixed = optionalBoolean(args, 'fixed_strings') ?? false;
  const ignoreCase = optionalBoolean(args, 'ignore_case') ?? false;
  const matcher = buildMatcher(pattern, fixed, ignoreCase);

  const target = resolveInWorkspace(context.workspaceRoot, userPath, { mustExist: true });
  const targetStats = await fs.stat(target);
  const files = targetStats.isDirectory()
    ? await globFiles(context.workspaceRoot, target, fileGlob)
    : [toWorkspaceRelative(context.workspaceRoot, target)];

  const limits = FILE_SYSTEM_LIMITS;
  const hits: string[] = [];
  let bytesRead = 0;
  let notSearched = 0;
  let hitLimitReached = false;
  for (const [index, relative] of files.entries()) {
    if (context.signal.aborted) throw new ToolError('grep was cancelled');
    // glob does not follow links, but a file may have become one since: check again.
    const absolute = insideOrUndefined(context.workspaceRoot, relative);
    if (absolute === undefined) continue;
    const size = (await fs.stat(absolute)).size;
    if (bytesRead + size > limits.grepMaxBytes) {
      notSearched = files.length - index;
      break;
    }
    bytesRead += size;
    const buffer = await fs.readFile(absolute);
    if (looksBinary(buffer)) continue;
    const lines = splitLines(buffer.toString('utf8'));
    for (const [lineIndex, line] of lines.entries()) {
      if (!matcher.test(line)) continue;
      if (hits.length === limits.grepMaxHits) {
        hitLimitReached = true;
        break;
      }
      const text =
        line.length > limits.grepMaxLineChars
          ? `${line.slice(0, limits.grepMaxLineChars)} [line cut: showed ${limits.grepMaxLineChars} of ${line.length} characters]`
          : line;
      hits.push(`${relative}:${lineIndex + 1}: ${text}`);
    }
    if (hitLimitReached) break;
  }

  const where = toWorkspaceRelative(context.workspaceRoot, target);
  const notices: string[] = [];
  if (hitLimitReached) {
    notices.push(
      `[output truncated: stopped at ${limits.grepMaxHits} matching lines; narrow the pattern, path or glob]`,
    );
  }
  if (notSearched > 0) {
    notices.push(
      `[read budget of ${limits.grepMaxBytes / (1024 * 1024)} MiB reached: ${notSearched} of ${files.length} files were not searched]`,
    );
  }
  if (hits.length === 0 && notices.length === 0) return `No matches for '${pattern}' in ${where}`;
  return limitText([...hits, ...notices].join('\n'), limits.resultMaxChars);
}

/** Sorted workspace-relative files under `directory` matching a pattern that cannot escape. */
async function globFiles(
  workspaceRoot: string,
  directory: string,
  pattern: string,
): Promise<string[]> {
  if (path.isAbsolute(pattern) || pattern.startsWith('~')) {
    throw new ToolError(
      `glob pattern '${pattern}' is absolute; use a pattern relative to the path`,
    );
  }
  if (pattern.split(/[\\/]/).includes('..')) {
    throw new ToolError(`glob pattern '${pattern}' contains '..'; patterns may not leave the path`);
  }
  const entries = await fg(pattern, {
    cwd: directory,
    dot: false,
    ignore: IGNORED,
    onlyFiles: true,
    // Links are neither followed nor listed: following them would list (and grep would read)
    // trees outside the workspace, and a link to `/` would walk the whole machine.
    followSymbolicLinks: false,
    suppressErrors: true,
  });
  return entries
    .map((entry) => toWorkspaceRelative(workspaceRoot, path.join(directory, entry)))
    .sort();
}

async function resolveDirectory(workspaceRoot: string, userPath: string): Promise<string> {
  const directory = resolveInWorkspace(workspaceRoot, userPath, { mustExist: true });
  if (!(await fs.stat(directory)).isDirectory()) {
    throw new ToolError(`path '${userPath}' is a file, not a directory`);
  }
  return directory;
}

function insideOrUndefined(workspaceRoot: string, relative: string): string | undefined {
  try {
    return resolveInWorkspace(workspaceRoot, relative, { mustExist: true });
  } catch {
    return undefined;
  }
}

function buildMatcher(pattern: string, fixed: boolean, ignoreCase: boolean): RegExp {
  const source = fixed ? pattern.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') : pattern;
  try {
    // No `g` flag: a global RegExp keeps lastIndex between test() calls and skips matches.
    // No `u` flag either: it rejects escapes like `\-` that grep users write out of habit.
    return new RegExp(source, ignoreCase ? 'i' : '');
  } catch (error) {
    throw new ToolError(
      `invalid regular expression '${pattern}': ${(error as Error).message}; set fixed_strings to search for literal text`,
    );
  }
}

async function readTextFile(file: string, shown: string): Promise<string> {
  const stats = await fs.stat(file);
  if (stats.isDirectory()) {
    throw new ToolError(`${shown} is a directory, not a file; use glob to list its files`);
  }
  if (stats.size > FILE_SYSTEM_LIMITS.readMaxBytes) {
    throw new ToolError(
      `${shown} is ${stats.size} bytes, over the ${FILE_SYSTEM_LIMITS.readMaxBytes} byte limit; use grep to find the lines you need`,
    );
  }
  const buffer = await fs.readFile(file);
  if (looksBinary(buffer)) {
    throw new ToolError(`${shown} looks like a binary file; only text files can be read`);
  }
  return buffer.toString('utf8');
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

function requiredString(
  args: Record<string, unknown>,
  name: string,
  options: { allowEmpty?: boolean } = {},
): string {
  const value = args[name];
  if (typeof value !== 'string') throw new ToolError(`argument '${name}' must be a string`);
  if (value === '' && options.allowEmpty !== true) {
    throw new ToolError(`argument '${name}' must not be empty`);
  }
  return value;
}

function optionalString(args: Record<string, unknown>, name: string): string | undefined {
  const value = args[name];
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string') throw new ToolError(`argument '${name}' must be a string`);
  return value;
}

function optionalBoolean(args: Record<string, unknown>, name: string): boolean | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw new ToolError(`argument '${name}' must be true or false`);
  return value;
}

function optionalPositiveInteger(args: Record<string, unknown>, name: string): number | undefined {
  const value = args[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1) {
    throw new ToolError(`argument '${name}' must be a positive integer`);
  }
  return value;
}

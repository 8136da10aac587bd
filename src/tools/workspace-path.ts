import fs from 'node:fs';
import path from 'node:path';
import { ToolError } from './tool.js';

export interface ResolveOptions {
  /** Refuse paths that do not exist (default false: `write` may name a new file). */
  mustExist?: boolean;
}

/** More hops than any sane tree needs; the kernel's own limit is 40. */
const MAX_SYMLINK_HOPS = 40;

/**
 * Resolve a model-supplied path to an absolute real path inside the workspace, or throw a
 * ToolError the model can read. Symlinks are followed everywhere along the path, including
 * the longest existing prefix of a file that does not exist yet and dangling links, because
 * `write` would otherwise follow `ws/link -> /etc` and create `/etc/new` for us.
 *
 * There is an unavoidable window between this check and the tool's own open(); the workspace
 * is the agent's own, so that race is accepted rather than solved with openat tricks.
 *
 * @param workspaceRoot already a real (symlink-free) absolute path.
 */
export function resolveInWorkspace(
  workspaceRoot: string,
  userPath: string,
  options: ResolveOptions = {},
): string {
  if (userPath.includes('\0')) {
    throw new ToolError(`path ${JSON.stringify(userPath)} contains a null byte`);
  }
  const shown = `'${userPath}'`;
  const lexical = path.resolve(workspaceRoot, userPath === '' ? '.' : userPath);
  if (!isInsideDirectory(workspaceRoot, lexical)) {
    throw new ToolError(
      path.isAbsolute(userPath)
        ? `path ${shown} is outside the workspace; use a path inside ${workspaceRoot}`
        : `path ${shown} escapes the workspace; paths must stay inside ${workspaceRoot}`,
    );
  }
  let real: string;
  try {
    real = realpathLenient(lexical);
  } catch (error) {
    throw new ToolError(`path ${shown} cannot be resolved: ${errorMessage(error)}`);
  }
  if (!isInsideDirectory(workspaceRoot, real)) {
    throw new ToolError(`path ${shown} leads outside the workspace through a symbolic link`);
  }
  if (options.mustExist === true && !fs.existsSync(real)) {
    throw new ToolError(`path ${shown} does not exist`);
  }
  return real;
}

/**
 * Like fs.realpathSync, but for a path whose tail may not exist: the longest existing prefix
 * is resolved (symlinks included, dangling ones by reading their target) and the missing
 * components are appended. Never throws for paths outside any root: policy needs to see
 * where a call really points (POL-1), the tools refuse it afterwards.
 */
export function realpathLenient(absolutePath: string, hops = 0): string {
  try {
    return fs.realpathSync(absolutePath);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'ENOTDIR') throw error;
  }
  let stats: fs.Stats | undefined;
  try {
    stats = fs.lstatSync(absolutePath);
  } catch {
    stats = undefined;
  }
  if (stats?.isSymbolicLink() === true) {
    // A dangling link: writing through it would create its target, so its target is the path.
    if (hops >= MAX_SYMLINK_HOPS) throw new Error('too many levels of symbolic links');
    const target = fs.readlinkSync(absolutePath);
    return realpathLenient(path.resolve(path.dirname(absolutePath), target), hops + 1);
  }
  const parent = path.dirname(absolutePath);
  if (parent === absolutePath) return absolutePath;
  return path.join(realpathLenient(parent, hops), path.basename(absolutePath));
}

/** `candidate` is `root` or below it. Both absolute and normalized. */
export function isInsideDirectory(root: string, candidate: string): boolean {
  const relative = path.relative(root, candidate);
  // A sibling named `..foo` is inside; only a leading `..` segment means outside.
  return (
    relative === '' ||
    (relative !== '..' && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative))
  );
}

/** How a path inside the workspace is shown to the model: relative, `.` for the root. */
export function toWorkspaceRelative(workspaceRoot: string, absolutePath: string): string {
  const relative = path.relative(workspaceRoot, absolutePath);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

import fs from 'node:fs';
import path from 'node:path';
import { realpathLenient } from '../paths/realpath-lenient.js';
import { isInside } from '../shared/path-containment.js';
import { ToolError } from './tool.js';

export interface ResolveOptions {
  /** Refuse paths that do not exist (default false: `write` may name a new file). */
  mustExist?: boolean;
}

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
  if (!isInside(workspaceRoot, lexical)) {
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
  // `real` is resolved and the root is real by contract, so the lexical rule is the real one
  // here (isInsideReal would resolve both sides a second time).
  if (!isInside(workspaceRoot, real)) {
    throw new ToolError(`path ${shown} leads outside the workspace through a symbolic link`);
  }
  if (options.mustExist === true && !fs.existsSync(real)) {
    throw new ToolError(`path ${shown} does not exist`);
  }
  return real;
}

/** How a path inside the workspace is shown to the model: relative, `.` for the root. */
export function toWorkspaceRelative(workspaceRoot: string, absolutePath: string): string {
  const relative = path.relative(workspaceRoot, absolutePath);
  return relative === '' ? '.' : relative.split(path.sep).join('/');
}

function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

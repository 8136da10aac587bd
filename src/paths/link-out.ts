/**
 * Where a path below a root would leave it through a symbolic link. A command that creates files
 * in a workspace (`deputy init`) asks before writing: a `.subagents` that is a link to another
 * folder (written by an agent, a checkout, anyone) would otherwise receive the files there, out
 * of the workspace the person named, perhaps into another project's configuration.
 */
import { lstatSync, realpathSync } from 'node:fs';
import { join, relative } from 'node:path';
import { isInside } from '../shared/path-containment.js';
import { realpathLenient } from './realpath-lenient.js';

export interface LinkOut {
  /** The link, relative to the root (`.subagents`, `.subagents/agents`). */
  link: string;
  /** Where it really leads (every link followed; a dangling one: its target). */
  target: string;
}

/**
 * The first component of `path` (relative to `root`) that is a symbolic link leading out of
 * `root`, or null when every existing component stays inside. `root` itself may be a link: the
 * folder it leads to is the root. Components that do not exist yet would be created inside.
 * A component that cannot be resolved (a link loop) counts as leading out: failing closed.
 */
export function linkOutOf(root: string, path: string): LinkOut | null {
  const realRoot = realpathSync(root);
  let current = root;
  for (const part of path.split('/').filter((piece) => piece !== '' && piece !== '.')) {
    current = join(current, part);
    let isLink: boolean;
    try {
      isLink = lstatSync(current).isSymbolicLink();
    } catch {
      return null; // Missing from here on: created below a component already checked.
    }
    if (!isLink) continue;
    let target: string;
    try {
      target = realpathLenient(current);
    } catch {
      return { link: relative(root, current), target: '(unresolvable)' };
    }
    if (!isInside(realRoot, target)) return { link: relative(root, current), target };
  }
  return null;
}

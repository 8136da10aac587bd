/**
 * Trusted files recognised by what they are, not by how a path spells them. A path
 * can reach a trusted file under another name in three ways the symlink-resolving rule of
 * containment.ts cannot see:
 *
 * - a hard link: `hl.md` and `.subagents/agents/x.md` are one inode, so writing one writes both;
 * - a folder reached under another spelling on a volume that folds case or Unicode (macOS, an
 *   ext4 casefold folder): `.SubAgents/agents/x.md` is `.subagents/agents/x.md`; a bind mount
 *   likewise gives one folder two places;
 * - a trusted file that does not exist yet, written under a spelling such a volume folds onto it.
 *
 * {@link trustedAliasFinder} names the trusted path a call's path really is, so decide() (which only
 * compares strings, in the workflow sandbox) asks or denies as for the trusted path itself.
 * Identity is device + inode, compared with lstat (a symlink is resolved before this is asked).
 */
import fs from 'node:fs';
import path from 'node:path';
import { relativeInside } from '../shared/path-containment.js';

/**
 * How many entries a search for a hard link's other names reads under one trusted folder. Past
 * it the folder counts as reached (fail closed): a read is refused, a write asks.
 */
const LINK_SEARCH_LIMIT = 100_000;

/** `dev:ino` of what `target` names (not following a final symlink), or null when absent. */
function identityOf(target: string): string | null {
  try {
    const stats = fs.lstatSync(target, { bigint: true });
    return `${stats.dev}:${stats.ino}`;
  } catch {
    return null;
  }
}

/**
 * The spelling a case- or Unicode-folding volume would treat as the same name. Deliberately
 * applied on every file system (Linux ones included): a path spelled like a trusted one except
 * for case or normalisation is treated as that trusted path, which can only ask where asking was
 * not needed, never let through what a folding volume would write into the trusted file.
 */
function foldedSpelling(absolute: string): string {
  return absolute.normalize('NFKC').toLowerCase();
}

/**
 * The trusted paths a candidate is, or lies in, under another name, each joined with the rest of
 * the candidate: a root spelled alike but for case or normalisation; a root that is the candidate
 * or one of the folders above it by identity; and, when the candidate is a file with more than
 * one hard link, its other names under the hidden roots (only those: a write to such a file asks
 * anyway, see decide()). Empty when it reaches none except as spelled, which decide() sees
 * already. Never throws: what cannot be examined adds nothing here, and the tool itself fails on
 * it. The roots' spellings and identities are taken once, when this is called, so one model turn
 * looks at them once.
 *
 * @param roots resolved trusted roots (deputyRoots' protected and hidden paths), files and folders
 * @returns a finder taking an absolute, normalized, symlink-resolved path (canonicalCallPaths)
 */
export function trustedAliasFinder(roots: {
  protectedRoots: readonly string[];
  hiddenRoots: readonly string[];
}): (candidate: string) => string[] {
  const all = [...new Set([...roots.protectedRoots, ...roots.hiddenRoots])];
  const folded = all.map((root) => ({ root, folded: foldedSpelling(root) }));
  const rootsByIdentity = new Map<string, string[]>();
  for (const root of all) {
    const identity = identityOf(root);
    if (identity !== null) {
      rootsByIdentity.set(identity, [...(rootsByIdentity.get(identity) ?? []), root]);
    }
  }
  return (candidate) => {
    const aliases = new Set<string>();
    const foldedCandidate = foldedSpelling(candidate);
    for (const { root, folded: foldedRoot } of folded) {
      if (relativeInside(foldedRoot, foldedCandidate) !== undefined) {
        aliases.add(joinBelow(root, candidate));
      }
    }
    // The candidate and each folder above it: one may be a trusted root under another name.
    for (let above = candidate; ; above = path.dirname(above)) {
      const identity = identityOf(above);
      for (const root of identity === null ? [] : (rootsByIdentity.get(identity) ?? [])) {
        aliases.add(path.join(root, path.relative(above, candidate)));
      }
      if (path.dirname(above) === above) break;
    }
    if (linkCount(candidate) > 1) {
      for (const name of otherNames(roots.hiddenRoots, candidate)) aliases.add(name);
    }
    aliases.delete(candidate);
    return [...aliases];
  };
}

/**
 * Whether the file `absolute` names is, through a hard link, one under `hiddenRoots` (a link to
 * the configuration is the configuration). Only a file with more than one link is searched for,
 * so the common case costs one lstat. For the tools that read a tree (grep, kb_search, glob).
 */
export function isHiddenByIdentity(hiddenRoots: readonly string[], absolute: string): boolean {
  if (hiddenRoots.length === 0) return false;
  return linkCount(absolute) > 1 && otherNames(hiddenRoots, absolute).length > 0;
}

/** The number of hard links of the file `target` names; 0 when it is absent or not a file. */
export function linkCount(target: string): number {
  try {
    const stats = fs.lstatSync(target);
    return stats.isFile() ? stats.nlink : 0;
  } catch {
    return 0;
  }
}

/**
 * The names under the trusted folders that are the same file as `candidate` (a hard link). A
 * folder too big to search completely is returned itself: the file may lie in it.
 */
function otherNames(roots: readonly string[], candidate: string): string[] {
  const wanted = identityOf(candidate);
  if (wanted === null) return [];
  const found: string[] = [];
  for (const root of roots) {
    const result = searchIdentity(root, wanted, LINK_SEARCH_LIMIT);
    if (result === 'too-many') found.push(root);
    else found.push(...result);
  }
  return found;
}

/** Every path under `root` (itself included) whose identity is `wanted`, without following links. */
function searchIdentity(root: string, wanted: string, limit: number): string[] | 'too-many' {
  const found: string[] = [];
  const pending = [root];
  let seen = 0;
  while (pending.length > 0) {
    const current = pending.pop()!;
    let stats: fs.BigIntStats;
    try {
      stats = fs.lstatSync(current, { bigint: true });
    } catch {
      continue;
    }
    seen += 1;
    if (seen > limit) return 'too-many';
    if (`${stats.dev}:${stats.ino}` === wanted) found.push(current);
    if (!stats.isDirectory()) continue;
    try {
      for (const name of fs.readdirSync(current)) pending.push(path.join(current, name));
    } catch {
      // A folder it may not read: none of its names can be this file as far as we can tell.
    }
  }
  return found;
}

/**
 * `root` joined with what lies below it in `candidate`, whose folded spelling lies inside the
 * root's: folding changes no `/`, so the segments below are the candidate's after as many
 * segments as the root has.
 */
function joinBelow(root: string, candidate: string): string {
  const rootSegments = root.split('/').filter(Boolean).length;
  return path.join(root, ...candidate.split('/').filter(Boolean).slice(rootSegments));
}

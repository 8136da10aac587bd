/**
 * Where deputy keeps what agents must not change on their own (protected roots) or read at all
 * (hidden roots). Computed once from the configuration's locations by the composition
 * root (src/worker/agent-resolver.ts, for decide()) and usable by the tools that walk a tree (glob,
 * grep), so policy and tools name the same places.
 */
import path from 'node:path';
import { isAbsolutePosixPath } from '../shared/path-containment.js';
import { isHiddenPath, type ProtectedRoot } from '../shared/policy-contract.js';
import { isHiddenByIdentity } from './path-identity.js';
import { realpathLenient } from './realpath-lenient.js';
import {
  trustedLocations,
  type TrustedConfig,
  type TrustedLocation,
  type TrustedOptions,
} from './trusted-files.js';

export interface DeputyRoots {
  protectedRoots: ProtectedRoot[];
  hiddenRoots: string[];
}

/**
 * The protected and hidden roots of a configuration: the trusted list (src/paths/trusted-
 * files.ts), each root given as it resolves now (symlinks followed, so a call path, which is
 * resolved too, is compared with where the folder really is) and, when that differs, also as
 * written: a link swapped for a real folder after this ran would otherwise unprotect the
 * lexical place.
 */
export function deputyRoots(
  config: TrustedConfig,
  options: TrustedOptions & {
    /** Files the definitions and configuration name (src/paths/derived-trusted-files.ts). */
    derived?: readonly TrustedLocation[];
  } = {},
): DeputyRoots {
  const locations = [...trustedLocations(config, options), ...(options.derived ?? [])];
  // Roots share parents (the workspace, the project): each is resolved once per computation.
  const seen = new Map<string, string>();
  const protectedRoots = locations.flatMap(({ kind, path: root }) =>
    bothForms(root, seen).map((p): ProtectedRoot => ({ kind, path: p })),
  );
  const hiddenRoots = locations
    .filter((location) => location.hidden === true)
    .flatMap((location) => bothForms(location.path, seen));
  return { protectedRoots, hiddenRoots };
}

/**
 * For a tool that lists or reads a tree (glob, grep): whether `candidate` (an absolute path,
 * e.g. an entry found under the searched folder) is one no agent may read. The entry is resolved
 * first, so a link into the data directory counts as the data directory. Fails closed: a path
 * that cannot be resolved (a loop, a folder it may not search) or is not absolute counts as
 * hidden, and the tool skips it.
 *
 * @param hiddenRoots `deputyRoots(...).hiddenRoots`, already resolved.
 */
export function isHiddenFromAgents(hiddenRoots: readonly string[], candidate: string): boolean {
  if (!isAbsolutePosixPath(candidate)) return true;
  let real: string;
  try {
    real = realpathLenient(candidate);
  } catch {
    return true;
  }
  return (
    isHiddenPath(hiddenRoots, real) ||
    isHiddenPath(hiddenRoots, path.resolve(candidate)) ||
    isHiddenByIdentity(hiddenRoots, real)
  );
}

/** The path resolved through symlinks and, if different, as written (normalized). */
function bothForms(root: string, seen: Map<string, string>): string[] {
  const lexical = path.resolve(root);
  let real = lexical;
  try {
    real = realpathLenient(lexical, seen);
  } catch {
    // A loop or a folder it may not search: the lexical form is all that can be compared.
  }
  return real === lexical ? [lexical] : [real, lexical];
}

import { lstatSync, readlinkSync } from 'node:fs';

/**
 * What every sandboxed program needs to start at all (its shell, its libraries, its locale and
 * name service files), shown read-only. `/usr` holds the programs; the top-level `bin`, `sbin`
 * and `lib*` are symlinks into it on a merged-/usr system and real folders elsewhere.
 */
const SYSTEM_FOLDERS = ['/usr', '/etc'];
const TOP_LEVEL_LINKS = ['/bin', '/sbin', '/lib', '/lib32', '/lib64', '/libx32'];

/**
 * Files of `/etc` a command has no business reading: password hashes (a process that maps to
 * the worker's own uid owns root's files when the worker is root), sudo's rules, the host's SSH
 * keys, TLS private keys. Covered even though the sandbox runs without privileges.
 */
export const ETC_SECRETS = [
  '/etc/shadow',
  '/etc/shadow-',
  '/etc/gshadow',
  '/etc/gshadow-',
  '/etc/security/opasswd',
  '/etc/sudoers',
  '/etc/sudoers.d',
  '/etc/ssh',
  '/etc/ssl/private',
];

type Kind = 'file' | 'folder' | 'link' | 'absent';

export function kindOf(file: string): Kind {
  try {
    const stat = lstatSync(file);
    if (stat.isSymbolicLink()) return 'link';
    return stat.isDirectory() ? 'folder' : 'file';
  } catch {
    return 'absent';
  }
}

/** bwrap arguments showing the system folders read-only, as they are laid out on this machine. */
export function systemMountArgs(): string[] {
  const args: string[] = [];
  for (const folder of SYSTEM_FOLDERS) {
    if (kindOf(folder) === 'folder') args.push('--ro-bind', folder, folder);
  }
  for (const top of TOP_LEVEL_LINKS) {
    const kind = kindOf(top);
    if (kind === 'link') args.push('--symlink', readlinkSync(top), top);
    else if (kind === 'folder') args.push('--ro-bind', top, top);
  }
  return args;
}

/**
 * bwrap arguments that make `file` invisible where a mount made before would show it: an empty
 * read-only tmpfs over a folder, the empty `/dev/null` over a file. Nothing for an absent path.
 */
export function coverArgs(file: string, kind: Kind = kindOf(file)): string[] {
  if (kind === 'folder') return ['--tmpfs', file, '--remount-ro', file];
  if (kind === 'file') return ['--ro-bind', '/dev/null', file];
  // A symlink is left alone: bwrap would follow it, and the caller covers its resolved path.
  return [];
}

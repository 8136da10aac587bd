/**
 * Where deputy installs the programs it runs (the Temporal CLI, the cluster profile's server, SQL
 * tool and UI): `DEPUTY_TOOLS_DIR`, else the user's cache, `$XDG_CACHE_HOME/deputy/tools` or
 * `~/.cache/deputy/tools`. One folder per user, not per project or per install: a second project,
 * a reinstall of the package and a clone all reuse what the first one downloaded and built
 * (installers take a lock there, src/servers/tool-install.ts). The trusted-files list
 * (trusted-files.ts) protects the same folder, so both read it from here.
 */
import { homedir } from 'node:os';
import path from 'node:path';

export function toolsDirectoryOf(env: NodeJS.ProcessEnv, homeDir: string = homedir()): string {
  const chosen = env.DEPUTY_TOOLS_DIR?.trim();
  if (chosen) return path.resolve(chosen);
  return path.join(userCacheDirectoryOf(env, homeDir), 'deputy', 'tools');
}

/**
 * `$XDG_CACHE_HOME`, else `~/.cache`. The XDG base directory specification says a relative
 * value is invalid and must be ignored: it would put the tools wherever the process happens to
 * start (a workspace an agent writes into).
 */
function userCacheDirectoryOf(env: NodeJS.ProcessEnv, homeDir: string): string {
  const xdg = env.XDG_CACHE_HOME?.trim();
  return xdg && path.isAbsolute(xdg) ? xdg : path.join(homeDir, '.cache');
}

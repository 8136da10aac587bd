/**
 * Where deputy installs the programs it needs (the Temporal CLI, the cluster profile's server):
 * `DEPUTY_TOOLS_DIR`, else the user's cache (`$XDG_CACHE_HOME/deputy/tools` or
 * `~/.cache/deputy/tools`), shared by every project and every install of deputy. The one rule
 * lives in src/paths/tools-directory.ts, which the trusted-files list reads too.
 */
import { toolsDirectoryOf } from '../paths/tools-directory.js';

export function toolsDirectory(env: NodeJS.ProcessEnv = process.env): string {
  return toolsDirectoryOf(env);
}

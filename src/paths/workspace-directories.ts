/**
 * Where a command's workspace and data directory are, from flags and environment alone: the
 * configuration uses this, and so does the CLI's local-API path (src/cli/local-api.ts), which must
 * find the data directory without loading the configuration's schema.
 */
import { existsSync, realpathSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ConfigError } from '../shared/config-error.js';

export interface DirectoryOverrides {
  workspace?: string;
  dataDir?: string;
}

/** `--workspace`, else DEPUTY_WORKSPACE, else the current directory; real path, must exist. */
export function workspaceDirectory(
  overrides: DirectoryOverrides,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const input = overrides.workspace ?? env.DEPUTY_WORKSPACE ?? process.cwd();
  if (!existsSync(input)) throw new ConfigError(`workspace ${input} does not exist`);
  return realpathSync(input);
}

/** `--data-dir`, else DEPUTY_DATA_DIR, else `<workspace>/.deputy`. */
export function dataDirectory(
  workspace: string,
  overrides: DirectoryOverrides,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return resolve(overrides.dataDir ?? env.DEPUTY_DATA_DIR ?? join(workspace, '.deputy'));
}

/**
 * The API's local socket (src/local-socket.ts) in a directory only the data directory's owner may
 * enter. Unix socket paths are limited to about 104 bytes; a longer one is not opened.
 */
export function localApiSocketPath(dataDir: string): string {
  return join(dataDir, 'local', 'api.sock');
}

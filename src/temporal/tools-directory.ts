/**
 * Where deputy installs the programs it needs (the Temporal CLI, the cluster profile's server):
 * `DEPUTY_TOOLS_DIR`, else `<project>/.deputy/tools`. CI points it at a cache folder outside the
 * clone, so a warm machine does not build the Temporal server again for every clean checkout.
 */
import { join, resolve } from 'node:path';
import { PROJECT_ROOT } from '../config.js';

export function toolsDirectory(env: NodeJS.ProcessEnv = process.env): string {
  const chosen = env.DEPUTY_TOOLS_DIR?.trim();
  return chosen ? resolve(chosen) : join(PROJECT_ROOT, '.deputy', 'tools');
}

/**
 * Connecting ahead of use: every server the configuration or a definition names, and the gate
 * lets start, is asked of the pool in the background (so the first call rarely waits for a
 * handshake); every other pooled server is disconnected (an edit removed or changed it, or its
 * approval was withdrawn). Each reason a server is held back is logged once, so a worker's log
 * says why it is not up without repeating it at every reload.
 */
import type { McpPool } from './pool.js';
import type { McpServerDirectory, McpServerSpec } from './server-spec.js';
import type { McpStartCheck } from './start-gate.js';

export interface ConnectAheadDeps {
  directory: McpServerDirectory;
  pool: McpPool;
  gate(spec: McpServerSpec): McpStartCheck;
  log?: ((message: string) => void) | undefined;
}

/** Returns `connectAll`: safe to call at every reload, it logs each held-back reason once. */
export function createConnectAll(deps: ConnectAheadDeps): () => void {
  const { directory, pool, gate } = deps;
  const said = new Set<string>();
  return function connectAll(): void {
    const specs = directory.all().filter((spec) => {
      const check = gate(spec);
      if (!check.allowed && !said.has(check.problem)) {
        said.add(check.problem);
        deps.log?.(check.problem);
      }
      return check.allowed;
    });
    for (const spec of specs) pool.server(spec);
    // Its stdio process ends with the connection.
    void pool.retain(specs);
  };
}

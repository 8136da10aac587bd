/**
 * The pooled client of the server an agent declared under a name, as the gateway tools and
 * resolution ask for it: found by the directory as the files are now, and only when it is
 * enabled and the start gate lets it start; otherwise why not, in words a delegation can show.
 */
import type { McpGatewayDeps } from './gateway-tools.js';
import type { McpPool } from './pool.js';
import { specKey, type McpServerDirectory, type McpServerSpec } from './server-spec.js';
import type { McpStartCheck } from './start-gate.js';

export interface ServerLookupDeps {
  directory: McpServerDirectory;
  pool: McpPool;
  gate(spec: McpServerSpec): McpStartCheck;
  /** Re-applies the gate to the whole pool (connect-ahead.ts). */
  connectAll(): void;
}

export function createServerLookup(deps: ServerLookupDeps): McpGatewayDeps['server'] {
  const { directory, pool, gate } = deps;
  return function server(agent, name) {
    const spec = directory.find(agent, name);
    if ('missing' in spec) return spec;
    if (!spec.enabled) return { missing: `MCP server '${name}' is disabled in ${spec.source}` };
    const check = gate(spec);
    if (!check.allowed) {
      // Started before its approval was withdrawn (by another process): ended now.
      const key = specKey(spec);
      if (pool.list().some((pooled) => specKey(pooled.spec) === key)) deps.connectAll();
      return { missing: check.problem };
    }
    return pool.server(spec);
  };
}

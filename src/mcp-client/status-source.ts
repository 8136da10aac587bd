/**
 * What resolution may know of a declared server when a delegation starts (McpStatusSource):
 * whether it is connected and its tools, or why not, read from the pool without waiting; and a
 * bounded wait for those still connecting, so the prompt of a delegation that starts right after
 * the worker does still lists their tools.
 */
import type { McpServerLive, McpStatusSource } from '../capabilities/mcp-live.js';
import type { McpGatewayDeps } from './gateway-tools.js';
import type { PooledServer } from './pool.js';

export function createStatusSource(server: McpGatewayDeps['server']): McpStatusSource {
  return {
    live: (agent, name) => liveOf(server(agent, name)),
    async settle(agent, names, timeoutMs) {
      await Promise.all(
        names.map(async (name) => {
          const found = server(agent, name);
          if ('missing' in found || found.status() !== 'connecting') return;
          await found.connected(timeoutMs).catch(() => undefined);
        }),
      );
    },
  };
}

/** The live view of a pooled server, or of why there is none. */
export function liveOf(found: PooledServer | { missing: string }): McpServerLive {
  if ('missing' in found) return { connected: false, problem: found.missing, tools: [] };
  const tools = (found.tools() ?? []).map((tool) => ({
    name: tool.name,
    description: tool.description ?? '',
    inputSchema: tool.inputSchema as Record<string, unknown>,
  }));
  const status = found.status();
  return {
    connected: status === 'connected',
    problem:
      status === 'connected'
        ? null
        : status === 'connecting'
          ? 'still connecting'
          : (found.lastError() ?? 'not connected'),
    tools,
  };
}

/**
 * The MCP gateway's scope, decided in the workflow before any activity runs: a call to a
 * server the agent did not declare is refused at once, naming the servers it may use; a tool in
 * its server's `approve` list runs without a card; anything else goes to `decide()`, which asks
 * (or, unattended, denies) like every other call. Pure and sandbox-safe.
 */
import type { McpServerRef } from '../shared/capability-snapshot.js';
import type { Verdict } from '../shared/policy-contract.js';
import type { ToolSchema } from '../shared/tools/tool-contract.js';

export interface McpTarget {
  server: string;
  tool: string;
}

/** Which server and tool an MCP call reaches: `mcp_call`'s arguments, or a direct tool's. */
export function mcpTarget(schema: ToolSchema, args: Record<string, unknown>): McpTarget | null {
  if (schema.mcp !== undefined) return schema.mcp;
  if (schema.name !== 'mcp_call') return null;
  const text = (value: unknown) => (typeof value === 'string' ? value.trim() : '');
  return { server: text(args.server), tool: text(args.tool) };
}

/** Deny or allow outright, or null: then the approval mode decides. */
export function mcpScopeVerdict(target: McpTarget, servers: McpServerRef[]): Verdict | null {
  const server = servers.find((candidate) => candidate.name === target.server);
  if (server === undefined) {
    const allowed = servers.map((candidate) => candidate.name).join(', ') || 'none';
    return {
      kind: 'deny',
      reason: `'${target.server}' is not one of your MCP servers; you may use: ${allowed}`,
    };
  }
  if (target.tool === '') {
    return { kind: 'deny', reason: `name the tool of '${server.name}' to call` };
  }
  return server.approve.includes(target.tool) ? { kind: 'allow' } : null;
}

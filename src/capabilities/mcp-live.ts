/**
 * What resolution may know of an MCP server at the moment a delegation starts: read from the
 * worker's pool by the agent resolver and passed in, so resolution itself stays pure. The prompt's
 * MCP catalog lines and the "not in place yet" diagnostics come from it.
 */
export interface McpServerLive {
  /** Connected now, with `tools` as the server last listed them. */
  connected: boolean;
  /** Why it is not connected (connecting, the last error, not configured); null when it is. */
  problem: string | null;
  tools: Array<{ name: string; description: string; inputSchema: Record<string, unknown> }>;
}

/** The live view of the definition's server `name`; undefined = no pool to ask (tests, CLI). */
export type McpLiveLookup = (name: string) => McpServerLive | undefined;

/** What the agent resolver asks of the process's MCP clients (src/mcp-client/mcp-runtime.ts has it). */
export interface McpStatusSource {
  live(agent: string, name: string): McpServerLive;
  /** Waits (up to `timeoutMs`) for those of the servers that are connecting right now. */
  settle(agent: string, names: readonly string[], timeoutMs: number): Promise<void>;
}

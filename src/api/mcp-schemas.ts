/** Answers of the MCP status routes (mcp-routes.ts) and `deputy mcp --json`, as zod schemas. */
import { z } from 'zod';

/** Longer server names in a path are refused unread: no configuration writes one that long. */
export const MAX_MCP_SERVER_NAME = 128;

/** The pool's three states, plus `disabled` for a configured server with `enabled: false`. */
export const McpServerStateSchema = z.enum(['connected', 'connecting', 'failed', 'disabled']);
export type McpServerState = z.infer<typeof McpServerStateSchema>;

const McpServerEntrySchema = z.object({
  name: z.string(),
  transport: z.enum(['stdio', 'http']),
  /** Where it is written: `config.yaml`, `.mcp.json` or `agent <name>` (an inline server). */
  source: z.string(),
  enabled: z.boolean(),
  status: McpServerStateSchema,
  /** Why the last attempt failed or the connection ended; null while none has. */
  lastError: z.string().nullable(),
  /** Tools the server lists; null while it is not connected. */
  toolCount: z.number().int().nonnegative().nullable(),
  /** Agents whose `mcpServers` declare this server (by name, or inline for an inline one). */
  declaredBy: z.array(z.string()),
  /** http: scheme, host, port and path only (no credentials, no query). */
  endpoint: z.string().optional(),
  /** stdio: the command's base name only (never its arguments or environment). */
  command: z.string().optional(),
});
export type McpServerEntry = z.infer<typeof McpServerEntrySchema>;

export const McpServerListSchema = z.object({
  v: z.literal(1),
  workspaceCwd: z.string(),
  servers: z.array(McpServerEntrySchema),
});
export type McpServerList = z.infer<typeof McpServerListSchema>;

export const McpServerToolsSchema = z.object({
  v: z.literal(1),
  workspaceCwd: z.string(),
  serverName: z.string(),
  source: z.string(),
  status: McpServerStateSchema,
  lastError: z.string().nullable(),
  /** The live list while connected; `[]` otherwise (`status` says why). */
  tools: z.array(
    z.object({
      name: z.string(),
      description: z.string(),
      /** The tool's JSON Schema for its arguments, as the server lists it. */
      inputSchema: z.record(z.string(), z.unknown()),
    }),
  ),
});
export type McpServerTools = z.infer<typeof McpServerToolsSchema>;

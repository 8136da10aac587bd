/**
 * What `deputy mcp --json` and the MCP status routes (api/workspace/mcp-routes.ts) report of the
 * MCP servers, as zod schemas: the CLI and the API print the same view (mcp-view.ts).
 */
import { z } from 'zod';

/** Longer server names in a path are refused unread: no configuration writes one that long. */
export const MAX_MCP_SERVER_NAME = 128;

/**
 * The pool's three states, `disabled` for a configured server with `enabled: false`, and two for
 * a `.mcp.json` server that is not started (src/mcp/start-gate.ts): `untrusted` (no person
 * approved what it says now) and `refused` (it references a variable config.yaml does not allow).
 */
export const McpServerStateSchema = z.enum([
  'connected',
  'connecting',
  'failed',
  'disabled',
  'untrusted',
  'refused',
]);
export type McpServerState = z.infer<typeof McpServerStateSchema>;

/** What a `.mcp.json` server would start, for the person who approves it. */
const McpWouldRunSchema = z.object({
  command: z.string().optional(),
  /** As written: `${NAME}` references unresolved. */
  args: z.array(z.string()).optional(),
  /** Scheme, host, port and path as written; user info and query values as `***`. */
  url: z.string().optional(),
  /** Names only: values may be literal secrets. */
  envNames: z.array(z.string()),
  headerNames: z.array(z.string()),
});

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
  /**
   * `.mcp.json` servers only: whether a person approved what the file says now. A server that
   * is not approved shows what it would run, so a person can decide.
   */
  trust: z
    .object({
      /**
       * `approved`, or why not: `new` (never approved), `changed` (since it was approved), or
       * `unsigned` (its entry in the trust store was not signed by this deputy: written by hand,
       * copied, or recorded before approvals were signed; it approves nothing).
       */
      state: z.enum(['approved', 'new', 'changed', 'unsigned']),
      /** sha256 of the connection fields as written: what an approval names. */
      hash: z.string(),
      /** How a person approves it. */
      approve: z.string(),
      /** What it would run; shown while it is not approved. */
      wouldRun: McpWouldRunSchema.optional(),
    })
    .optional(),
});
export type McpServerEntry = z.infer<typeof McpServerEntrySchema>;

export const McpServerListSchema = z.object({
  v: z.literal(1),
  workspaceCwd: z.string(),
  /** Why `.mcp.json` is not read (not JSON: the position, never the content), or null. */
  mcpJsonProblem: z.string().nullable(),
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

/** `POST|DELETE /workspace/mcp/:server/trust`, `deputy mcp trust|untrust --json`. */
export const McpTrustBodySchema = z
  .object({
    /** The hash the person saw (`trust.hash` of the listing): a different file now is a 409. */
    hash: z.string().regex(/^[0-9a-f]{64}$/, { message: 'must be a sha256 in hex' }),
  })
  .strict();

export const McpTrustAnswerSchema = z.object({
  v: z.literal(1),
  server: z.string(),
  /** Approved now (true), or the approval withdrawn (false). */
  approved: z.boolean(),
  hash: z.string(),
  approvedAt: z.string().nullable(),
  approvedBy: z.string().nullable(),
  wouldRun: McpWouldRunSchema,
  /** Why it still does not start although approved (a variable config.yaml does not allow). */
  problem: z.string().nullable(),
});
export type McpTrustAnswer = z.infer<typeof McpTrustAnswerSchema>;

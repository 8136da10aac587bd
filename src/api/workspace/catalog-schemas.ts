/** Answers of the catalog routes (catalog-routes.ts), as zod schemas next to their types. */
import { z } from 'zod';

const CatalogToolSchema = z.object({
  name: z.string(),
  /** What a definition's `tools` writes to name exactly this tool. */
  spec: z.string(),
  description: z.string(),
  toolClass: z.enum(['read', 'write', 'exec', 'mcp', 'config']),
  /**
   * The JSON Schema of the tool's arguments, as the model is given it: what the console's
   * edit-arguments form is built from, and what an edit is checked against.
   */
  inputSchema: z.record(z.string(), z.unknown()),
});

export const ToolCatalogSchema = z.object({
  v: z.literal(1),
  workspaceCwd: z.string(),
  /** Roles the list was filtered with; null when auth is off (nothing is filtered). */
  roles: z.array(z.string()).nullable(),
  providers: z.array(
    z.object({
      name: z.string(),
      requiredRole: z.string().optional(),
      /** The definition field this provider's tools also need (undeclared means unreachable). */
      requires: z.enum(['knowledge', 'memory', 'skills', 'mcpServers']).optional(),
      tools: z.array(CatalogToolSchema),
    }),
  ),
  /** The same tools flat, in qwen-code's shape. */
  tools: z.array(
    z.object({
      name: z.string(),
      displayName: z.string(),
      description: z.string(),
      enabled: z.boolean(),
      provider: z.string(),
    }),
  ),
});
export type ToolCatalog = z.infer<typeof ToolCatalogSchema>;

export const ModelCatalogSchema = z.object({
  v: z.literal(1),
  workspaceCwd: z.string(),
  /** The sentinel a definition writes to run on `default`, and what it means now. */
  default: z.object({
    handle: z.literal('default'),
    resolvesTo: z.string(),
    runnable: z.boolean(),
    problem: z.string().optional(),
  }),
  models: z.array(
    z.object({
      handle: z.string(),
      provider: z.enum(['openai', 'anthropic']),
      model: z.string(),
      /** Without credentials. */
      baseUrl: z.string().optional(),
      isDefault: z.boolean(),
    }),
  ),
  aliases: z.record(z.string(), z.string()),
  overrides: z.record(z.string(), z.string()),
});
export type ModelCatalog = z.infer<typeof ModelCatalogSchema>;

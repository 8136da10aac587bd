/**
 * The JSON Schema of a card's tool, so the edit-arguments form is typed and marks required
 * fields by the real schema: a directly exposed MCP tool (`mcp__<server>__<tool>`) lists its
 * schema in `GET /workspace/mcp/:server/tools`; every other tool (write, edit, bash, ...) has its
 * schema on its row of `GET /workspace/tools`. Null until it arrives, or when it cannot be read
 * (no right to list, server down): the form then types its fields by the card's values.
 */
import { useEffect, useState } from 'react';
import { api } from '../../api/client';
import { listMcpTools } from '../../api/editor';
import type { ToolCatalog } from '../../api/types';
import type { JsonSchema } from './argument-fields';

const MCP_DIRECT = /^mcp__(.+?)__(.+)$/;

/** The schema of `tool` from whichever route lists it, or undefined when none does. */
async function fetchSchema(tool: string, signal: AbortSignal): Promise<JsonSchema | undefined> {
  const [, server, name] = MCP_DIRECT.exec(tool) ?? [];
  if (server !== undefined && name !== undefined) {
    const answer = await listMcpTools(server, signal);
    return answer.tools.find((entry) => entry.name === name)?.inputSchema;
  }
  const catalog = await api<ToolCatalog>('GET', '/workspace/tools', undefined, signal);
  return catalog.providers
    .flatMap((provider) => provider.tools)
    .find((entry) => entry.name === tool)?.inputSchema;
}

export function useToolSchema(tool: string, wanted: boolean): JsonSchema | null {
  const [schema, setSchema] = useState<{ tool: string; schema: JsonSchema } | null>(null);
  useEffect(() => {
    if (!wanted) return;
    const controller = new AbortController();
    fetchSchema(tool, controller.signal)
      .then((found) => {
        if (found !== undefined) setSchema({ tool, schema: found });
      })
      // Without it the form still works from the values; the server checks the edit anyway.
      .catch(() => undefined);
    return () => controller.abort();
  }, [tool, wanted]);
  return schema?.tool === tool ? schema.schema : null;
}

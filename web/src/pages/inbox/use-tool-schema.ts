/**
 * The JSON Schema of a card's tool, where the console can read one: a directly exposed MCP tool
 * (`mcp__<server>__<tool>`) lists its schema in `GET /workspace/mcp/:server/tools`. Other tools'
 * schemas are not served to the console: null, and the form types its fields by the card's values.
 */
import { useEffect, useState } from 'react';
import { listMcpTools } from '../../api/editor';
import type { JsonSchema } from './argument-fields';

const MCP_DIRECT = /^mcp__(.+?)__(.+)$/;

export function useToolSchema(tool: string, wanted: boolean): JsonSchema | null {
  const [schema, setSchema] = useState<{ tool: string; schema: JsonSchema } | null>(null);
  const match = MCP_DIRECT.exec(tool);
  const server = match?.[1];
  const name = match?.[2];
  useEffect(() => {
    if (!wanted || server === undefined || name === undefined) return;
    const controller = new AbortController();
    listMcpTools(server, controller.signal)
      .then((answer) => {
        const found = answer.tools.find((entry) => entry.name === name);
        if (found !== undefined) setSchema({ tool, schema: found.inputSchema });
      })
      // Without it (no right to list, server down) the form still works from the values.
      .catch(() => undefined);
    return () => controller.abort();
  }, [tool, server, name, wanted]);
  return schema?.tool === tool ? schema.schema : null;
}

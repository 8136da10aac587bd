/**
 * `GET /workspace/tools` over the real app: each tool row carries the JSON Schema of its
 * arguments, the very object the model is given, so the console can build an edit form from it.
 */
import { describe, expect, it } from 'vitest';
import { ToolCatalogSchema, type ToolCatalog } from '../../src/api/workspace/catalog-schemas.js';
import { TOOL_PROVIDERS } from '../../src/capabilities/providers.js';
import {
  BASH_TOOL_SCHEMA,
  WRITE_TOOL_SCHEMA,
} from '../../src/shared/tools/workspace-tool-schemas.js';
import { useAuthoringApps } from './authoring-app.js';

const makeApp = useAuthoringApps();

async function catalog(): Promise<ToolCatalog> {
  const { app } = await makeApp();
  const response = await app.request('/workspace/tools');
  expect(response.status).toBe(200);
  return ToolCatalogSchema.parse(await response.json());
}

function row(answer: ToolCatalog, spec: string) {
  const found = answer.providers.flatMap((provider) => provider.tools).find((t) => t.spec === spec);
  if (found === undefined) throw new Error(`${spec} is not in the catalog`);
  return found;
}

describe('GET /workspace/tools: inputSchema', () => {
  it("serves write's schema: path and content, both required, with their descriptions", async () => {
    const write = row(await catalog(), 'FileSystem:write');
    expect(write.inputSchema).toEqual(WRITE_TOOL_SCHEMA.inputSchema);
    expect(write.inputSchema).toMatchObject({
      type: 'object',
      required: ['path', 'content'],
      properties: {
        path: { type: 'string', description: 'File path, relative to the workspace root.' },
        content: { type: 'string', description: 'The complete new content of the file.' },
      },
    });
  });

  it('gives every listed tool the schema its provider declares', async () => {
    const answer = await catalog();
    const declared = new Map<string, unknown>(
      TOOL_PROVIDERS.flatMap((provider) =>
        provider.tools.map((tool) => [`${provider.name}:${tool.name}`, tool.inputSchema] as const),
      ),
    );
    const listed = answer.providers.flatMap((provider) => provider.tools);
    expect(listed.length).toBeGreaterThan(5);
    for (const tool of listed) {
      expect(declared.has(tool.spec)).toBe(true);
      expect(tool.inputSchema).toEqual(declared.get(tool.spec));
    }
    expect(row(answer, `${BASH_TOOL_SCHEMA.provider}:bash`).inputSchema).toEqual(
      BASH_TOOL_SCHEMA.inputSchema,
    );
  });
});

/** The check of a model's tool calls against the schemas it was given (src/models/check-tool-calls.ts). */
import { describe, expect, it } from 'vitest';
import { schemaProblems } from '../../src/models/check-tool-calls.js';
import {
  READ_TOOL_SCHEMA,
  WRITE_TOOL_SCHEMA,
} from '../../src/shared/tools/workspace-tool-schemas.js';
import type { ToolSchema } from '../../src/shared/tools/tool-contract.js';

const tools = [READ_TOOL_SCHEMA, WRITE_TOOL_SCHEMA];
const call = (name: string, args: Record<string, unknown>) => ({ id: 'c1', name, arguments: args });

describe('schemaProblems', () => {
  it('passes well-formed calls and leaves calls of undeclared tools to the workflow', () => {
    expect(
      schemaProblems(
        [
          call('read', { path: 'a.md', limit: 1 }),
          { id: 'c2', name: 'delete_everything', arguments: { path: 1 } },
        ],
        tools,
      ),
    ).toEqual({});
  });

  it('names each problem, then the parameters to send', () => {
    expect(schemaProblems([call('read', { limit: '1', offset: 0, mode: 'fast' })], tools)).toEqual({
      c1:
        "its arguments do not fit its parameters: 'path' is missing; " +
        `'limit' must be an integer, not the string "1"; 'offset' must be at least 1, not 0; ` +
        "'mode' is not one of its parameters. " +
        'Call it again with these parameters: path (string, required), offset (integer), limit (integer).',
    });
  });

  it('refuses an extra argument a tool would silently ignore', () => {
    const problems = schemaProblems(
      [call('write', { path: 'a.md', content: 'x', mode: 'append' })],
      tools,
    );
    expect(problems.c1).toContain("'mode' is not one of its parameters");
  });

  it('checks what a schema states plainly and nothing more', () => {
    const mcp: ToolSchema = {
      name: 'mcp__docs__search',
      provider: 'Mcp',
      description: 'Search.',
      toolClass: 'mcp',
      inputSchema: {
        type: 'object',
        properties: {
          query: { type: 'string', format: 'not-checked', pattern: '^x' },
          kind: { enum: ['page', 'section'] },
          filter: { type: 'object', properties: { since: { type: ['string', 'null'] } } },
        },
        required: ['query'],
      },
    };
    expect(
      schemaProblems(
        [call(mcp.name, { query: 'y', extra: true, filter: { since: null, other: 1 } })],
        [mcp],
      ),
    ).toEqual({});
    expect(
      schemaProblems([call(mcp.name, { query: 'y', kind: 'book', filter: { since: 3 } })], [mcp])
        .c1,
    ).toBe(
      `its arguments do not fit its parameters: 'kind' must be one of "page", "section", not "book"; ` +
        "'filter.since' must be a string or null, not a number (3). " +
        'Call it again with these parameters: query (string, required), kind, filter (object).',
    );
  });
});

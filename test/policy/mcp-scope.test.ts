import { describe, expect, it } from 'vitest';
import { mcpScopeVerdict, mcpTarget } from '../../src/policy/mcp-scope.js';
import {
  MCP_CALL_TOOL_SCHEMA,
  MCP_SEARCH_TOOL_SCHEMA,
  mcpDirectToolSchema,
} from '../../src/shared/tools/capability-tool-schemas.js';
import type { McpServerRef } from '../../src/shared/capability-snapshot.js';

const servers: McpServerRef[] = [
  { name: 'github', approve: ['search_issues'], toolTimeoutSeconds: 60 },
  { name: 'docs', approve: [], toolTimeoutSeconds: 0 },
];

describe('MCP gateway scope', () => {
  it("reads the target from mcp_call's arguments and from a direct tool's schema", () => {
    expect(mcpTarget(MCP_CALL_TOOL_SCHEMA, { server: ' github ', tool: 'x' })).toEqual({
      server: 'github',
      tool: 'x',
    });
    expect(mcpTarget(mcpDirectToolSchema('docs', 'fetch'), { url: 'u' })).toEqual({
      server: 'docs',
      tool: 'fetch',
    });
    expect(mcpTarget(MCP_SEARCH_TOOL_SCHEMA, { query: 'x' })).toBeNull();
    expect(mcpTarget(MCP_CALL_TOOL_SCHEMA, { server: 42 })).toEqual({ server: '', tool: '' });
  });

  it('refuses an undeclared server at once, naming the declared ones', () => {
    expect(mcpScopeVerdict({ server: 'slack', tool: 'post' }, servers)).toEqual({
      kind: 'deny',
      reason: "'slack' is not one of your MCP servers; you may use: github, docs",
    });
    // Names match exactly: a server is reached by the name it was declared with.
    expect(mcpScopeVerdict({ server: 'GitHub', tool: 'search_issues' }, servers)?.kind).toBe(
      'deny',
    );
    expect(mcpScopeVerdict({ server: 'x', tool: 'y' }, [])).toMatchObject({
      reason: expect.stringContaining('you may use: none'),
    });
  });

  it("runs a tool of the server's approve list without a card, and leaves the rest to the mode", () => {
    expect(mcpScopeVerdict({ server: 'github', tool: 'search_issues' }, servers)).toEqual({
      kind: 'allow',
    });
    expect(mcpScopeVerdict({ server: 'github', tool: 'create_issue' }, servers)).toBeNull();
    expect(mcpScopeVerdict({ server: 'docs', tool: '' }, servers)?.kind).toBe('deny');
  });
});

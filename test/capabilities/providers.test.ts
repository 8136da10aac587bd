import { describe, expect, it } from 'vitest';
import {
  listPermittedTools,
  requiredRoleOf,
  TOOL_PROVIDERS,
} from '../../src/capabilities/providers.js';
import { ADMIN, ANONYMOUS, USER } from './helpers.js';

const flat = (providers: ReturnType<typeof listPermittedTools>): string[] =>
  providers.flatMap((provider) => provider.tools.map((tool) => `${provider.name}:${tool.name}`));

describe('tool providers', () => {
  it('the catalog has the six providers with canonical tool names', () => {
    expect(flat(TOOL_PROVIDERS as ReturnType<typeof listPermittedTools>)).toEqual([
      'FileSystem:read',
      'FileSystem:write',
      'FileSystem:edit',
      'FileSystem:glob',
      'FileSystem:grep',
      'Bash:bash',
      'Knowledge:kb_search',
      'Memory:memory_write',
      'Memory:memory_read',
      'Memory:memory_search',
      'Skills:use_skill',
      'Mcp:mcp_search',
      'Mcp:mcp_describe',
      'Mcp:mcp_call',
    ]);
  });

  it('write-class tools need admin; memory_write is confined to its directory and does not', () => {
    const gated = TOOL_PROVIDERS.flatMap((provider) =>
      provider.tools
        .filter((tool) => requiredRoleOf(provider, tool) !== undefined)
        .map((tool) => tool.name),
    );
    expect(gated).toEqual(['write', 'edit', 'bash']);
  });

  it('listPermittedTools filters by role the same way resolution does', () => {
    expect(flat(listPermittedTools(USER))).not.toEqual(
      expect.arrayContaining(['FileSystem:write']),
    );
    expect(flat(listPermittedTools(USER))).toEqual(
      flat(TOOL_PROVIDERS as ReturnType<typeof listPermittedTools>).filter(
        (name) => !['FileSystem:write', 'FileSystem:edit', 'Bash:bash'].includes(name),
      ),
    );
    expect(listPermittedTools(USER).map((provider) => provider.name)).not.toContain('Bash');
    expect(flat(listPermittedTools(ADMIN))).toHaveLength(14);
    expect(flat(listPermittedTools(ANONYMOUS))).toHaveLength(14);
  });

  it('a provider with a required role is invisible without it', () => {
    const providers = [
      { name: 'Ops', requiredRole: 'ops', tools: TOOL_PROVIDERS[0]?.tools.slice(0, 1) ?? [] },
    ];
    expect(listPermittedTools(USER, providers)).toEqual([]);
    expect(listPermittedTools({ id: 'o', roles: ['ops'] }, providers)).toHaveLength(1);
  });
});

import { describe, expect, it } from 'vitest';
import type { DeputyConfig } from '../../src/config/schema.js';
import { configuredSpecs } from '../../src/mcp-client/server-spec.js';

type Servers = DeputyConfig['mcpServers'];

describe('configuredSpecs', () => {
  it('names each configured server by its key, with the file it came from', () => {
    const mcpServers = {
      files: {
        transport: 'stdio',
        command: 'files-mcp',
        args: ['--ro'],
        env: {},
        headers: {},
        enabled: true,
      },
      search: {
        transport: 'http',
        endpoint: 'http://127.0.0.1:9/mcp',
        args: [],
        env: {},
        headers: {},
        enabled: false,
      },
    } as unknown as Servers;
    const specs = configuredSpecs({ mcpServers, mcpServerOrigins: { search: '.mcp.json' } });
    expect(Object.keys(specs)).toEqual(['files', 'search']);
    expect(specs.files).toMatchObject({
      name: 'files',
      transport: 'stdio',
      command: 'files-mcp',
      args: ['--ro'],
      enabled: true,
      source: 'config.yaml',
    });
    expect(specs.search).toMatchObject({ name: 'search', enabled: false, source: '.mcp.json' });
  });

  it('is empty without servers', () => {
    expect(configuredSpecs({ mcpServers: {}, mcpServerOrigins: {} })).toEqual({});
  });
});

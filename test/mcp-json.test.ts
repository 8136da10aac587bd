/**
 * The workspace's `.mcp.json` (Claude Code's project MCP file) is read as it is: its servers are
 * configured for the workspace beside config.yaml's, which wins a shared name; what deputy cannot
 * use is a warning naming the server, never a silent drop; a file that is not JSON is an error.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError } from '../src/shared/config-error.js';
import { loadConfig } from '../src/config/load.js';

function workspaceWith(files: Record<string, string>): string {
  const workspace = mkdtempSync(join(tmpdir(), 'deputy-mcp-json-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(join(workspace, path, '..'), { recursive: true });
    writeFileSync(join(workspace, path), text);
  }
  return workspace;
}

describe('.mcp.json', () => {
  it('configures its servers, config.yaml winning a shared name, with a warning per unusable one', () => {
    const workspace = workspaceWith({
      '.mcp.json': JSON.stringify({
        mcpServers: {
          files: { command: 'npx', args: ['-y', 'files-mcp'], env: { ROOT: '.' } },
          remote: {
            type: 'http',
            url: 'https://remote.example/mcp',
            headers: { 'X-Key': '${REMOTE_KEY}' },
          },
          legacy: { type: 'sse', url: 'https://old.example/sse' },
          shared: { command: 'from-mcp-json' },
        },
      }),
      '.subagents/config.yaml':
        'mcpServers:\n  shared: { transport: stdio, command: from-config }\n',
    });
    const config = loadConfig({ workspace }, {});
    expect(config.mcpServers.files).toMatchObject({
      transport: 'stdio',
      command: 'npx',
      args: ['-y', 'files-mcp'],
    });
    expect(config.mcpServers.remote).toMatchObject({
      transport: 'http',
      endpoint: 'https://remote.example/mcp',
      headers: { 'X-Key': '${REMOTE_KEY}' },
    });
    expect(config.mcpServers.shared?.command).toBe('from-config');
    expect(config.mcpServers.legacy).toBeUndefined();
    expect(config.mcpServerOrigins).toMatchObject({
      files: '.mcp.json',
      remote: '.mcp.json',
      shared: 'config.yaml',
    });
    expect(config.warnings.join('\n')).toMatch(/server 'legacy' uses the sse transport/);
    expect(config.warnings.join('\n')).toMatch(
      /server 'shared' is also in config.yaml, which wins/,
    );
    // A referenced variable in .mcp.json is known to the masker like config.yaml's.
    expect([...config.secrets.variables.keys()]).toContain('REMOTE_KEY');
  });

  it('a file that is not JSON configures none of its servers and says where, never what', () => {
    const secret = 'sk-mcp-json-secret-4be1a9';
    const cases: Array<[string, RegExp]> = [
      ['{ not json', /not valid JSON: expected a property name .* at line 1, column 3;/],
      [`{\n  "mcpServers": {\n    "x": { "env": { "K": "${secret}" ,, } }`, /line 3, column 55/],
      [`[1,2,,"${secret}"]`, /expected a value at line 1, column 6/],
      [`{ "mcpServers": { "x": { "command": "${secret}`, /unexpected end of input at line 1/],
    ];
    for (const [text, where] of cases) {
      const workspace = workspaceWith({
        '.mcp.json': text,
        '.subagents/config.yaml': 'mcpServers:\n  kept: { transport: stdio, command: kept }\n',
      });
      const config = loadConfig({ workspace }, {});
      expect(config.mcpJsonProblem).toContain(join(workspace, '.mcp.json'));
      expect(config.mcpJsonProblem).toMatch(where);
      expect(config.mcpJsonProblem).toMatch(/none of its MCP servers is configured/);
      expect(config.mcpJsonProblem).not.toContain(secret);
      expect(config.mcpJsonProblem).not.toContain('not json');
      // A warning too: every command that prints warnings (agents list, dev) says it.
      expect(config.warnings).toContain(config.mcpJsonProblem);
      // config.yaml's servers stay; none of the broken file's.
      expect(Object.keys(config.mcpServers)).toEqual(['kept']);
    }
  });

  it('config.yaml itself stays a hard error', () => {
    const workspace = workspaceWith({ '.subagents/config.yaml': 'mcpServers: [\n' });
    expect(() => loadConfig({ workspace }, {})).toThrow(ConfigError);
  });

  it('mcpJson.variables names, per server, what its ${NAME} references may name', () => {
    const workspace = workspaceWith({
      '.subagents/config.yaml': 'mcpJson:\n  variables:\n    files: [GITHUB_TOKEN]\n',
    });
    expect(loadConfig({ workspace }, {}).mcpJson.variables).toEqual({ files: ['GITHUB_TOKEN'] });
    const bad = workspaceWith({
      '.subagents/config.yaml': 'mcpJson:\n  variables:\n    files: ["not a name"]\n',
    });
    expect(() => loadConfig({ workspace: bad }, {})).toThrow(/mcpJson\.variables\.files\.0/);
  });
});

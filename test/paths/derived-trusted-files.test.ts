/**
 * The files hook commands, MCP server commands and scripted models name, found on a real file
 * system: each becomes a protected `script` location; folders, devices, URLs and options do not.
 */
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/load.js';
import type { LoadedDefinition } from '../../src/definitions/definition.js';
import { createRegistry } from '../../src/definitions/registry/registry.js';
import { namedExecutables } from '../../src/named-executables.js';
import {
  derivedTrustedLocations,
  filesNamedByCommand,
} from '../../src/paths/derived-trusted-files.js';

const ws = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-derived-')));
mkdirSync(join(ws, 'scripts'));
writeFileSync(join(ws, 'scripts', 'check.sh'), 'exit 0\n');
writeFileSync(join(ws, 'lint'), 'exit 0\n');
afterAll(() => rmSync(ws, { recursive: true, force: true }));

const named = (command: string) => filesNamedByCommand(command, ws);

describe('filesNamedByCommand', () => {
  it('finds scripts by path, by name, and behind interpreters and operators', () => {
    expect(named('./scripts/check.sh --strict')).toEqual([join(ws, 'scripts/check.sh')]);
    expect(named('python3 hooks/post.py && node "tools/a b.mjs"')).toEqual([
      join(ws, 'hooks/post.py'),
      join(ws, 'tools/a b.mjs'),
    ]);
    // A bare name that is a file of the workspace, and a script's name that does not exist yet.
    expect(named('bash lint; python3 notify.py')).toEqual([
      join(ws, 'lint'),
      join(ws, 'notify.py'),
    ]);
    expect(named('node server.js --config=./conf/x.json')).toEqual([
      join(ws, 'server.js'),
      join(ws, 'conf/x.json'),
    ]);
  });

  it('reads $CLAUDE_PROJECT_DIR as the workspace and ~ as the home folder', () => {
    expect(named('"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh')).toEqual([
      join(ws, '.claude/hooks/check.sh'),
    ]);
    expect(named('${CLAUDE_PROJECT_DIR}/scripts/check.sh')).toEqual([join(ws, 'scripts/check.sh')]);
    expect(named('~/bin/hook.sh')).toEqual([join(homedir(), 'bin/hook.sh')]);
  });

  it('leaves out folders, devices, URLs, variables and plain programs', () => {
    expect(named('find . scripts -name x 2>/dev/null')).toEqual([]);
    expect(named('curl https://example.com/hook.sh | jq .tool_name')).toEqual([]);
    expect(named('cat > /dev/stderr; echo $HOME/x; exit 2')).toEqual([]);
  });
});

describe('derivedTrustedLocations from real definitions', () => {
  it('protects what every definition and the configuration name, shadowed definitions too', async () => {
    const files: Record<string, string> = {
      '.subagents/agents/guarded.md': `---
name: guarded
description: a hook and an inline MCP server
model: scripted:scripts/guarded.yaml
hooks:
  PreToolUse: [{ command: ./scripts/check.sh }]
mcpServers:
  - { name: local, transport: stdio, command: node, args: [tools/server.mjs] }
  - { name: remote, transport: http, endpoint: 'https://example.com/mcp/tool.js' }
---
Guard.
`,
      '.subagents/config.yaml':
        'models:\n  default: scripted:.subagents/scripts/default.yaml\nmcpServers:\n  cfg: { transport: stdio, command: python3, args: [srv/main.py] }\n',
      '.claude/agents/plain.md': '---\nname: plain\ndescription: default model\n---\nPlain.\n',
    };
    for (const [file, content] of Object.entries(files)) {
      mkdirSync(join(ws, file, '..'), { recursive: true });
      writeFileSync(join(ws, file), content);
    }
    const config = loadConfig({ workspace: ws }, { DEPUTY_USER_DIR: join(ws, '.user') });
    const registry = createRegistry({ config });
    await registry.load();
    const definitions: LoadedDefinition[] = registry.listAll();
    const locations = derivedTrustedLocations(ws, namedExecutables(definitions, config));
    await registry.close();
    expect(locations.every((location) => location.kind === 'script')).toBe(true);
    expect(locations.map((location) => location.path).sort()).toEqual(
      [
        join(ws, 'scripts/check.sh'),
        join(ws, 'tools/server.mjs'),
        join(ws, 'srv/main.py'),
        join(ws, 'scripts/guarded.yaml'),
        // The configured default, in the workspace and (second in the search) in the package.
        join(ws, '.subagents/scripts/default.yaml'),
        join(config.projectRoot, '.subagents/scripts/default.yaml'),
        // The built-in agents' own scripts, in the package.
        join(config.projectRoot, 'agents/scripts/demo.yaml'),
        join(config.projectRoot, 'agents/scripts/demo-lead.yaml'),
      ].sort(),
    );
  });
});

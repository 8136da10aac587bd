import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveCapabilities } from '../../src/capabilities/resolve.js';
import type { ToolContext } from '../../src/tools/tool.js';
import { buildToolbox } from '../../src/tools/toolbox.js';
import { deputyRoots } from '../../src/paths/deputy-roots.js';
import { USER, input, skillIndex } from '../capabilities/helpers.js';

let ws: string;

beforeEach(() => {
  ws = realpathSync(mkdtempSync(join(tmpdir(), 'deputy-toolbox-')));
  mkdirSync(join(ws, 'docs'));
  writeFileSync(join(ws, 'docs', 'guide.md'), 'How to return an item.\n');
});
afterEach(() => rmSync(ws, { recursive: true, force: true }));

const context = (snapshot: ToolContext['snapshot']): ToolContext => ({
  workspaceRoot: ws,
  snapshot,
  signal: new AbortController().signal,
  heartbeat: () => undefined,
});

describe('buildToolbox', () => {
  it('holds exactly the snapshot tools, every one with an implementation', async () => {
    const snapshot = resolveCapabilities(
      input(
        {
          tools: ['read', 'mcp:github:create_issue'],
          knowledge: [{ name: 'docs', glob: 'docs/*.md' }],
          memory: 'private',
          skills: ['alpha'],
          mcpServers: ['github'],
        },
        {
          skillIndex: skillIndex('alpha'),
          config: { ...input().config, workspace: ws, dataDir: join(ws, '.deputy') },
        },
      ),
    );
    const toolbox = buildToolbox(snapshot, { workspaceRoot: ws, hiddenRoots: [] });
    expect([...toolbox.keys()]).toEqual(snapshot.tools.map((tool) => tool.name));
    expect([...toolbox.keys()]).toEqual([
      'read',
      'kb_search',
      'memory_write',
      'memory_read',
      'memory_search',
      'use_skill',
      'mcp_search',
      'mcp_describe',
      'mcp_call',
      'mcp__github__create_issue',
    ]);
    for (const [name, tool] of toolbox) expect(tool.schema.name).toBe(name);

    const kb = toolbox.get('kb_search');
    expect(await kb?.run({ query: 'return' }, context(snapshot))).toContain(
      'docs/guide.md:1: How to return an item.',
    );
    expect(await toolbox.get('read')?.run({ path: 'docs/guide.md' }, context(snapshot))).toContain(
      'How to return',
    );
    await toolbox.get('memory_write')?.run({ content: 'remember me' }, context(snapshot));
    expect(
      await toolbox.get('memory_search')?.run({ query: 'remember' }, context(snapshot)),
    ).toContain('remember me');
    await expect(
      toolbox.get('mcp_call')?.run({ server: 'github', tool: 'x' }, context(snapshot)),
    ).rejects.toThrow('this worker has no MCP gateway');
  });

  it('a caller without admin gets no write, edit or bash implementation at all', () => {
    const snapshot = resolveCapabilities(
      input({ tools: ['read', 'write', 'edit', 'bash'] }, { caller: USER }),
    );
    expect([...buildToolbox(snapshot, { workspaceRoot: ws, hiddenRoots: [] }).keys()]).toEqual([
      'read',
    ]);
  });

  it('an empty snapshot gives an empty toolbox', () => {
    const snapshot = resolveCapabilities(input({ tools: ['nothing'] }));
    expect(buildToolbox(snapshot, { workspaceRoot: ws, hiddenRoots: [] }).size).toBe(0);
  });

  it("hands deputy's hidden roots to grep, glob and kb_search: a search over them finds nothing", async () => {
    const config = { ...input().config, workspace: ws, dataDir: join(ws, '.deputy') };
    const { hiddenRoots } = deputyRoots({
      ...config,
      userDir: join(ws, 'user'),
      projectRoot: join(ws, 'deputy'),
      skills: { pluginDirs: [] },
    });
    mkdirSync(join(ws, '.deputy', 'memory'), { recursive: true });
    writeFileSync(join(ws, '.deputy', 'memory', 'notes.md'), 'needle in the data dir\n');
    mkdirSync(join(ws, '.subagents'));
    writeFileSync(join(ws, '.subagents', 'config.yaml'), 'needle: in the config\n');
    writeFileSync(join(ws, 'docs', 'open.md'), 'needle in the open\n');
    // A link inside an open folder that leads into the data directory counts as the data directory.
    symlinkSync(join(ws, '.deputy', 'memory', 'notes.md'), join(ws, 'docs', 'linked.md'));
    const snapshot = resolveCapabilities(
      input(
        {
          tools: ['glob', 'grep', 'kb_search'],
          knowledge: [{ name: 'all', glob: '{.deputy,.subagents,docs}/**/*' }],
        },
        { config },
      ),
    );
    const toolbox = buildToolbox(snapshot, { workspaceRoot: ws, hiddenRoots });
    const run = (tool: string, args: Record<string, unknown>) =>
      toolbox.get(tool)!.run(args, context(snapshot));

    const grep = await run('grep', { pattern: 'needle', glob: '**/*', path: '.' });
    expect(grep).toContain('docs/open.md');
    expect(grep).not.toMatch(/in the data dir|in the config/);
    const glob = await run('glob', { pattern: '.deputy/**/*' });
    expect(glob).not.toContain('notes.md');
    const kb = await run('kb_search', { query: 'needle' });
    expect(kb).toContain('docs/open.md');
    expect(kb).not.toMatch(/in the data dir|in the config/);
    expect(kb).toContain("docs/linked.md: deputy's configuration and data are not open to agents");
  });
});

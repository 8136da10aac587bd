import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SUBAGENT_FRAMING } from '../../src/capabilities/prompt.js';
import { resolveCapabilities } from '../../src/capabilities/resolve.js';
import type { CapabilitySnapshot } from '../../src/shared/capability-snapshot.js';
import { ADMIN, ANONYMOUS, USER, input, skillIndex } from './helpers.js';

const names = (snapshot: CapabilitySnapshot): string[] => snapshot.tools.map((tool) => tool.name);
const codes = (snapshot: CapabilitySnapshot): string[] =>
  snapshot.diagnostics.map((diagnostic) => diagnostic.code);
const diagnostic = (snapshot: CapabilitySnapshot, code: string) =>
  snapshot.diagnostics.filter((entry) => entry.code === code);

const BUILTINS = ['read', 'write', 'edit', 'glob', 'grep', 'bash'];

describe('resolveCapabilities: tools', () => {
  it('omitted or empty tools: every permitted tool, and no capability tool without its dimension', () => {
    for (const tools of [null, []]) {
      const snapshot = resolveCapabilities(input({ tools }));
      expect(names(snapshot)).toEqual(BUILTINS);
      expect(snapshot.diagnostics).toEqual([]);
    }
  });

  it('matches case-insensitively and stores the canonical names', () => {
    const snapshot = resolveCapabilities(
      input(
        { tools: ['READ', 'filesystem:GLOB', 'bAsH', 'USE_SKILL'], skills: ['alpha'] },
        { skillIndex: skillIndex('alpha') },
      ),
    );
    expect(names(snapshot)).toEqual(['read', 'glob', 'bash', 'use_skill']);
    expect(snapshot.diagnostics).toEqual([]);
  });

  it('a Provider spec grants all of its tools', () => {
    expect(names(resolveCapabilities(input({ tools: ['FileSystem'] })))).toEqual([
      'read',
      'write',
      'edit',
      'glob',
      'grep',
    ]);
  });

  it('declared entries that all fail give zero tools, with one tool.unknown per spec', () => {
    const specs = ['webgrab', 'FileSystem:nothing', 'Nope:read', '', 'a:b:c'];
    const snapshot = resolveCapabilities(input({ tools: specs }));
    expect(snapshot.tools).toEqual([]);
    const unknown = diagnostic(snapshot, 'tool.unknown');
    expect(unknown.map((entry) => entry.path)).toEqual([0, 1, 2, 3, 4].map((i) => `tools[${i}]`));
    expect(unknown[0]?.message).toContain("'webgrab'");
    expect(unknown[1]?.message).toContain('provider FileSystem has no tool');
    expect(unknown[2]?.message).toContain("no provider 'Nope'");
  });

  it("Claude Code's own tools are tool.claude-only: a warning beside granted tools, saying what to do instead", () => {
    const snapshot = resolveCapabilities(
      input({ tools: ['read', 'WebFetch', 'websearch', 'NotebookEdit', 'TodoWrite'] }),
    );
    expect(names(snapshot)).toEqual(['read']);
    expect(diagnostic(snapshot, 'tool.unknown')).toEqual([]);
    const claudeOnly = diagnostic(snapshot, 'tool.claude-only');
    expect(claudeOnly.map((entry) => `${entry.severity} ${entry.path}`)).toEqual([
      'warning tools[1]',
      'warning tools[2]',
      'warning tools[3]',
      'warning tools[4]',
    ]);
    expect(claudeOnly[0]?.message).toBe(
      "'WebFetch': WebFetch is a Claude Code tool with no deputy equivalent, so nothing is granted; to fetch web pages, declare an MCP server that fetches in mcpServers",
    );
    expect(claudeOnly[1]?.message).toContain('WebSearch is a Claude Code tool');
    expect(claudeOnly[1]?.message).toContain('an MCP server that searches in mcpServers');
  });

  it('tool.claude-only is an error when nothing in the list grants a tool; info in disallowedTools', () => {
    const only = resolveCapabilities(input({ tools: ['WebFetch', 'WebSearch(query)', 'nope'] }));
    expect(only.tools).toEqual([]);
    expect(
      only.diagnostics
        .filter((entry) => entry.code.startsWith('tool.'))
        .map((entry) => `${entry.severity} ${entry.code} ${entry.path}`),
    ).toEqual([
      'error tool.claude-only tools[0]',
      'error tool.claude-only tools[1]',
      'error tool.unknown tools[2]',
    ]);
    const removed = resolveCapabilities(input({ tools: null, disallowedTools: ['WebFetch'] }));
    expect(diagnostic(removed, 'tool.claude-only').map((entry) => entry.severity)).toEqual([
      'info',
    ]);
    expect(diagnostic(removed, 'tool.claude-only')[0]?.message).toContain(
      'there is nothing to remove',
    );
  });

  it('Task is never granted to a delegate, with a reason', () => {
    const snapshot = resolveCapabilities(input({ tools: ['read', 'Task'] }));
    expect(names(snapshot)).toEqual(['read']);
    expect(diagnostic(snapshot, 'tool.unknown')[0]?.message).toContain('cannot delegate further');
  });

  it('disallowedTools is applied after tools resolve', () => {
    const snapshot = resolveCapabilities(
      input({ tools: null, disallowedTools: ['BASH', 'FileSystem:Write', 'nothing'] }),
    );
    expect(names(snapshot)).toEqual(['read', 'edit', 'glob', 'grep']);
    const unknown = diagnostic(snapshot, 'tool.unknown');
    expect(unknown).toHaveLength(1);
    expect(unknown[0]).toMatchObject({ path: 'disallowedTools[2]', severity: 'warning' });
  });

  it('a caller without admin never gets write, edit or bash, even declared', () => {
    const snapshot = resolveCapabilities(
      input({ tools: ['read', 'write', 'Edit', 'bash'] }, { caller: USER }),
    );
    expect(names(snapshot)).toEqual(['read']);
    const hidden = diagnostic(snapshot, 'tool.hidden-by-role');
    expect(hidden.map((entry) => entry.path)).toEqual(['tools[1]', 'tools[2]', 'tools[3]']);
    expect(hidden[0]?.message).toContain("'write'");
    expect(hidden[0]?.message).toContain('hidden by role');
  });

  it('role filtering applies before matching: a Provider spec keeps only the permitted tools', () => {
    const snapshot = resolveCapabilities(input({ tools: ['FileSystem'] }, { caller: USER }));
    expect(names(snapshot)).toEqual(['read', 'glob', 'grep']);
    expect(diagnostic(snapshot, 'tool.hidden-by-role')[0]?.message).toContain('write, edit');
    expect(names(resolveCapabilities(input({ tools: null }, { caller: USER })))).toEqual([
      'read',
      'glob',
      'grep',
    ]);
  });

  it('admin callers and anonymous callers (auth off) are not filtered', () => {
    for (const caller of [ADMIN, ANONYMOUS]) {
      const snapshot = resolveCapabilities(input({ tools: ['write', 'bash'] }, { caller }));
      expect(names(snapshot)).toEqual(['write', 'bash']);
      expect(snapshot.diagnostics).toEqual([]);
    }
  });

  it('records the caller roles, limits, hash and model', () => {
    const snapshot = resolveCapabilities(input({ maxTurns: 7 }, { caller: USER }));
    expect(snapshot.callerRoles).toEqual(['user']);
    expect(snapshot.limits).toEqual({ maxTurns: 7, toolResultMaxChars: 32_000 });
    expect(snapshot.definitionHash).toBe('abc123');
    expect(snapshot.model).toBe('openai/gpt-4o-mini');
    expect(snapshot.level).toBe('project');
  });

  it('naming a capability tool without its dimension mounts nothing, loudly', () => {
    const snapshot = resolveCapabilities(input({ tools: ['kb_search', 'Memory', 'mcp_call'] }));
    expect(snapshot.tools).toEqual([]);
    const entries = diagnostic(snapshot, 'tool.capability-not-declared');
    expect(entries.map((entry) => entry.path)).toEqual(['tools[0]', 'tools[1]', 'tools[2]']);
    expect(entries[0]?.message).toContain('knowledge');
  });

  it('is a pure function: same input, same snapshot, JSON-safe', () => {
    const make = () =>
      input(
        { tools: ['read'], skills: ['alpha'], knowledge: [{ name: 'kb', glob: 'docs/**/*.md' }] },
        { skillIndex: skillIndex('alpha') },
      );
    const first = resolveCapabilities(make());
    expect(resolveCapabilities(make())).toEqual(first);
    expect(JSON.parse(JSON.stringify(first))).toEqual(first);
  });

  it('property: non-admin callers never hold role-gated tools; every declared spec takes effect or is diagnosed', () => {
    const pool = [
      'read',
      'write',
      'edit',
      'glob',
      'grep',
      'bash',
      'FileSystem',
      'Bash',
      'nope',
      'FileSystem:edit',
    ];
    const spec = fc
      .tuple(fc.constantFrom(...pool), fc.array(fc.boolean(), { maxLength: 12 }))
      .map(([name, upper]) =>
        [...name].map((char, i) => (upper[i] === true ? char.toUpperCase() : char)).join(''),
      );
    fc.assert(
      fc.property(fc.array(spec, { minLength: 1, maxLength: 6 }), (tools) => {
        const snapshot = resolveCapabilities(input({ tools }, { caller: USER }));
        for (const tool of snapshot.tools)
          expect(['write', 'edit', 'bash']).not.toContain(tool.name);
        tools.forEach((entry, index) => {
          const lower = entry.toLowerCase();
          const effective = snapshot.tools.some(
            (tool) =>
              tool.name === lower ||
              tool.provider.toLowerCase() === lower ||
              `${tool.provider}:${tool.name}`.toLowerCase() === lower,
          );
          const diagnosed = snapshot.diagnostics.some((d) => d.path === `tools[${index}]`);
          expect(effective || diagnosed).toBe(true);
        });
      }),
    );
  });
});

describe('resolveCapabilities: MCP servers', () => {
  it('mcp:server mounts the gateway; mcp:server:tool exposes mcp__server__tool', () => {
    const snapshot = resolveCapabilities(
      input({ tools: ['read', 'MCP:GitHub', 'mcp:github:create_issue'], mcpServers: ['github'] }),
    );
    expect(names(snapshot)).toEqual([
      'read',
      'mcp_search',
      'mcp_describe',
      'mcp_call',
      'mcp__github__create_issue',
    ]);
    expect(snapshot.tools.at(-1)).toMatchObject({ provider: 'Mcp', toolClass: 'mcp' });
    expect(snapshot.mcpServers).toEqual([
      { name: 'github', approve: ['search_issues'], toolTimeoutSeconds: 30 },
    ]);
    expect(snapshot.diagnostics).toEqual([]);
  });

  it('an MCP tool whose wire name model APIs would refuse is diagnosed, not exposed', () => {
    const snapshot = resolveCapabilities(
      input({ tools: ['mcp:github:create.issue'], mcpServers: ['github'] }),
    );
    expect(names(snapshot)).toEqual(['mcp_search', 'mcp_describe', 'mcp_call']);
    expect(diagnostic(snapshot, 'tool.unknown')[0]?.message).toContain(
      'reach this tool through mcp_call',
    );
  });

  it('disallowing mcp:server takes that server out of the gateway scope and its direct tools', () => {
    const both = resolveCapabilities(
      input({
        tools: ['mcp:github:create_issue', 'mcp:local:echo'],
        mcpServers: ['github', { name: 'local', transport: 'stdio', command: 'srv' }],
        disallowedTools: ['mcp:GITHUB'],
      }),
    );
    expect(both.mcpServers.map((server) => server.name)).toEqual(['local']);
    expect(names(both)).toEqual(['mcp_search', 'mcp_describe', 'mcp_call', 'mcp__local__echo']);
    expect(both.systemPrompt).not.toContain('github');
    const none = resolveCapabilities(
      input({ mcpServers: ['github'], disallowedTools: ['mcp:github'] }),
    );
    expect(none.mcpServers).toEqual([]);
    expect(names(none).join(' ')).not.toMatch(/mcp/);
    expect(none.systemPrompt).not.toMatch(/mcp/i);
  });

  it('mcp:server naming an undeclared server: mcp.not-declared', () => {
    const snapshot = resolveCapabilities(
      input({ tools: ['mcp:gitlab', 'mcp:gitlab:x'], mcpServers: ['github'] }),
    );
    expect(names(snapshot)).toEqual(['mcp_search', 'mcp_describe', 'mcp_call']);
    const entries = diagnostic(snapshot, 'mcp.not-declared');
    expect(entries.map((entry) => entry.path)).toEqual(['tools[0]', 'tools[1]']);
    expect(entries[0]?.message).toContain("'gitlab'");
    expect(entries[0]?.message).toContain('does not declare');
    expect(entries[0]?.message).toContain('declared: github');
  });

  it('a server name absent from config: mcp.not-configured, gateway entry kept', () => {
    const snapshot = resolveCapabilities(input({ mcpServers: ['notion'] }));
    expect(codes(snapshot)).toEqual(['mcp.not-configured']);
    expect(snapshot.diagnostics[0]?.message).toContain("'notion'");
    expect(snapshot.diagnostics[0]?.message).toContain('not in place yet');
    expect(snapshot.mcpServers).toEqual([{ name: 'notion', approve: [], toolTimeoutSeconds: 60 }]);
    expect(names(snapshot)).toContain('mcp_call');
  });

  it('a configured but disabled server: mcp.disabled, a different message from not declared', () => {
    const snapshot = resolveCapabilities(input({ mcpServers: ['JIRA'] }));
    expect(codes(snapshot)).toEqual(['mcp.disabled']);
    expect(snapshot.diagnostics[0]?.message).toContain('configured but disabled: not in place yet');
    expect(snapshot.mcpServers).toEqual([{ name: 'jira', approve: [], toolTimeoutSeconds: 60 }]);
  });

  it('inline servers resolve to refs with their approve list and timeout', () => {
    const snapshot = resolveCapabilities(
      input({
        mcpServers: [
          {
            name: 'local',
            transport: 'stdio',
            command: 'srv',
            approve: ['echo'],
            toolTimeoutSeconds: 0,
          },
          { name: 'LOCAL', transport: 'stdio', command: 'other' },
        ],
      }),
    );
    expect(snapshot.mcpServers).toEqual([
      { name: 'local', approve: ['echo'], toolTimeoutSeconds: 0 },
    ]);
    expect(codes(snapshot)).toEqual(['mcp.duplicate']);
  });

  it('snapshots carry no MCP secrets', () => {
    const snapshot = resolveCapabilities(
      input({
        mcpServers: [
          {
            name: 'web',
            transport: 'http',
            endpoint: 'https://x',
            headers: { authorization: 'Bearer s3cret' },
          },
        ],
      }),
    );
    expect(JSON.stringify(snapshot)).not.toContain('s3cret');
  });
});

describe('resolveCapabilities: skills', () => {
  it('allowlist by name; a missing skill is a diagnostic and absent from the catalog', () => {
    const snapshot = resolveCapabilities(
      input({ skills: ['ALPHA', 'missing'] }, { skillIndex: skillIndex('alpha', 'beta') }),
    );
    expect(snapshot.skills).toEqual([
      { name: 'alpha', description: 'Does alpha things', location: '/skills/alpha/SKILL.md' },
    ]);
    expect(names(snapshot)).toContain('use_skill');
    const missing = diagnostic(snapshot, 'skill.not-found');
    expect(missing).toEqual([expect.objectContaining({ path: 'skills[1]' })]);
    expect(missing[0]?.message).toContain("'missing'");
    expect(snapshot.systemPrompt).toContain(
      '- alpha: Does alpha things (location: /skills/alpha/SKILL.md)',
    );
    expect(snapshot.systemPrompt).not.toContain('beta');
    expect(snapshot.systemPrompt).not.toContain('missing');
  });

  it('a missing skill whose SKILL.md discovery skipped says why', () => {
    const skillProblems = [
      {
        severity: 'warning' as const,
        path: '/ws/.subagents/skills/broken/SKILL.md',
        code: 'skill.invalid',
        message:
          "skill at /ws/.subagents/skills/broken/SKILL.md skipped: skill 'broken' has no description in its frontmatter",
      },
    ];
    const snapshot = resolveCapabilities(input({ skills: ['broken'] }, { skillProblems }));
    expect(diagnostic(snapshot, 'skill.not-found')[0]?.message).toContain(
      "Note: skill at /ws/.subagents/skills/broken/SKILL.md skipped: skill 'broken' has no description",
    );
  });

  it('all declared skills missing: no use_skill and no catalog, only diagnostics', () => {
    const snapshot = resolveCapabilities(input({ skills: ['ghost'] }));
    expect(names(snapshot)).not.toContain('use_skill');
    expect(snapshot.skills).toEqual([]);
    expect(snapshot.systemPrompt).not.toMatch(/skill/i);
    expect(codes(snapshot)).toEqual(['skill.not-found']);
  });

  it('more than 16 skills: a diagnostic naming the ones not loaded', () => {
    const all = Array.from({ length: 18 }, (_, i) => `s${i}`);
    const snapshot = resolveCapabilities(
      input({ skills: all }, { skillIndex: skillIndex(...all) }),
    );
    expect(snapshot.skills).toHaveLength(16);
    const tooMany = diagnostic(snapshot, 'skill.too-many');
    expect(tooMany).toHaveLength(1);
    expect(tooMany[0]?.message).toContain('s16, s17');
  });
});

describe('resolveCapabilities: knowledge', () => {
  it('refuses escaping globs with a diagnostic and drops the source', () => {
    const bad = [
      '/etc/*.md',
      '../outside/*.md',
      'docs\\*.md',
      'docs/\0.md',
      '{..,docs}/*.md',
      'C:/x/*.md',
      'docs/../../x',
    ];
    const snapshot = resolveCapabilities(
      input({
        tools: ['read'],
        knowledge: [
          { name: 'good', glob: 'docs/**/*.md' },
          ...bad.map((glob, i) => ({ name: `bad${i}`, glob })),
        ],
      }),
    );
    expect(snapshot.knowledge).toEqual([{ name: 'good', glob: 'docs/**/*.md' }]);
    const escapes = diagnostic(snapshot, 'knowledge.glob-escapes');
    expect(escapes.map((entry) => entry.path)).toEqual(
      bad.map((_, i) => `knowledge[${i + 1}].glob`),
    );
    for (const entry of escapes) expect(entry.message).toContain('is dropped');
    expect(names(snapshot)).toEqual(['read', 'kb_search']);
  });

  it('knowledge without the read tool: warning knowledge.without-read', () => {
    const knowledge = [{ name: 'kb', glob: 'docs/*.md' }];
    expect(codes(resolveCapabilities(input({ tools: ['grep'], knowledge })))).toEqual([
      'knowledge.without-read',
    ]);
    expect(
      codes(resolveCapabilities(input({ tools: null, disallowedTools: ['read'], knowledge }))),
    ).toEqual(['knowledge.without-read']);
    expect(codes(resolveCapabilities(input({ tools: null, knowledge })))).toEqual([]);
  });

  it('all sources refused: no kb_search and no knowledge section', () => {
    const snapshot = resolveCapabilities(input({ knowledge: [{ name: 'kb', glob: '/abs/*.md' }] }));
    expect(names(snapshot)).not.toContain('kb_search');
    expect(snapshot.systemPrompt).not.toMatch(/knowledge|kb_search/i);
  });
});

describe('resolveCapabilities: memory', () => {
  it('private memory is a directory of this agent; shared is the main one', () => {
    const privateMemory = resolveCapabilities(input({ memory: 'private' }, { caller: USER }));
    expect(privateMemory.memory).toEqual({
      mode: 'private',
      directory: '/ws/.deputy/memory/agents/helper',
    });
    // memory_write is confined to its own directory: no admin role needed for it.
    expect(names(privateMemory)).toEqual([
      'read',
      'glob',
      'grep',
      'memory_write',
      'memory_read',
      'memory_search',
    ]);
    const shared = resolveCapabilities(input({ memory: 'shared' }));
    expect(shared.memory).toEqual({ mode: 'shared', directory: '/ws/.deputy/memory/main' });
  });

  it('an agent name that could escape the memory root mounts no memory', () => {
    const snapshot = resolveCapabilities(input({ name: '../../etc', memory: 'private' }));
    expect(snapshot.memory).toBeNull();
    expect(names(snapshot).join(' ')).not.toMatch(/memory/);
    expect(codes(snapshot)).toEqual(['memory.invalid-agent-name']);
  });

  it('memory tool schemas have no scope or path-root parameter', () => {
    const snapshot = resolveCapabilities(input({ memory: 'private' }));
    for (const tool of snapshot.tools.filter((entry) => entry.provider === 'Memory')) {
      const properties = Object.keys((tool.inputSchema.properties ?? {}) as object);
      expect(properties.every((name) => ['name', 'content', 'query'].includes(name))).toBe(true);
      expect(tool.pathArguments ?? []).toEqual([]);
    }
  });

  it('resident memory goes into the prompt; its tools can be disallowed, dropping the section', () => {
    const residentMemory = { files: [{ name: 'prefs.md', content: 'Likes tea.' }], notes: [] };
    const snapshot = resolveCapabilities(input({ memory: 'private' }, { residentMemory }));
    expect(snapshot.systemPrompt).toContain('## prefs.md\n\nLikes tea.');
    const removed = resolveCapabilities(
      input({ memory: 'private', disallowedTools: ['Memory'] }, { residentMemory }),
    );
    expect(removed.memory).toBeNull();
    expect(removed.systemPrompt).not.toMatch(/memory|tea/i);
    expect(codes(removed)).toEqual(['capability.tools-removed']);
  });
});

describe('resolveCapabilities: undeclared means unreachable', () => {
  it('a definition declaring no dimension leaves no trace in tools or prompt', () => {
    const snapshot = resolveCapabilities(input({ tools: null }));
    expect(snapshot.systemPrompt).toBe(SUBAGENT_FRAMING + 'Do the task well.\n');
    expect(snapshot.systemPrompt).not.toMatch(/skill|kb_search|knowledge|memory|mcp/i);
    expect(names(snapshot).join(' ')).not.toMatch(/skill|kb_search|memory|mcp/);
    expect(snapshot.skills).toEqual([]);
    expect(snapshot.knowledge).toEqual([]);
    expect(snapshot.mcpServers).toEqual([]);
    expect(snapshot.memory).toBeNull();
  });

  it('a declared dimension mounts its tools even with an explicit tools list', () => {
    const snapshot = resolveCapabilities(
      input({ tools: ['read'], knowledge: [{ name: 'kb', glob: 'docs/*.md' }], memory: 'private' }),
    );
    expect(names(snapshot)).toEqual([
      'read',
      'kb_search',
      'memory_write',
      'memory_read',
      'memory_search',
    ]);
    expect(snapshot.systemPrompt).toContain('- kb: docs/*.md');
    expect(snapshot.systemPrompt).not.toMatch(/skill|mcp/i);
  });

  it('keeps the definition diagnostics in the snapshot', () => {
    const base = input();
    base.loaded.diagnostics = [
      { severity: 'warning', path: 'colour', code: 'unknown-key', message: 'x' },
    ];
    expect(codes(resolveCapabilities(base))).toEqual(['unknown-key']);
  });
});

import { describe, expect, it } from 'vitest';
import { parseDefinition } from '../../src/definitions/read/parse.js';
import type { ParseOptions } from '../../src/definitions/read/parse.js';
import { INVALID_TOOLS_SPEC } from '../../src/definitions/read/fields.js';
import { defaultDefinition } from './support.js';

const project: ParseOptions = { fileName: 'helper.md', level: 'project' };
const ecosystem: ParseOptions = { fileName: 'helper.md', level: 'ecosystem' };

function codes(text: string, options: ParseOptions = project): string[] {
  return parseDefinition(text, options).diagnostics.map((d) => `${d.severity}:${d.code}:${d.path}`);
}

describe('parseDefinition: fields and defaults', () => {
  it('applies every default when the frontmatter is empty, name from the file name', () => {
    const { definition, diagnostics } = parseDefinition('---\n---\nBody\n', project);
    expect(definition).toEqual(
      defaultDefinition({ name: 'helper', description: 'helper', systemPrompt: 'Body\n' }),
    );
    expect(diagnostics.map((d) => d.code)).toEqual(['description.missing']);
    expect(diagnostics[0]?.severity).toBe('info');
  });

  it('reads every field', () => {
    const text = `---
name: reviewer
description: Reviews code
model: openai/gpt-4o-mini
tools: [read, grep, "mcp:docs:search"]
disallowedTools: [bash]
skills: [pdf, review]
mcpServers:
  - docs
  - name: local
    transport: stdio
    command: node
    args: [server.js]
    env: { TOKEN: x }
    toolTimeoutSeconds: 5
    approve: [list]
  - name: remote
    transport: http
    endpoint: https://example.com/mcp
    headers: { X-Key: y }
    auth: bearer
knowledge:
  - { name: docs, glob: "docs/**/*.md" }
memory: private
maxTurns: 12
approvalMode: auto-edit
background: true
hooks:
  PreToolUse:
    - command: ./check.sh
      timeoutSeconds: 10
  Stop:
    - command: echo done
color: "#ff0000"
icon: magnifier
displayOrder: -3
---
You review.
`;
    const { definition, diagnostics } = parseDefinition(text, project);
    expect(diagnostics).toEqual([]);
    expect(definition).toMatchObject({
      name: 'reviewer',
      description: 'Reviews code',
      model: 'openai/gpt-4o-mini',
      tools: ['read', 'grep', 'mcp:docs:search'],
      disallowedTools: ['bash'],
      skills: ['pdf', 'review'],
      knowledge: [{ name: 'docs', glob: 'docs/**/*.md' }],
      memory: 'private',
      maxTurns: 12,
      approvalMode: 'auto-edit',
      background: true,
      color: '#ff0000',
      icon: 'magnifier',
      displayOrder: -3,
      systemPrompt: 'You review.\n',
    });
    expect(definition.mcpServers).toEqual([
      'docs',
      {
        name: 'local',
        transport: 'stdio',
        command: 'node',
        args: ['server.js'],
        env: { TOKEN: 'x' },
        toolTimeoutSeconds: 5,
        approve: ['list'],
      },
      {
        name: 'remote',
        transport: 'http',
        endpoint: 'https://example.com/mcp',
        headers: { 'X-Key': 'y' },
        auth: 'bearer',
      },
    ]);
    expect(definition.hooks).toEqual({
      PreToolUse: [{ command: './check.sh', timeoutSeconds: 10 }],
      Stop: [{ command: 'echo done' }],
    });
  });

  it('keeps the body byte for byte, CRLF, trailing spaces and a leading blank line included', () => {
    const body = '\r\n# Title  \r\n\r\n---\nnot frontmatter\n\n\n';
    const text = `---\r\nname: x\r\ndescription: d\r\n---\r\n${body}`;
    expect(parseDefinition(text, project).definition.systemPrompt).toBe(body);
    expect(parseDefinition('---\nname: x\n---', project).definition.systemPrompt).toBe('');
  });

  it('reads a file without frontmatter as body only, named after the file', () => {
    const { definition, diagnostics } = parseDefinition('Just a prompt.\n', {
      fileName: '/a/b/writer.md',
      level: 'user',
    });
    expect(definition.name).toBe('writer');
    expect(definition.description).toBe('writer');
    expect(definition.systemPrompt).toBe('Just a prompt.\n');
    expect(diagnostics.every((d) => d.severity === 'info')).toBe(true);
  });

  it('treats an unclosed frontmatter as body, with an error', () => {
    const { definition } = parseDefinition('---\nname: x\nbody\n', project);
    expect(definition.systemPrompt).toBe('---\nname: x\nbody\n');
    expect(codes('---\nname: x\nbody\n')).toContain('error:frontmatter.unclosed:');
  });
});

describe('parseDefinition: maxTurns aliases', () => {
  it('accepts maxToolRounds and runConfig.max_turns', () => {
    expect(parseDefinition('---\nmaxToolRounds: 7\n---\n', project).definition.maxTurns).toBe(7);
    const legacy = parseDefinition('---\nrunConfig:\n  max_turns: 9\n---\n', project);
    expect(legacy.definition.maxTurns).toBe(9);
    expect(legacy.definition.unknownKeys.runConfig).toEqual({ max_turns: 9 });
    expect(legacy.diagnostics.filter((d) => d.code !== 'description.missing')).toEqual([]);
  });

  it('lets maxTurns win and says when the spellings disagree', () => {
    const result = parseDefinition(
      '---\nrunConfig: { max_turns: 9, max_time_minutes: 3 }\nmaxTurns: 5\nmaxToolRounds: 5\n---\n',
      project,
    );
    expect(result.definition.maxTurns).toBe(5);
    const found = result.diagnostics.map((d) => `${d.code}:${d.path}`);
    expect(found).toContain('maxTurns.conflict:runConfig.max_turns');
    expect(found).toContain('field.unsupported:runConfig');
    expect(found).not.toContain('maxTurns.conflict:maxToolRounds');
  });
});

describe('parseDefinition: tolerant', () => {
  it('turns an unknown key into a warning and keeps it', () => {
    const result = parseDefinition(
      '---\nname: x\ndescription: d\nfavouriteColour: blue\nTools: [read]\n---\n',
      project,
    );
    expect(result.definition.unknownKeys).toEqual({ favouriteColour: 'blue', Tools: ['read'] });
    const tools = result.diagnostics.find((d) => d.path === 'Tools');
    expect(tools?.message).toContain("did you mean 'tools'");
    expect(
      result.diagnostics.every((d) => d.severity === 'warning' && d.code === 'field.unknown'),
    ).toBe(true);
  });

  it('turns wrong types and bad values into errors while the rest loads', () => {
    const text = `---
name: x
description: d
model: 42
maxTurns: 0
memory: everything
approvalMode: yolo
background: "yes"
displayOrder: 1.5
icon: []
hooks: [a]
knowledge:
  - { name: ok, glob: "notes/*.md" }
  - { name: abs, glob: /etc/*.conf }
  - { name: up, glob: "../secrets/*" }
  - just-a-string
mcpServers:
  - name: s1
    transport: http
  - name: s2
    transport: stdio
    command: x
    auth: bearer
  - name: s3
    transport: websocket
  - fine
tools: [read]
---
Body`;
    const { definition, diagnostics } = parseDefinition(text, project);
    expect(definition).toMatchObject({
      name: 'x',
      description: 'd',
      model: 'default',
      maxTurns: 40,
      memory: 'none',
      approvalMode: 'confirm',
      background: false,
      displayOrder: 0,
      icon: 'bot',
      hooks: {},
      knowledge: [{ name: 'ok', glob: 'notes/*.md' }],
      mcpServers: ['fine'],
      tools: ['read'],
      systemPrompt: 'Body',
    });
    const paths = diagnostics.filter((d) => d.severity === 'error').map((d) => d.path);
    expect(paths).toEqual(
      expect.arrayContaining([
        'model',
        'maxTurns',
        'memory',
        'approvalMode',
        'background',
        'displayOrder',
        'icon',
        'hooks',
        'knowledge[1].glob',
        'knowledge[2].glob',
        'knowledge[3]',
        'mcpServers[0].endpoint',
        'mcpServers[1].auth',
        'mcpServers[2].transport',
      ]),
    );
    for (const d of diagnostics) {
      expect(d.message.length).toBeGreaterThan(10);
      expect(['error', 'warning', 'info']).toContain(d.severity);
    }
  });

  it('never turns a broken tools declaration into "every tool"', () => {
    expect(parseDefinition('---\ntools: 5\n---\n', project).definition.tools).toEqual([
      INVALID_TOOLS_SPEC,
    ]);
    expect(parseDefinition('---\ntools: [1, {a: b}]\n---\n', project).definition.tools).toEqual([
      INVALID_TOOLS_SPEC,
    ]);
    expect(parseDefinition('---\ntools: [read, 3]\n---\n', project).definition.tools).toEqual([
      'read',
    ]);
    expect(parseDefinition('---\ntools: []\n---\n', project).definition.tools).toEqual([]);
    expect(parseDefinition('---\ntools:\n---\n', project).definition.tools).toBeNull();
  });

  it('keeps the first 16 skills and reports the rest', () => {
    const skills = Array.from({ length: 18 }, (_, i) => `s${i}`);
    const result = parseDefinition(`---\nskills: [${skills.join(', ')}]\n---\n`, project);
    expect(result.definition.skills).toEqual(skills.slice(0, 16));
    expect(result.diagnostics.find((d) => d.path === 'skills')?.message).toContain('s16, s17');
  });

  it('warns when knowledge is declared without the read tool', () => {
    const text = '---\ntools: [grep]\nknowledge: [{name: n, glob: "*.md"}]\n---\n';
    expect(codes(text)).toContain('warning:knowledge.without-read:knowledge');
    expect(codes(text.replace('[grep]', '[grep, FileSystem]'))).not.toContain(
      'warning:knowledge.without-read:knowledge',
    );
    expect(codes(text.replace('tools: [grep]\n', ''))).not.toContain(
      'warning:knowledge.without-read:knowledge',
    );
  });

  it('reports invalid YAML and loads defaults with the body', () => {
    const result = parseDefinition('---\nname: [unclosed\n---\nBody', project);
    expect(result.definition.name).toBe('helper');
    expect(result.definition.systemPrompt).toBe('Body');
    expect(result.diagnostics.map((d) => d.code)).toContain('frontmatter.invalid-yaml');
  });

  it('reports a frontmatter that is not a mapping', () => {
    expect(codes('---\n- a\n- b\n---\n')).toContain('error:frontmatter.not-a-map:');
  });

  it('normalizes an invalid name, and refuses a path-like one as a key', () => {
    const bad = parseDefinition('---\nname: My Agent\n---\n', {
      fileName: 'Weird Name.md',
      level: 'project',
    });
    expect(bad.definition.name).toBe('my-agent');
    expect(bad.diagnostics.find((d) => d.path === 'name')?.severity).toBe('error');
    const path = parseDefinition('---\nname: ../../etc/passwd\n---\n', {
      fileName: 'x.md',
      level: 'project',
    });
    expect(path.definition.name).toBe('x');
    expect(path.diagnostics.find((d) => d.path === 'name')?.code).toBe('name.path-like');
    const eco = parseDefinition('---\nname: powershell-5.1-expert\n---\n', {
      fileName: 'powershell-5.1-expert.md',
      level: 'ecosystem',
    });
    expect(eco.definition.name).toBe('powershell-5-1-expert');
    expect(eco.diagnostics.find((d) => d.path === 'name')?.severity).toBe('warning');
  });
});

describe('parseDefinition: ecosystem forms', () => {
  const aliases = { sonnet: 'anthropic/claude-sonnet-4' };

  it('reads a comma-separated tools string as a list', () => {
    const { definition } = parseDefinition(
      '---\ntools: Read, Grep,  Bash ,\ndisallowedTools: Write\n---\n',
      ecosystem,
    );
    expect(definition.tools).toEqual(['Read', 'Grep', 'Bash']);
    expect(definition.disallowedTools).toEqual(['Write']);
  });

  it('maps Claude Code MCP tool names to deputy specs', () => {
    const { definition, diagnostics } = parseDefinition(
      '---\ntools: Read, mcp__github__create_issue\n---\n',
      ecosystem,
    );
    expect(definition.tools).toEqual(['Read', 'mcp:github:create_issue']);
    expect(diagnostics.map((d) => d.code)).toContain('tools.mapped');
  });

  it('resolves a model alias through the map, and diagnoses one the map lacks', () => {
    const mapped = parseDefinition('---\nmodel: sonnet\n---\n', { ...ecosystem, aliases });
    expect(mapped.definition.model).toBe('anthropic/claude-sonnet-4');
    const unmapped = parseDefinition('---\nmodel: opus\n---\n', { ...ecosystem, aliases });
    expect(unmapped.definition.model).toBe('default');
    const d = unmapped.diagnostics.find((x) => x.code === 'model.alias-unmapped');
    expect(d?.severity).toBe('warning');
    expect(d?.message).toContain('opus');
  });

  it('reads inherit as default with an info diagnostic', () => {
    const result = parseDefinition('---\nmodel: inherit\n---\n', ecosystem);
    expect(result.definition.model).toBe('default');
    expect(result.diagnostics.find((d) => d.code === 'model.inherit')?.severity).toBe('info');
  });

  it('keeps handles as written', () => {
    for (const model of ['default', 'openai/gpt-4o', 'scripted:agents/scripts/echo.yaml']) {
      const result = parseDefinition(`---\nmodel: "${model}"\n---\n`, ecosystem);
      expect(result.definition.model).toBe(model);
    }
  });

  it('gives a diagnostic for each unsupported field and keeps it', () => {
    const text =
      '---\nname: a\ndescription: d\npermissionMode: acceptEdits\nisolation: worktree\nmemory: project\n---\n';
    const result = parseDefinition(text, ecosystem);
    expect(result.definition.unknownKeys).toEqual({ isolation: 'worktree' });
    expect(result.definition.permissionMode).toBe('acceptEdits');
    expect(result.definition.memory).toBe('private');
    expect(result.diagnostics.map((d) => `${d.severity}:${d.code}:${d.path}`)).toEqual([
      'info:permission-mode.mapped:permissionMode',
      'warning:field.unsupported:isolation',
      'info:memory.scope-mapped:memory',
    ]);
  });

  it('maps Claude Code inline MCP servers and reads its hook form', () => {
    const text = `---
mcpServers:
  - github
  - local: { type: stdio, command: npx, args: [srv] }
hooks:
  PreToolUse:
    - matcher: Bash
      hooks: [{ type: command, command: ./x.sh }]
---
`;
    const { definition, diagnostics } = parseDefinition(text, ecosystem);
    expect(definition.mcpServers).toEqual([
      'github',
      { name: 'local', transport: 'stdio', command: 'npx', args: ['srv'] },
    ]);
    expect(definition.hooks).toEqual({
      PreToolUse: [{ command: './x.sh', matcher: 'Bash', format: 'claude' }],
    });
    expect(diagnostics.filter((d) => d.path.startsWith('hooks'))).toEqual([]);
  });

  it('recovers the unquoted "Triggers on: ..." descriptions common in the wild', () => {
    const text =
      "---\nname: growth\ndescription: Use it. Triggers on: 'growth', 'loops'.\ntools: Read\n---\nBody";
    const { definition, diagnostics } = parseDefinition(text, ecosystem);
    expect(definition.description).toBe("Use it. Triggers on: 'growth', 'loops'.");
    expect(definition.tools).toEqual(['Read']);
    expect(diagnostics.map((d) => `${d.severity}:${d.code}`)).toEqual([
      'warning:frontmatter.yaml-recovered',
    ]);
  });
});

/**
 * `POST /workspace/agents/check`, the agent editor's live validation, in-process over a real
 * registry on real files: what the editor sees for a typo'd tool, a knowledge source without
 * `read`, broken YAML, a valid agent, inline secrets, a bad body, and a caller without `admin`.
 * Nothing is ever written.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AgentCheckSchema } from '../../src/api/agents/check-schemas.js';
import { bearer } from './make-app.js';
import { send, useAuthoringApps } from './authoring-app.js';

const makeApp = useAuthoringApps();

interface CheckDiagnostic {
  severity: 'error' | 'warning' | 'info';
  path: string;
  code: string;
  message: string;
  line?: number;
}
interface Check {
  v: 1;
  valid: boolean;
  agent: Record<string, unknown> & { mcpServers: Record<string, Record<string, unknown>> };
  diagnostics: CheckDiagnostic[];
}

async function check(
  app: Awaited<ReturnType<typeof makeApp>>['app'],
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Check; text: string }> {
  const response = await app.request('/workspace/agents/check', send('POST', body, headers));
  const text = await response.text();
  const parsed = JSON.parse(text) as Check;
  if (response.status === 200) {
    // The documented schema names every field: parsing strips nothing and adds nothing.
    expect(AgentCheckSchema.parse(parsed)).toEqual(parsed);
  }
  return { status: response.status, body: parsed, text };
}

/** The line of the diagnostic with this path and code. */
const lineAt = (answer: Check) => (path: string, code: string) =>
  answer.diagnostics.find((diagnostic) => diagnostic.path === path && diagnostic.code === code)
    ?.line;

const errors = (answer: Check) =>
  answer.diagnostics.filter((diagnostic) => diagnostic.severity === 'error');

const reviewer = {
  name: 'reviewer',
  description: 'Reviews diffs for mistakes',
  systemPrompt: 'You review diffs.\n',
  tools: ['read', 'grep'],
};

describe('POST /workspace/agents/check with `agent` (the create body)', () => {
  it("checks a main agent (one that declares Task) as a session's: Task is not 'unknown'", async () => {
    const { app } = await makeApp();
    const answer = await check(app, {
      source: '---\nname: lead\ndescription: hands work on\ntools: [read, Task]\n---\nLead.\n',
    });
    expect(answer.status).toBe(200);
    expect(answer.body.diagnostics.filter((d) => d.code === 'tool.unknown')).toEqual([]);
  });

  it('passes a valid agent: valid, no error, the detail shape, and nothing written', async () => {
    const { app, workspace, userDir } = await makeApp();
    const { status, body } = await check(app, { agent: reviewer });
    expect(status).toBe(200);
    expect(body.v).toBe(1);
    expect(body.valid).toBe(true);
    expect(errors(body)).toEqual([]);
    expect(body.agent).toMatchObject({
      kind: 'agent',
      name: 'reviewer',
      description: 'Reviews diffs for mistakes',
      level: 'user',
      readOnly: false,
      effective: true,
      tools: ['read', 'grep'],
      systemPrompt: 'You review diffs.\n',
      filePath: join(userDir, 'agents', 'reviewer.md'),
      revisions: [],
    });
    expect(existsSync(join(userDir, 'agents'))).toBe(false);
    expect(existsSync(join(workspace, '.subagents', 'agents'))).toBe(false);
  });

  it('names a typo in tools: tool.unknown at tools[1]; the save itself would still be accepted', async () => {
    const { app } = await makeApp();
    const { status, body } = await check(app, {
      agent: { ...reviewer, tools: ['read', 'gerp'] },
    });
    expect(status).toBe(200);
    expect(body.valid).toBe(true);
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', path: 'tools[1]', code: 'tool.unknown' }),
    );
    expect(body.diagnostics.find((d) => d.code === 'tool.unknown')?.message).toContain("'gerp'");
    // No line without a source.
    expect(body.diagnostics.every((diagnostic) => diagnostic.line === undefined)).toBe(true);
  });

  it('flags knowledge without read: refused on save (valid false) and warned by the parser', async () => {
    const { app } = await makeApp();
    const { body } = await check(app, {
      agent: {
        ...reviewer,
        tools: ['grep', 'kb_search'],
        knowledge: [{ name: 'docs', glob: 'docs/**/*.md' }],
      },
    });
    expect(body.valid).toBe(false);
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', path: 'knowledge', code: 'save.invalid' }),
    );
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ path: 'knowledge', code: 'knowledge.without-read' }),
    );
    expect(body.agent.knowledge).toEqual([{ name: 'docs', glob: 'docs/**/*.md' }]);
  });

  it("turns the create route's 422 issues into error diagnostics at their paths", async () => {
    const { app } = await makeApp();
    const { status, body } = await check(app, {
      agent: { name: 'reviewer', description: '', systemPrompt: 'x', maxTurns: 0, colour: 'red' },
    });
    expect(status).toBe(200);
    expect(body.valid).toBe(false);
    const refused = errors(body)
      .filter((diagnostic) => diagnostic.code === 'save.invalid')
      .map((diagnostic) => diagnostic.path);
    expect(refused).toEqual(expect.arrayContaining(['description', 'maxTurns', 'colour']));
    // The rest of the agent is still read, as the registry would load the file.
    expect(body.agent.name).toBe('reviewer');
  });

  it('reports missing skills and unconfigured MCP servers from resolution', async () => {
    const { app } = await makeApp();
    const { body } = await check(app, {
      agent: {
        ...reviewer,
        tools: ['read', 'mcp:elsewhere'],
        skills: ['no-such-skill'],
        mcpServers: ['nowhere'],
        scope: 'workspace',
      },
    });
    expect(body.agent.level).toBe('project');
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ path: 'tools[1]', code: 'mcp.not-declared' }),
    );
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ path: 'skills[0]', code: 'skill.not-found' }),
    );
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ path: 'mcpServers[0]', code: 'mcp.not-configured' }),
    );
  });

  it('refuses a built-in name as a save would (409), with an error at name', async () => {
    const { app } = await makeApp();
    const { body } = await check(app, { agent: { ...reviewer, name: 'demo' } });
    expect(body.valid).toBe(false);
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'error', path: 'name', code: 'name.reserved' }),
    );
  });

  it('shows inline MCP secrets as __redacted__ and never echoes one, nor a configured secret', async () => {
    const configured = 'sk-configured-0123456789abcdefghij';
    const inline = 'ghp_inline0123456789abcdefghijklmnopqrstu';
    const { app } = await makeApp({
      configYaml: `mcpServers:\n  vault:\n    transport: stdio\n    command: vault-mcp\n    env:\n      VAULT_TOKEN: ${configured}\n`,
    });
    const { status, body, text } = await check(app, {
      agent: {
        ...reviewer,
        description: `Uses ${configured} and ${inline}`,
        tools: ['read', `mcp:${inline}`],
        mcpServers: [
          'vault',
          {
            name: 'github',
            transport: 'stdio',
            command: 'github-mcp',
            env: { GITHUB_TOKEN: inline, PLAIN: 'visible-value' },
          },
        ],
      },
    });
    expect(status).toBe(200);
    expect(body.agent.mcpServers.github?.env).toEqual({
      GITHUB_TOKEN: '__redacted__',
      PLAIN: '__redacted__',
    });
    expect(body.agent.mcpServers.vault).toEqual({});
    expect(text).not.toContain(configured);
    expect(text).not.toContain(inline);
    expect(text).not.toContain('visible-value');
  });

  it('restores __redacted__ from the stored agent, as an edit echoing GET would send it', async () => {
    const { app } = await makeApp();
    const agent = {
      ...reviewer,
      mcpServers: [
        { name: 'github', transport: 'stdio', command: 'gh-mcp', env: { TOKEN: 'tok-1234567' } },
      ],
    };
    const created = await app.request(
      '/workspace/agents',
      send('POST', { ...agent, level: 'user' }),
    );
    expect(created.status).toBe(201);
    const shown = (await created.json()) as { agent: { mcpServers: Record<string, unknown> } };
    const echoed = { ...reviewer, mcpServers: shown.agent.mcpServers };

    const { body } = await check(app, { agent: echoed, level: 'user' });
    expect(body.valid).toBe(true);
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ severity: 'info', path: 'name', code: 'name.exists' }),
    );
    // Elsewhere there is nothing to restore from: the save would refuse the placeholder.
    const elsewhere = await check(app, { agent: echoed, level: 'project' });
    expect(elsewhere.body.valid).toBe(false);
    expect(elsewhere.body.diagnostics).toContainEqual(
      expect.objectContaining({ path: 'mcpServers.0.env.TOKEN', code: 'save.invalid' }),
    );
  });
});

describe('POST /workspace/agents/check with `source` (the whole file)', () => {
  it('puts tool.unknown at tools[1] on the line of that list item', async () => {
    const { app } = await makeApp();
    const source = [
      '---', // 1
      'name: reviewer', // 2
      'description: Reviews diffs', // 3
      '# a comment', // 4
      'tools:', // 5
      '  - read', // 6
      '  - gerp', // 7
      '---', // 8
      'You review diffs.', // 9
      '',
    ].join('\n');
    const { status, body } = await check(app, { source });
    expect(status).toBe(200);
    expect(body.valid).toBe(true);
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ path: 'tools[1]', code: 'tool.unknown', line: 7 }),
    );
    expect(body.agent).toMatchObject({
      name: 'reviewer',
      tools: ['read', 'gerp'],
      systemPrompt: 'You review diffs.\n',
    });
  });

  it('points save refusals, resolution warnings and the prompt at their lines', async () => {
    const { app } = await makeApp();
    const source = [
      '---', // 1
      'name: reviewer', // 2
      'description: Reviews diffs', // 3
      'tools: [grep, kb_search]', // 4
      'knowledge:', // 5
      '  - name: docs', // 6
      '    glob: docs/**/*.md', // 7
      'mcpServers:', // 8
      '  - nowhere', // 9
      '---', // 10
      'Body.', // 11
    ].join('\n');
    const { body } = await check(app, { source });
    expect(body.valid).toBe(false);
    const at = lineAt(body);
    expect(at('knowledge', 'save.invalid')).toBe(5);
    expect(at('knowledge', 'knowledge.without-read')).toBe(5);
    expect(at('mcpServers[0]', 'mcp.not-configured')).toBe(9);

    const typed = [
      '---', // 1
      'name: reviewer', // 2
      'description: Reviews diffs', // 3
      'maxTurns: many', // 4
      'colour: red', // 5
      'hooks:', // 6
      '  PreToolUse:', // 7
      '    - command: ""', // 8
      '---', // 9
      'Body.', // 10
    ].join('\n');
    const second = lineAt((await check(app, { source: typed })).body);
    expect(second('maxTurns', 'save.invalid')).toBe(4);
    expect(second('colour', 'save.invalid')).toBe(5);
    expect(second('colour', 'field.unknown')).toBe(5);
    expect(second('hooks.PreToolUse[0].command', 'save.invalid')).toBe(8);
  });

  it('points a prompt over its limit at the first line of the body', async () => {
    const { app } = await makeApp();
    const source = `---\nname: big\ndescription: d\n---\n${'x'.repeat(300 * 1024)}`;
    const { body } = await check(app, { source });
    expect(body.valid).toBe(false);
    expect(lineAt(body)('systemPrompt', 'save.invalid')).toBe(5);
  });

  it('answers malformed YAML with 200: an error diagnostic on the line of the YAML error', async () => {
    const { app } = await makeApp();
    const source = ['---', 'name: reviewer', 'description: ok', 'tools: [read', '---', 'x'].join(
      '\n',
    );
    const { status, body } = await check(app, { source });
    expect(status).toBe(200);
    expect(body.valid).toBe(false);
    const problem = body.diagnostics.find((d) => d.code === 'frontmatter.invalid-yaml');
    expect(problem).toMatchObject({ severity: 'error', path: '' });
    expect(problem?.line).toBeGreaterThanOrEqual(4);
    expect(problem?.line).toBeLessThanOrEqual(5);
  });

  it('says an unclosed frontmatter is one, on line 1', async () => {
    const { app } = await makeApp();
    const { body } = await check(app, { source: '---\nname: reviewer\nno end\n' });
    expect(body.valid).toBe(false);
    expect(body.diagnostics).toContainEqual(
      expect.objectContaining({ code: 'frontmatter.unclosed', severity: 'error', line: 1 }),
    );
  });

  it('reads a file without frontmatter as all prompt: name and description are missing', async () => {
    const { app } = await makeApp();
    const { body } = await check(app, { source: 'Just a prompt.\n' });
    expect(body.valid).toBe(false);
    expect(errors(body).map((diagnostic) => diagnostic.path)).toEqual(
      expect.arrayContaining(['name', 'description']),
    );
    expect(body.agent.systemPrompt).toBe('Just a prompt.\n');
  });

  it('survives an alias bomb: the field is refused, the answer is small', async () => {
    const { app } = await makeApp();
    const lines = ['---', 'name: bomb', 'description: boom', 'a: &a ["x","x","x","x","x","x"]'];
    for (let index = 1; index < 10; index += 1) {
      const previous = String.fromCharCode(96 + index);
      const next = String.fromCharCode(97 + index);
      lines.push(`${next}: &${next} [*${previous},*${previous},*${previous},*${previous}]`);
    }
    const { status, body, text } = await check(app, {
      source: [...lines, 'tools: *j', '---', 'x'].join('\n'),
    });
    expect(status).toBe(200);
    expect(body.valid).toBe(false);
    expect(text.length).toBeLessThan(200_000);
  });

  it('refuses a source over 1 MiB before reading it (413)', async () => {
    const { app } = await makeApp();
    const response = await app.request(
      '/workspace/agents/check',
      send('POST', { source: `---\nname: big\n---\n${'x'.repeat(1024 * 1024)}` }),
    );
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject({ error: 'payload_too_large' });
  });

  it('keeps many diagnostics bounded and says how many were cut', async () => {
    const { app } = await makeApp();
    const tools = Array.from({ length: 800 }, (_, index) => `  - nope${index}`);
    const { body } = await check(app, {
      source: ['---', 'name: many', 'description: d', 'tools:', ...tools, '---', 'x'].join('\n'),
    });
    expect(body.diagnostics.length).toBe(500);
    expect(body.diagnostics.at(-1)).toMatchObject({ code: 'diagnostics.truncated' });
    expect(body.diagnostics[0]).toMatchObject({ path: 'tools[0]', code: 'tool.unknown', line: 5 });
  });
});

describe('POST /workspace/agents/check: refusals', () => {
  it.each([
    ['an empty body', {}],
    ['both shapes', { source: '---\nname: a\n---\n', agent: { name: 'a' } }],
    ['a source that is not text', { source: 42 }],
    ['an agent that is not an object', { agent: ['name'] }],
    ['an unknown key', { agent: reviewer, extra: true }],
    ['an unknown level', { agent: reviewer, level: 'builtin' }],
  ])('answers 422 invalid_request for %s', async (_what, requestBody) => {
    const { app } = await makeApp();
    const response = await app.request('/workspace/agents/check', send('POST', requestBody));
    expect(response.status).toBe(422);
    const body = (await response.json()) as { error: string; issues: unknown[] };
    expect(body.error).toBe('invalid_request');
    expect(body.issues.length).toBeGreaterThan(0);
  });

  it('answers 422 for an agent nested deeper than any field, without walking it', async () => {
    const { app } = await makeApp();
    const deep = `${'['.repeat(40)}${']'.repeat(40)}`;
    const response = await app.request(
      '/workspace/agents/check',
      send('POST', `{"agent": {"name": "a", "mcpServers": ${deep}}}`),
    );
    expect(response.status).toBe(422);
  });

  it('needs the admin role with auth on: 403 for others, 200 for an admin', async () => {
    const { app, userDir } = await makeApp({ auth: true });
    for (const who of ['reader', 'owner'] as const) {
      const refused = await app.request(
        '/workspace/agents/check',
        send('POST', { agent: reviewer }, bearer(who)),
      );
      expect(refused.status).toBe(403);
      expect(await refused.json()).toMatchObject({ error: 'forbidden' });
    }
    const anonymous = await app.request(
      '/workspace/agents/check',
      send('POST', { agent: reviewer }),
    );
    expect(anonymous.status).toBe(401);
    const { status, body } = await check(app, { agent: reviewer }, bearer('admin'));
    expect(status).toBe(200);
    expect(body.valid).toBe(true);
    expect(existsSync(join(userDir, 'agents'))).toBe(false);
  });
});

/**
 * The agent authoring routes in-process, over a real registry on real files:
 * every status code, what lands on disk, and the qwen-code daemon shapes its SDK reads.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import {
  AgentDetailSchema,
  AgentListSchema,
  AgentMutationSchema,
} from '../../src/api/agents/schemas.js';
import { ModelCatalogSchema, ToolCatalogSchema } from '../../src/api/workspace/catalog-schemas.js';
import { bearer } from './make-app.js';
import { send, useAuthoringApps } from './authoring-app.js';

const makeApp = useAuthoringApps();

const projectFile = (workspace: string, name: string) =>
  join(workspace, '.subagents', 'agents', `${name}.md`);

const reviewer = {
  name: 'reviewer',
  description: 'Reviews diffs for mistakes',
  systemPrompt: 'You review diffs.\n',
  scope: 'workspace',
  tools: ['read', 'grep'],
  approvalMode: 'confirm',
  maxTurns: 8,
};

type Json = Record<string, unknown> & { agent?: Record<string, unknown> };

async function json(response: Response): Promise<Json> {
  return (await response.json()) as Json;
}

describe('GET /workspace/agents', () => {
  it("lists every agent in qwen-code's envelope without prompt, servers or hooks", async () => {
    const { app, workspace } = await makeApp();
    await app.request(
      '/workspace/agents',
      send('POST', {
        ...reviewer,
        mcpServers: { github: {} },
        hooks: { PreToolUse: [{ command: 'true' }] },
        permissionMode: 'plan',
        runConfig: { max_turns: 8 },
      }),
    );
    const response = await app.request('/workspace/agents');
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      v: number;
      workspaceCwd: string;
      agents: Array<Record<string, unknown>>;
    };
    expect(body.v).toBe(1);
    expect(body.workspaceCwd).toBe(workspace);
    const demo = body.agents.find((agent) => agent.name === 'demo');
    expect(demo).toMatchObject({
      kind: 'agent',
      level: 'builtin',
      isBuiltin: true,
      readOnly: true,
      hasTools: true,
      tools: ['read', 'write', 'glob'],
    });
    const mine = body.agents.find((agent) => agent.name === 'reviewer')!;
    expect(mine).toMatchObject({
      kind: 'agent',
      description: 'Reviews diffs for mistakes',
      level: 'project',
      isBuiltin: false,
      readOnly: false,
      effective: true,
      hasTools: true,
      tools: ['read', 'grep'],
      disallowedTools: [],
      model: 'default',
      approvalMode: 'confirm',
      permissionMode: 'plan',
      // approvalMode was sent too, and wins (a permission-mode.overridden warning says so).
      effectivePolicy: { approvalMode: 'confirm', flags: {} },
      maxTurns: 8,
      runConfig: { max_turns: 8 },
      background: false,
      color: '#31AEE4',
      mcpServerNames: ['github'],
      hookEvents: ['PreToolUse'],
      filePath: projectFile(workspace, 'reviewer'),
    });
    // Two warnings the count carries: permissionMode and approvalMode are both set (approvalMode
    // wins), and server 'github' is declared but not configured (what resolution would say).
    expect(mine.diagnosticCount).toEqual({ total: 2, error: 0, warning: 2, info: 0 });
    for (const hidden of ['systemPrompt', 'mcpServers', 'hooks'])
      expect(mine).not.toHaveProperty(hidden);
  });
});

describe('the effective policy', () => {
  it('shows what a permissionMode maps to when the file sets no approvalMode', async () => {
    const { app } = await makeApp();
    const withoutMode: Record<string, unknown> = { ...reviewer };
    delete withoutMode.approvalMode;
    const created = await json(
      await app.request(
        '/workspace/agents',
        send('POST', { ...withoutMode, permissionMode: 'bypassPermissions' }),
      ),
    );
    expect(created.agent).toMatchObject({
      approvalMode: 'confirm',
      permissionMode: 'bypassPermissions',
      effectivePolicy: { approvalMode: 'full-access', flags: { protectInFullAccess: true } },
    });
  });
});

describe('POST /workspace/agents', () => {
  it('creates at the project level, writes the file and answers the detail', async () => {
    const { app, workspace, registry } = await makeApp();
    const response = await app.request('/workspace/agents', send('POST', reviewer));
    expect(response.status).toBe(201);
    const body = await json(response);
    expect(body.ok).toBe(true);
    expect(body.agent).toMatchObject({ name: 'reviewer', systemPrompt: 'You review diffs.\n' });
    const text = readFileSync(projectFile(workspace, 'reviewer'), 'utf8');
    expect(text).toBe(
      '---\nname: reviewer\ndescription: Reviews diffs for mistakes\ntools:\n  - read\n  - grep\nmaxTurns: 8\napprovalMode: confirm\n---\nYou review diffs.\n',
    );
    // The registry reloaded before the answer: the next delegation resolves it.
    expect(registry.get('reviewer')?.level).toBe('project');
  });

  it('creates at the user level for scope global, and level names work too', async () => {
    const { app, userDir } = await makeApp();
    const global = await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, scope: 'global' }),
    );
    expect(global.status).toBe(201);
    expect(existsSync(join(userDir, 'agents', 'reviewer.md'))).toBe(true);
    const byLevel = await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, name: 'other', scope: undefined, level: 'user' }),
    );
    expect(byLevel.status).toBe(201);
    const clash = await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, name: 'third', scope: 'workspace', level: 'user' }),
    );
    expect(clash.status).toBe(422);
    expect(await json(clash)).toMatchObject({
      code: 'invalid_config',
      issues: [{ path: 'scope' }],
    });
  });

  it('refuses invalid input with 422 invalid_config and every issue, writing nothing', async () => {
    const { app, workspace } = await makeApp();
    const response = await app.request(
      '/workspace/agents',
      send('POST', {
        ...reviewer,
        tools: 'read',
        approvalMode: 'yolo',
        maxTurns: 0,
        colour: 'red',
        mcpServers: [{ name: 'web', transport: 'http' }],
      }),
    );
    expect(response.status).toBe(422);
    const body = (await response.json()) as {
      error: string;
      code: string;
      issues: Array<{ path: string }>;
    };
    expect(body.error).toBe('invalid_config');
    expect(body.code).toBe('invalid_config');
    const paths = body.issues.map((issue) => issue.path);
    expect(paths).toEqual(expect.arrayContaining(['tools', 'approvalMode', 'maxTurns', 'colour']));
    expect(existsSync(projectFile(workspace, 'reviewer'))).toBe(false);

    const server = await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, mcpServers: [{ name: 'web', transport: 'http' }] }),
    );
    expect(server.status).toBe(422);
    expect(await json(server)).toMatchObject({ issues: [{ path: 'mcpServers[0].endpoint' }] });
    const knowledge = await app.request(
      '/workspace/agents',
      send('POST', {
        ...reviewer,
        tools: ['grep'],
        knowledge: [{ name: 'docs', glob: 'docs/**' }],
      }),
    );
    expect(knowledge.status).toBe(422);
    expect(await json(knowledge)).toMatchObject({ issues: [{ path: 'knowledge' }] });
    expect(existsSync(projectFile(workspace, 'reviewer'))).toBe(false);
  });

  it('checks the name rule first, then built-in names (409 agent_name_reserved), then the level (409 agent_already_exists)', async () => {
    const { app } = await makeApp();
    const badName = await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, name: 'Bad_Name' }),
    );
    expect(badName.status).toBe(422);
    expect(await json(badName)).toMatchObject({
      code: 'invalid_config',
      issues: [{ path: 'name' }],
    });

    const builtin = await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, name: 'demo' }),
    );
    expect(builtin.status).toBe(409);
    const reserved = await json(builtin);
    expect(reserved.code).toBe('agent_name_reserved');
    expect(reserved.message).toMatch(/built-in/);

    expect((await app.request('/workspace/agents', send('POST', reviewer))).status).toBe(201);
    const again = await app.request('/workspace/agents', send('POST', reviewer));
    expect(again.status).toBe(409);
    expect(await json(again)).toMatchObject({ code: 'agent_already_exists' });
  });

  it("refuses a '__proto__' server or env name instead of dropping it", async () => {
    const { app, workspace } = await makeApp();
    const server = '{"transport":"stdio","command":"npx"}';
    for (const body of [
      `{"name":"reviewer","description":"d","systemPrompt":"x","mcpServers":{"__proto__":${server}}}`,
      `{"name":"reviewer","description":"d","systemPrompt":"x","mcpServers":[{"name":"s","transport":"stdio","command":"npx","env":{"__proto__":"v"}}]}`,
    ]) {
      const response = await app.request('/workspace/agents', send('POST', body));
      expect(response.status).toBe(422);
      expect(JSON.stringify(await response.json())).toContain('__proto__');
    }
    expect(existsSync(projectFile(workspace, 'reviewer'))).toBe(false);
  });

  it('answers 400 for a body that is not JSON', async () => {
    const { app } = await makeApp();
    const response = await app.request('/workspace/agents', send('POST', '{"name": "x",'));
    expect(response.status).toBe(400);
    expect(await json(response)).toMatchObject({ code: 'invalid_json' });
  });
});

describe('models on save (MOD)', () => {
  const catalog =
    'models:\n  default: openai/gpt-4o-mini\n  catalog:\n    openai/gpt-4o-mini: { provider: openai, model: gpt-4o-mini }\n';

  it('refuses a handle that is not in the catalog and accepts default, catalog handles and scripted models', async () => {
    const { app } = await makeApp({ configYaml: catalog });
    const unknown = await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, model: 'openai/gpt-9' }),
    );
    expect(unknown.status).toBe(422);
    expect(await json(unknown)).toMatchObject({
      issues: [{ path: 'model', message: expect.stringContaining('openai/gpt-4o-mini') }],
    });
    for (const [name, model] of [
      ['a', 'default'],
      ['b', 'openai/gpt-4o-mini'],
      ['c', 'scripted:scripts/x.yaml'],
    ] as const) {
      const response = await app.request(
        '/workspace/agents',
        send('POST', { ...reviewer, name, model }),
      );
      expect(response.status).toBe(201);
    }
  });

  it('refuses an agent with no model it could run on when no model is configured', async () => {
    const { app } = await makeApp({ configYaml: 'models:\n  default: openai/gpt-4o-mini\n' });
    const response = await app.request('/workspace/agents', send('POST', reviewer));
    expect(response.status).toBe(422);
    expect(await json(response)).toMatchObject({
      issues: [{ path: 'model', message: expect.stringContaining('no model is configured') }],
    });
    const scripted = await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, model: 'scripted:scripts/x.yaml' }),
    );
    expect(scripted.status).toBe(201);
  });

  it("counts and shows what resolution finds, not only the load: a typo'd tool name", async () => {
    const { app, workspace, registry } = await makeApp();
    mkdirSync(join(workspace, '.subagents', 'agents'), { recursive: true });
    writeFileSync(
      projectFile(workspace, 'typist'),
      '---\nname: typist\ndescription: d\ntools: [read, wirte]\n---\nx\n',
    );
    await registry.reload();
    const list = await json(await app.request('/workspace/agents'));
    const typist = (list.agents as Array<Record<string, unknown>>).find((a) => a.name === 'typist');
    expect(typist?.diagnosticCount).toEqual({ total: 1, error: 1, warning: 0, info: 0 });
    const detail = await json(await app.request('/workspace/agents/typist'));
    expect(detail.diagnostics).toEqual([
      expect.objectContaining({ code: 'tool.unknown', path: 'tools[1]', severity: 'error' }),
    ]);
  });

  it("resolves a main agent (one that declares Task) as a session's, so Task is not 'unknown'", async () => {
    const { app } = await makeApp();
    const main = await json(await app.request('/workspace/agents/main'));
    expect(main.tools).toContain('Task');
    expect(main.diagnostics).toEqual([]);
  });

  it('shows a token budget in the list and the detail, and nothing when there is none', async () => {
    const { app, workspace, registry } = await makeApp();
    mkdirSync(join(workspace, '.subagents', 'agents'), { recursive: true });
    writeFileSync(
      projectFile(workspace, 'frugal'),
      '---\nname: frugal\ndescription: d\nmaxTokens: 5000\n---\nx\n',
    );
    await registry.reload();
    expect(await json(await app.request('/workspace/agents/frugal'))).toMatchObject({
      maxTokens: 5000,
    });
    const list = await json(await app.request('/workspace/agents'));
    const agents = list.agents as Array<Record<string, unknown>>;
    expect(agents.find((a) => a.name === 'frugal')).toMatchObject({ maxTokens: 5000 });
    expect(agents.find((a) => a.name === 'demo')).not.toHaveProperty('maxTokens');
  });

  it('reports a file whose model is not in the catalog as a diagnostic at load time', async () => {
    const { app, workspace, registry } = await makeApp({ configYaml: catalog });
    mkdirSync(join(workspace, '.subagents', 'agents'), { recursive: true });
    writeFileSync(
      projectFile(workspace, 'hand'),
      '---\nname: hand\ndescription: d\nmodel: openai/gone\n---\nx\n',
    );
    await registry.reload();
    const detail = await json(await app.request('/workspace/agents/hand'));
    expect(detail.diagnostics).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ code: 'model.not-in-catalog', path: 'model' }),
      ]),
    );
  });
});

describe('GET /workspace/agents/:name', () => {
  it('answers the detail with prompt, servers, hooks, diagnostics and revisions; 404 agent_not_found otherwise', async () => {
    const { app } = await makeApp();
    await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, hooks: { Stop: [{ command: 'echo done' }] } }),
    );
    const response = await app.request('/workspace/agents/reviewer');
    expect(response.status).toBe(200);
    const detail = await json(response);
    expect(detail).toMatchObject({
      name: 'reviewer',
      systemPrompt: 'You review diffs.\n',
      mcpServers: {},
      hooks: { Stop: [{ command: 'echo done' }] },
      diagnostics: [],
      revisions: [],
    });
    const builtin = await app.request('/workspace/agents/demo');
    expect(builtin.status).toBe(200);
    expect(await json(builtin)).toMatchObject({ isBuiltin: true, readOnly: true });
    for (const path of [
      '/workspace/agents/nobody',
      '/workspace/agents/Bad..Name',
      `/workspace/agents/${'x'.repeat(5000)}`,
    ]) {
      const missing = await app.request(path);
      expect(missing.status).toBe(404);
      const body = await json(missing);
      expect(body.code).toBe('agent_not_found');
      expect(String(body.message).length).toBeLessThan(300);
    }
  });
});

describe('updating', () => {
  it('changes only the fields sent, by POST or PATCH; [] and null clear; a no-op says changed: false', async () => {
    const { app, workspace } = await makeApp();
    await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, color: '#ff0000', skills: ['x'] }),
    );
    const path = projectFile(workspace, 'reviewer');
    writeFileSync(
      path,
      readFileSync(path, 'utf8').replace(
        'maxTurns: 8',
        '# kept comment\nmaxTurns: 8\nvendorKey: 1',
      ),
    );

    const post = await app.request(
      '/workspace/agents/reviewer',
      send('POST', { description: 'Reviews carefully' }),
    );
    expect(post.status).toBe(200);
    expect(await json(post)).toMatchObject({
      ok: true,
      changed: true,
      agent: { description: 'Reviews carefully' },
    });
    const patch = await app.request(
      '/workspace/agents/reviewer',
      send('PATCH', { tools: [], color: null, skills: [], systemPrompt: 'New body.\n' }),
    );
    expect(patch.status).toBe(200);
    const text = readFileSync(path, 'utf8');
    expect(text).toContain('# kept comment');
    expect(text).toContain('vendorKey: 1');
    expect(text).not.toContain('tools');
    expect(text).not.toContain('color');
    expect(text).not.toContain('skills');
    expect(text.endsWith('---\nNew body.\n')).toBe(true);

    const same = await app.request(
      '/workspace/agents/reviewer',
      send('POST', { description: 'Reviews carefully' }),
    );
    expect(await json(same)).toMatchObject({ changed: false });
    const revisions = (await json(await app.request('/workspace/agents/reviewer/revisions')))
      .revisions as unknown[];
    expect(revisions).toHaveLength(2);
  });

  it('takes back the whole detail unchanged as no change: no default is written, no revision kept', async () => {
    const { app, workspace } = await makeApp();
    await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, hooks: { Stop: [{ command: 'x' }] } }),
    );
    const path = projectFile(workspace, 'reviewer');
    const before = readFileSync(path, 'utf8');
    const detail = await json(await app.request('/workspace/agents/reviewer'));
    const form = Object.fromEntries(
      Object.entries(detail).filter(([key]) =>
        [
          'description',
          'systemPrompt',
          'tools',
          'disallowedTools',
          'model',
          'approvalMode',
          'maxTurns',
          'background',
          'color',
          'icon',
          'displayOrder',
          'skills',
          'knowledge',
          'memory',
          'mcpServers',
          'hooks',
        ].includes(key),
      ),
    );
    const echoed = await app.request('/workspace/agents/reviewer', send('POST', form));
    expect(await json(echoed)).toMatchObject({ changed: false });
    expect(readFileSync(path, 'utf8')).toBe(before);
  });

  it('keeps runConfig.max_turns and maxTurns in step and refuses a disagreement', async () => {
    const { app, workspace } = await makeApp();
    await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, maxTurns: undefined, runConfig: { max_turns: 5 } }),
    );
    const path = projectFile(workspace, 'reviewer');
    expect(readFileSync(path, 'utf8')).toContain('runConfig:\n  max_turns: 5');
    const updated = await app.request(
      '/workspace/agents/reviewer',
      send('POST', { runConfig: { max_turns: 9 } }),
    );
    expect(await json(updated)).toMatchObject({
      agent: { maxTurns: 9, runConfig: { max_turns: 9 } },
    });
    const disagree = await app.request(
      '/workspace/agents/reviewer',
      send('POST', { maxTurns: 3, runConfig: { max_turns: 4 } }),
    );
    expect(disagree.status).toBe(422);
    const unsupported = await app.request(
      '/workspace/agents/reviewer',
      send('POST', { runConfig: { max_time_minutes: 4 } }),
    );
    expect(unsupported.status).toBe(422);
    expect(readFileSync(path, 'utf8')).toContain('max_turns: 9');
  });

  it('refuses built-ins (403 agent_readonly), unknown names (404), renames and empty bodies (422)', async () => {
    const { app } = await makeApp();
    for (const method of ['POST', 'PATCH', 'DELETE']) {
      const response = await app.request(
        '/workspace/agents/demo',
        send(method, method === 'DELETE' ? undefined : { description: 'x' }),
      );
      expect(response.status).toBe(403);
      const body = await json(response);
      expect(body.code).toBe('agent_readonly');
      expect(body.message).toMatch(/built-in/);
    }
    expect(
      (await app.request('/workspace/agents/nobody', send('POST', { description: 'x' }))).status,
    ).toBe(404);
    await app.request('/workspace/agents', send('POST', reviewer));
    const rename = await app.request('/workspace/agents/reviewer', send('POST', { name: 'other' }));
    expect(rename.status).toBe(422);
    const empty = await app.request('/workspace/agents/reviewer', send('POST', {}));
    expect(empty.status).toBe(422);
    const unknownField = await app.request(
      '/workspace/agents/reviewer',
      send('POST', { scope: 'global' }),
    );
    expect(unknownField.status).toBe(422);
  });

  it('picks the level with ?scope= when a name exists at both', async () => {
    const { app, workspace, userDir } = await makeApp();
    await app.request('/workspace/agents', send('POST', reviewer));
    await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, scope: 'global', description: 'user one' }),
    );
    const globalDetail = await json(await app.request('/workspace/agents/reviewer?scope=global'));
    expect(globalDetail).toMatchObject({
      level: 'user',
      description: 'user one',
      effective: false,
    });
    const update = await app.request(
      '/workspace/agents/reviewer?scope=global',
      send('POST', { description: 'user one, edited' }),
    );
    expect(update.status).toBe(200);
    expect(readFileSync(join(userDir, 'agents', 'reviewer.md'), 'utf8')).toContain(
      'user one, edited',
    );
    expect(readFileSync(projectFile(workspace, 'reviewer'), 'utf8')).toContain(
      'Reviews diffs for mistakes',
    );
    const remove = await app.request('/workspace/agents/reviewer?scope=global', send('DELETE'));
    expect(remove.status).toBe(204);
    expect(existsSync(join(userDir, 'agents', 'reviewer.md'))).toBe(false);
    expect(existsSync(projectFile(workspace, 'reviewer'))).toBe(true);
    const bad = await app.request('/workspace/agents/reviewer?scope=everywhere');
    expect(bad.status).toBe(422);
  });
});

describe('delete, revisions, restore, duplicate', () => {
  it('deletes with 204, keeps the last revision restorable, restores it', async () => {
    const { app, workspace } = await makeApp();
    await app.request('/workspace/agents', send('POST', reviewer));
    const original = readFileSync(projectFile(workspace, 'reviewer'), 'utf8');
    const removed = await app.request('/workspace/agents/reviewer', send('DELETE'));
    expect(removed.status).toBe(204);
    expect(await removed.text()).toBe('');
    expect(existsSync(projectFile(workspace, 'reviewer'))).toBe(false);
    expect((await app.request('/workspace/agents/reviewer')).status).toBe(404);
    const again = await app.request('/workspace/agents/reviewer', send('DELETE'));
    expect(again.status).toBe(404);
    expect(await json(again)).toMatchObject({ code: 'agent_not_found' });

    const list = await json(await app.request('/workspace/agents/reviewer/revisions'));
    const revisions = list.revisions as Array<{ id: string; level: string }>;
    expect(revisions).toHaveLength(1);
    const restored = await app.request(
      `/workspace/agents/reviewer/revisions/${revisions[0]!.id}/restore`,
      send('POST'),
    );
    expect(restored.status).toBe(200);
    expect(readFileSync(projectFile(workspace, 'reviewer'), 'utf8')).toBe(original);
    const unknown = await app.request(
      '/workspace/agents/reviewer/revisions/20990101T000000000Z-deadbeef/restore',
      send('POST'),
    );
    expect(unknown.status).toBe(404);
    expect((await app.request('/workspace/agents/nobody/revisions')).status).toBe(404);
  });

  it('duplicates a built-in with every field to the user level; name rules apply to the copy', async () => {
    const { app, userDir } = await makeApp();
    const copy = await app.request(
      '/workspace/agents/demo/duplicate',
      send('POST', { name: 'my-demo' }),
    );
    expect(copy.status).toBe(201);
    expect(await json(copy)).toMatchObject({
      agent: {
        name: 'my-demo',
        level: 'user',
        readOnly: false,
        tools: ['read', 'write', 'glob'],
        maxTurns: 6,
      },
    });
    const source = readFileSync(join(import.meta.dirname, '../../agents/demo.md'), 'utf8');
    expect(readFileSync(join(userDir, 'agents', 'my-demo.md'), 'utf8')).toBe(
      source.replace('name: demo', 'name: my-demo'),
    );
    const reserved = await app.request(
      '/workspace/agents/my-demo/duplicate',
      send('POST', { name: 'demo' }),
    );
    expect(reserved.status).toBe(409);
    expect(await json(reserved)).toMatchObject({ code: 'agent_name_reserved' });
    const taken = await app.request(
      '/workspace/agents/demo/duplicate',
      send('POST', { name: 'my-demo' }),
    );
    expect(taken.status).toBe(409);
    expect(await json(taken)).toMatchObject({ code: 'agent_already_exists' });
    const toProject = await app.request(
      '/workspace/agents/demo/duplicate',
      send('POST', { name: 'my-demo', scope: 'workspace' }),
    );
    expect(toProject.status).toBe(201);
    const badName = await app.request(
      '/workspace/agents/demo/duplicate',
      send('POST', { name: 'No' }),
    );
    expect(badName.status).toBe(422);
    expect(
      (await app.request('/workspace/agents/nobody/duplicate', send('POST', { name: 'x' }))).status,
    ).toBe(404);
  });
});

describe('MCP secrets never cross the HTTP boundary', () => {
  const SECRET = 'sk-live-4f9a8b7c6d5e4f3a2b1c';
  const HEADER = 'hdr-7d6c5b4a39281706f5e4';
  const OAUTH = 'oauth-0a1b2c3d4e5f60718293';
  const server = {
    name: 'tracker',
    transport: 'http',
    endpoint: 'https://tracker.example/mcp',
    headers: { Authorization: `Bearer ${HEADER}` },
    oauth: { clientId: 'deputy', clientSecret: OAUTH },
  };
  const local = {
    name: 'local',
    transport: 'stdio',
    command: 'npx',
    args: ['srv'],
    env: { TOKEN: SECRET, MODE: 'fast' },
  };

  it('answers __redacted__, and a GET -> edit -> POST round trip keeps every secret on disk', async () => {
    const { app, workspace, logs } = await makeApp();
    const created = await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, mcpServers: [server, local] }),
    );
    expect(created.status).toBe(201);
    const createdText = await created.text();
    const detailResponse = await app.request('/workspace/agents/reviewer');
    const detailText = await detailResponse.text();
    const listText = await (await app.request('/workspace/agents')).text();
    for (const text of [createdText, detailText, listText, logs.join('\n')]) {
      for (const secret of [SECRET, HEADER, OAUTH]) expect(text).not.toContain(secret);
    }
    const detail = JSON.parse(detailText) as {
      mcpServers: Record<string, Record<string, unknown>>;
    };
    expect(detail.mcpServers.tracker).toMatchObject({
      headers: { Authorization: '__redacted__' },
      oauth: { clientId: 'deputy', clientSecret: '__redacted__' },
    });
    expect(detail.mcpServers.local).toMatchObject({
      env: { TOKEN: '__redacted__', MODE: '__redacted__' },
    });

    // What an editor does: send back what it got, with one change of its own.
    const edited = {
      ...detail.mcpServers,
      local: { ...detail.mcpServers.local, args: ['srv', '--fast'] },
    };
    const saved = await app.request(
      '/workspace/agents/reviewer',
      send('POST', { mcpServers: edited, description: 'edited' }),
    );
    expect(saved.status).toBe(200);
    const text = readFileSync(projectFile(workspace, 'reviewer'), 'utf8');
    for (const secret of [SECRET, HEADER, OAUTH]) expect(text).toContain(secret);
    expect(text).toContain('--fast');
    expect(text).not.toContain('__redacted__');
  });

  it('restores a created server from the workspace settings, and refuses a placeholder nothing stands behind', async () => {
    const { app, workspace } = await makeApp({
      configYaml: `mcpServers:\n  local:\n    transport: stdio\n    command: npx\n    env: { TOKEN: "\${LOCAL_TOKEN}" }\n`,
    });
    const restored = await app.request(
      '/workspace/agents',
      send('POST', {
        ...reviewer,
        mcpServers: {
          local: { transport: 'stdio', command: 'npx', env: { TOKEN: '__redacted__' } },
        },
      }),
    );
    expect(restored.status).toBe(201);
    expect(readFileSync(projectFile(workspace, 'reviewer'), 'utf8')).toContain('${LOCAL_TOKEN}');

    const orphan = await app.request(
      '/workspace/agents',
      send('POST', {
        ...reviewer,
        name: 'orphan',
        mcpServers: [{ ...local, name: 'elsewhere', env: { TOKEN: '__redacted__' } }],
      }),
    );
    expect(orphan.status).toBe(422);
    expect(await json(orphan)).toMatchObject({ issues: [{ path: 'mcpServers.0.env.TOKEN' }] });
    const placeholderPrompt = await app.request(
      '/workspace/agents',
      send('POST', { ...reviewer, name: 'orphan', systemPrompt: 'Use __redacted__ here' }),
    );
    expect(placeholderPrompt.status).toBe(422);
    expect(existsSync(projectFile(workspace, 'orphan'))).toBe(false);
  });
});

describe('authoring needs the admin role', () => {
  it('lets any caller list, and only an admin read in full or change anything', async () => {
    const { app, workspace } = await makeApp({ auth: true });
    expect((await app.request('/workspace/agents')).status).toBe(401);
    expect((await app.request('/workspace/agents', { headers: bearer('reader') })).status).toBe(
      200,
    );
    const attempts: Array<[string, string, unknown]> = [
      ['/workspace/agents', 'POST', reviewer],
      ['/workspace/agents/demo', 'GET', undefined],
      ['/workspace/agents/demo/revisions', 'GET', undefined],
      ['/workspace/agents/demo/duplicate', 'POST', { name: 'copy' }],
      ['/workspace/agents/reviewer', 'POST', { description: 'x' }],
      ['/workspace/agents/reviewer', 'DELETE', undefined],
    ];
    for (const [path, method, body] of attempts) {
      const response = await app.request(path, send(method, body, bearer('owner')));
      expect(response.status, `${method} ${path}`).toBe(403);
      expect(await json(response)).toMatchObject({ code: 'forbidden' });
    }
    expect(existsSync(projectFile(workspace, 'reviewer'))).toBe(false);
    const admin = await app.request('/workspace/agents', send('POST', reviewer, bearer('admin')));
    expect(admin.status).toBe(201);
  });
});

describe('the documented answer schemas are the answers', () => {
  it('parses every authoring answer with its OpenAPI schema, nothing left over', async () => {
    const { app } = await makeApp({
      configYaml:
        'models:\n  catalog:\n    openai/gpt-4o-mini: { provider: openai, model: gpt-4o-mini, baseUrl: "http://u:p@localhost:11434/v1" }\n',
    });
    const created = await json(
      await app.request(
        '/workspace/agents',
        send('POST', {
          ...reviewer,
          runConfig: { max_turns: 8 },
          mcpServers: [{ name: 'web', transport: 'http', endpoint: 'https://x.example/mcp' }],
          hooks: { Stop: [{ command: 'true', timeoutSeconds: 5 }] },
        }),
      ),
    );
    const cases: Array<[z.ZodType, unknown]> = [
      [AgentMutationSchema, created],
      [AgentListSchema, await json(await app.request('/workspace/agents'))],
      [AgentDetailSchema, await json(await app.request('/workspace/agents/reviewer'))],
      [AgentDetailSchema, await json(await app.request('/workspace/agents/demo'))],
      [ToolCatalogSchema, await json(await app.request('/workspace/tools'))],
      [ModelCatalogSchema, await json(await app.request('/workspace/models'))],
    ];
    for (const [schema, body] of cases) expect(schema.parse(body)).toEqual(body);
    const models = cases[5]![1] as { models: Array<{ baseUrl?: string }> };
    expect(models.models[0]?.baseUrl).toBe('http://localhost:11434/v1');
  });
});

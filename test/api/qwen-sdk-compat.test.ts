/**
 * Wire compatibility with qwen-code's own TypeScript SDK: deputy's real API on a
 * loopback socket (startApiServer over a real definition registry on temp dirs; delegations are
 * the recording stub, no Temporal needed), driven only through `DaemonClient` from
 * `@qwen-code/sdk/daemon`, exactly as a UI built on that SDK would. What the SDK returns, what it
 * throws, and what lands on disk are the assertions; a shape the SDK cannot read is a finding.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  DaemonClient,
  DaemonHttpError,
  type DaemonAgentMutationResult,
  type DaemonGeneratedAgentContent,
  type DaemonUpdateAgentRequest,
  type DaemonWorkspaceAgentDetail,
  type DaemonWorkspaceAgentsStatus,
  type DaemonWorkspaceGenerationEvent,
} from '@qwen-code/sdk/daemon';
import { describe, expect, it } from 'vitest';
import { createAuth } from '../../src/api/http/auth.js';
import type { Logger } from '../../src/api/http/errors.js';
import type { DeputyConfig } from '../../src/config/schema.js';
import { createRegistry } from '../../src/definitions/registry/registry.js';
import { fixedConfig } from '../../src/config/live-config.js';
import { startApiServer } from '../../src/server.js';
import { useCleanups } from '../support/cleanups.js';
import { eventually } from '../support/eventually.js';
import { authoringLayout } from './authoring-app.js';
import { TOKENS } from './make-app.js';
import { providerConfig, startFakeChatProvider } from './fake-chat-provider.js';
import { stubDelegations } from './stub-delegations.js';

const cleanups = useCleanups();

interface Exchange {
  method: string;
  path: string;
  status: number;
  /** The answer's JSON body, when it had one. */
  body: unknown;
}

interface Daemon {
  url: string;
  workspace: string;
  userDir: string;
  /** Every request the SDK made and what it got, read from a copy of each response. */
  exchanges: Exchange[];
  client(token?: string): DaemonClient;
}

/**
 * A workspace (with `configYaml` as `.subagents/config.yaml`), a user level and a data directory
 * under a fresh temp dir; the registry as `deputy api` builds it; the API on 127.0.0.1:<free>.
 */
async function startDaemon(options: { configYaml?: string; auth?: boolean } = {}): Promise<Daemon> {
  const layout = authoringLayout('deputy-qwen-sdk-', options);
  cleanups.push(async () => rmSync(layout.root, { recursive: true, force: true }));
  const { userDir, env } = layout;
  const config: DeputyConfig = { ...layout.config, api: { host: '127.0.0.1', port: 0 } };
  // As src/cli/servers/api-runtime.ts builds it: saves check model handles against the catalog,
  // and hand-made files are picked up by the watcher.
  const registry = createRegistry({ config, models: () => config.models });
  cleanups.push(() => registry.close());
  await registry.load();
  await registry.watch();
  const quiet: Logger = { error: () => {}, warn: () => {}, info: () => {} };
  const server = await startApiServer(config, {
    delegations: stubDelegations().delegations,
    settings: fixedConfig(config),
    auth: createAuth(config, env),
    definitions: registry,
    logger: quiet,
  });
  cleanups.push(() => server.close());
  const exchanges: Exchange[] = [];
  // Handed to the SDK as its `fetch`: it records, and changes nothing the SDK sees.
  const recording: typeof fetch = async (input, init) => {
    const response = await fetch(input, init);
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    // Only JSON answers are copied: a copied event stream would keep the SDK's cancel waiting
    // (a tee's branch is only cancelled once both are).
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    exchanges.push({
      method: init?.method ?? 'GET',
      path: `${url.pathname}${url.search}`,
      status: response.status,
      body: isJson ? await response.clone().json() : undefined,
    });
    return response;
  };
  return {
    url: server.url,
    workspace: config.workspace,
    userDir,
    exchanges,
    client: (token) =>
      new DaemonClient({
        baseUrl: server.url,
        fetch: recording,
        ...(token === undefined ? {} : { token }),
      }),
  };
}

const projectFile = (daemon: Daemon, name: string) =>
  join(daemon.workspace, '.subagents', 'agents', `${name}.md`);
const userFile = (daemon: Daemon, name: string) => join(daemon.userDir, 'agents', `${name}.md`);

/** The DaemonHttpError a call rejects with (fails the test when it resolves or throws another). */
async function sdkError(call: Promise<unknown>): Promise<DaemonHttpError> {
  const error: unknown = await call.then(
    () => {
      throw new Error('expected the SDK call to fail');
    },
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(DaemonHttpError);
  return error as DaemonHttpError;
}

function codeOf(error: DaemonHttpError): unknown {
  return (error.body as { code?: unknown } | undefined)?.code;
}

const reviewer = {
  name: 'reviewer',
  description: 'Reviews diffs for mistakes',
  systemPrompt: 'You review diffs.\n',
  scope: 'workspace' as const,
  tools: ['read', 'grep'],
  approvalMode: 'confirm',
  maxTurns: 8,
};

describe("qwen-code's DaemonClient against deputy: agent CRUD", () => {
  it('lists the built-ins in the daemon envelope', async () => {
    const daemon = await startDaemon();
    const status: DaemonWorkspaceAgentsStatus = await daemon.client().listWorkspaceAgents();
    expect(status.v).toBe(1);
    expect(status.workspaceCwd).toBe(daemon.workspace);
    expect(status.errors).toBeUndefined();
    const demo = status.agents.find((agent) => agent.name === 'demo');
    expect(demo).toMatchObject({
      kind: 'agent',
      level: 'builtin',
      isBuiltin: true,
      hasTools: true,
      tools: ['read', 'write', 'glob'],
    });
    expect(typeof demo?.description).toBe('string');
    expect(typeof demo?.filePath).toBe('string');
  });

  it('creates at both scopes, reads each by scope, updates one, deletes one, idempotently', async () => {
    const daemon = await startDaemon();
    const client = daemon.client();

    const created: DaemonAgentMutationResult = await client.createWorkspaceAgent(reviewer);
    expect(created.ok).toBe(true);
    expect(created.agent).toMatchObject({
      kind: 'agent',
      name: 'reviewer',
      description: 'Reviews diffs for mistakes',
      systemPrompt: 'You review diffs.\n',
      level: 'project',
      isBuiltin: false,
      hasTools: true,
      tools: ['read', 'grep'],
      approvalMode: 'confirm',
      maxTurns: 8,
      filePath: projectFile(daemon, 'reviewer'),
    });
    expect(readFileSync(projectFile(daemon, 'reviewer'), 'utf8')).toBe(
      '---\nname: reviewer\ndescription: Reviews diffs for mistakes\ntools:\n  - read\n  - grep\nmaxTurns: 8\napprovalMode: confirm\n---\nYou review diffs.\n',
    );

    // The same name at the user level: a second file, shadowed by the project one.
    const global = await client.createWorkspaceAgent({
      ...reviewer,
      scope: 'global',
      description: 'Reviews diffs, user copy',
      systemPrompt: 'You review diffs for the user.\n',
    });
    expect(global.agent).toMatchObject({ level: 'user', filePath: userFile(daemon, 'reviewer') });
    expect(existsSync(userFile(daemon, 'reviewer'))).toBe(true);

    const listed = await client.listWorkspaceAgents();
    expect(
      listed.agents
        .filter((agent) => agent.name === 'reviewer')
        .map((agent) => agent.level)
        .sort(),
    ).toEqual(['project', 'user']);

    // Without a scope the project definition wins (project > user), as in qwen-code.
    const effective: DaemonWorkspaceAgentDetail = await client.getWorkspaceAgent('reviewer');
    expect(effective).toMatchObject({ level: 'project', systemPrompt: 'You review diffs.\n' });
    const user = await client.getWorkspaceAgent('reviewer', { scope: 'global' });
    expect(user).toMatchObject({
      level: 'user',
      description: 'Reviews diffs, user copy',
      systemPrompt: 'You review diffs for the user.\n',
    });
    expect(await client.getWorkspaceAgent('reviewer', { scope: 'workspace' })).toMatchObject({
      level: 'project',
    });

    // An update by scope touches only that file.
    const projectBefore = readFileSync(projectFile(daemon, 'reviewer'), 'utf8');
    const updated = await client.updateWorkspaceAgent(
      'reviewer',
      { description: 'Reviews diffs, edited', systemPrompt: 'You review diffs carefully.\n' },
      { scope: 'global' },
    );
    expect(updated).toMatchObject({
      ok: true,
      changed: true,
      agent: { level: 'user', description: 'Reviews diffs, edited' },
    });
    expect(updated.agent.systemPrompt).toBe('You review diffs carefully.\n');
    expect(readFileSync(userFile(daemon, 'reviewer'), 'utf8')).toContain(
      'description: Reviews diffs, edited\n',
    );
    expect(readFileSync(userFile(daemon, 'reviewer'), 'utf8')).toMatch(
      /\n---\nYou review diffs carefully\.\n$/,
    );
    expect(readFileSync(projectFile(daemon, 'reviewer'), 'utf8')).toBe(projectBefore);

    // The same update again is a no-op the SDK sees as `changed: false`.
    const again = await client.updateWorkspaceAgent(
      'reviewer',
      { description: 'Reviews diffs, edited' },
      { scope: 'global' },
    );
    expect(again.changed).toBe(false);

    // The SDK's nulls clear a field (DaemonUpdateAgentRequest types them as `| null`).
    const cleared = await client.updateWorkspaceAgent('reviewer', { maxTurns: null });
    expect(cleared.agent.level).toBe('project');
    expect(readFileSync(projectFile(daemon, 'reviewer'), 'utf8')).not.toContain('maxTurns');

    // Delete by scope: 204, the user file goes, the project one stays.
    await expect(
      client.deleteWorkspaceAgent('reviewer', { scope: 'global' }),
    ).resolves.toBeUndefined();
    expect(existsSync(userFile(daemon, 'reviewer'))).toBe(false);
    expect(existsSync(projectFile(daemon, 'reviewer'))).toBe(true);
    // A second delete is a success for the SDK only because deputy says `agent_not_found`.
    await expect(
      client.deleteWorkspaceAgent('reviewer', { scope: 'global' }),
    ).resolves.toBeUndefined();
    const deletes = daemon.exchanges.filter((exchange) => exchange.method === 'DELETE');
    expect(deletes.map(({ path, status }) => ({ path, status }))).toEqual([
      { path: '/workspace/agents/reviewer?scope=global', status: 204 },
      { path: '/workspace/agents/reviewer?scope=global', status: 404 },
    ]);
    expect(deletes[1]?.body).toMatchObject({ code: 'agent_not_found' });

    const after = await client.listWorkspaceAgents();
    expect(after.agents.filter((agent) => agent.name === 'reviewer')).toMatchObject([
      { level: 'project' },
    ]);
  });

  it("takes back an edit form built from the SDK's own detail (GET, change one field, POST)", async () => {
    const daemon = await startDaemon();
    const client = daemon.client();
    await client.createWorkspaceAgent({
      ...reviewer,
      color: '#FF8800',
      background: true,
      runConfig: { max_turns: 8 },
      mcpServers: {
        tracker: { command: 'tracker-mcp', args: ['--stdio'], env: { TRACKER_TOKEN: 'real-1' } },
      },
      hooks: { PreToolUse: [{ command: 'true' }] },
    });
    const before = readFileSync(projectFile(daemon, 'reviewer'), 'utf8');
    const detail = await client.getWorkspaceAgent('reviewer');
    // The SDK's form of the agent: every field DaemonUpdateAgentRequest has, as the detail gave it.
    const form: DaemonUpdateAgentRequest = {
      description: 'Reviews diffs for mistakes and style',
      systemPrompt: detail.systemPrompt,
      tools: detail.tools,
      disallowedTools: detail.disallowedTools,
      model: detail.model ?? null,
      color: detail.color ?? null,
      approvalMode: detail.approvalMode ?? null,
      permissionMode: detail.permissionMode ?? null,
      maxTurns: detail.maxTurns ?? null,
      ...(detail.runConfig === undefined ? {} : { runConfig: detail.runConfig }),
      ...(detail.mcpServers === undefined ? {} : { mcpServers: detail.mcpServers }),
      ...(detail.hooks === undefined ? {} : { hooks: detail.hooks }),
      ...(detail.background === undefined ? {} : { background: detail.background }),
    };
    // The secret came back redacted; sending the placeholder back keeps the stored value.
    expect(detail.mcpServers).toMatchObject({
      tracker: { command: 'tracker-mcp', env: { TRACKER_TOKEN: '__redacted__' } },
    });
    expect(JSON.stringify(detail)).not.toContain('real-1');
    const saved = await client.updateWorkspaceAgent('reviewer', form);
    expect(saved).toMatchObject({
      ok: true,
      changed: true,
      agent: { description: 'Reviews diffs for mistakes and style' },
    });
    // The agent means what it meant, with the new description: the detail is the same.
    const reread = await client.getWorkspaceAgent('reviewer');
    // deputy's detail carries more than the SDK types (contentHash, revisions): all compared.
    const comparable = (agent: DaemonWorkspaceAgentDetail) => {
      const extended = agent as DaemonWorkspaceAgentDetail & Record<string, unknown>;
      return Object.fromEntries(
        Object.entries(extended).filter(
          ([key]) => !['description', 'contentHash', 'revisions'].includes(key),
        ),
      );
    };
    expect(comparable(reread)).toEqual(comparable(detail));
    const after = readFileSync(projectFile(daemon, 'reviewer'), 'utf8');
    expect(after).toContain('description: Reviews diffs for mistakes and style\n');
    expect(after).not.toContain('Reviews diffs for mistakes\n');
    // The secret is still the real one on disk, and no placeholder was written.
    expect(after).toContain('real-1');
    expect(after).not.toContain('__redacted__');
    // Nothing else changed: the defaults the form sent back (`model: default`, the color) equal
    // what the detail showed, so they are not written into the file.
    expect(after).toBe(
      before.replace(
        'description: Reviews diffs for mistakes\n',
        'description: Reviews diffs for mistakes and style\n',
      ),
    );
  });
});

describe("qwen-code's DaemonClient against deputy: errors", () => {
  it('surfaces every refusal as DaemonHttpError with the status and code the SDK documents', async () => {
    const daemon = await startDaemon();
    const client = daemon.client();

    // `yolo` is one of qwen-code's approval modes, not one of deputy's: refused, not guessed.
    const invalid = await sdkError(
      client.createWorkspaceAgent({ ...reviewer, approvalMode: 'yolo', maxTurns: 0 }),
    );
    expect(invalid.status).toBe(422);
    expect(codeOf(invalid)).toBe('invalid_config');
    const issues = (invalid.body as { issues: Array<{ path: string }> }).issues;
    expect(issues.map((issue) => issue.path).sort()).toEqual(['approvalMode', 'maxTurns']);
    expect(invalid.message).toContain('POST /workspace/agents');
    expect(existsSync(projectFile(daemon, 'reviewer'))).toBe(false);

    await client.createWorkspaceAgent(reviewer);
    const exists = await sdkError(client.createWorkspaceAgent(reviewer));
    expect(exists.status).toBe(409);
    expect(codeOf(exists)).toBe('agent_already_exists');

    const reserved = await sdkError(
      client.createWorkspaceAgent({ ...reviewer, name: 'demo', scope: 'global' }),
    );
    expect(reserved.status).toBe(409);
    expect(codeOf(reserved)).toBe('agent_name_reserved');
    expect(existsSync(userFile(daemon, 'demo'))).toBe(false);

    const readonlyUpdate = await sdkError(
      client.updateWorkspaceAgent('demo', { description: 'Mine now' }),
    );
    expect(readonlyUpdate.status).toBe(403);
    expect(codeOf(readonlyUpdate)).toBe('agent_readonly');
    // 403 is not the 404 the SDK forgives: a built-in's delete is an error, not a success.
    const readonlyDelete = await sdkError(client.deleteWorkspaceAgent('demo'));
    expect(readonlyDelete.status).toBe(403);
    expect(codeOf(readonlyDelete)).toBe('agent_readonly');
    expect((await client.getWorkspaceAgent('demo')).isBuiltin).toBe(true);

    for (const call of [
      client.getWorkspaceAgent('ghost'),
      client.getWorkspaceAgent('reviewer', { scope: 'global' }),
      client.updateWorkspaceAgent('ghost', { description: 'x' }),
    ]) {
      const missing = await sdkError(call);
      expect(missing.status).toBe(404);
      expect(codeOf(missing)).toBe('agent_not_found');
    }

    const invalidUpdate = await sdkError(
      client.updateWorkspaceAgent('reviewer', { tools: ['read'], maxTurns: -1 }),
    );
    expect(invalidUpdate.status).toBe(422);
    expect(codeOf(invalidUpdate)).toBe('invalid_config');
    expect(readFileSync(projectFile(daemon, 'reviewer'), 'utf8')).toContain('maxTurns: 8\n');
  });

  it('lists a qwen-code file from .qwen/agents, and refuses to edit it as agent_readonly', async () => {
    const daemon = await startDaemon();
    mkdirSync(join(daemon.workspace, '.qwen', 'agents'), { recursive: true });
    const file = join(daemon.workspace, '.qwen', 'agents', 'helper.md');
    const text =
      '---\nname: helper\ndescription: Helps with qwen-code things\ntools: [read_file]\n---\nHelp.\n';
    writeFileSync(file, text);
    const client = daemon.client();
    const listed = await eventually(
      async () => {
        const status = await client.listWorkspaceAgents();
        return status.agents.find((agent) => agent.name === 'helper');
      },
      'the .qwen/agents file to be listed',
      10_000,
    );
    // deputy names this level `ecosystem`, a value outside the SDK's DaemonAgentLevel union.
    expect(listed).toMatchObject({ level: 'ecosystem', isBuiltin: false, filePath: file });
    const refused = await sdkError(client.updateWorkspaceAgent('helper', { description: 'x' }));
    expect(refused.status).toBe(403);
    expect(codeOf(refused)).toBe('agent_readonly');
    expect(readFileSync(file, 'utf8')).toBe(text);
  });

  it('sends its bearer token: an admin may write, a reader may only list, no token is 401', async () => {
    const daemon = await startDaemon({ auth: true });
    const admin = daemon.client(TOKENS.admin);
    const created = await admin.createWorkspaceAgent(reviewer);
    expect(created.agent.name).toBe('reviewer');

    const reader = daemon.client(TOKENS.reader);
    expect((await reader.listWorkspaceAgents()).agents.map((agent) => agent.name)).toContain(
      'reviewer',
    );
    const forbidden = await sdkError(reader.updateWorkspaceAgent('reviewer', { description: 'x' }));
    expect(forbidden.status).toBe(403);
    expect(codeOf(forbidden)).toBe('forbidden');

    const anonymous = await sdkError(daemon.client().listWorkspaceAgents());
    expect(anonymous.status).toBe(401);
    expect(codeOf(anonymous)).toBe('unauthorized');
  });
});

const GEN_SCRIPT = 'scripts/gen.yaml';
const SCRIPTED_DEFAULT = `models:\n  default: scripted:${GEN_SCRIPT}\n`;
const writeScript = (daemon: Daemon, yaml: string) => {
  mkdirSync(join(daemon.workspace, 'scripts'), { recursive: true });
  writeFileSync(join(daemon.workspace, GEN_SCRIPT), yaml);
};

describe("qwen-code's DaemonClient against deputy: generation", () => {
  it('streams generateWorkspaceContent as started, deltas and done on the default model', async () => {
    const daemon = await startDaemon({ configYaml: SCRIPTED_DEFAULT });
    writeScript(
      daemon,
      'turns:\n  - text: "Reviews pull requests for security problems and says which lines are risky. Asked: ${task}"\n',
    );
    const events: DaemonWorkspaceGenerationEvent[] = [];
    for await (const event of daemon
      .client()
      .generateWorkspaceContent('Write a description for a security reviewer')) {
      events.push(event);
    }
    const types = events.map((event) => event.type);
    expect(types[0]).toBe('started');
    expect(types.at(-1)).toBe('done');
    expect(types.slice(1, -1).every((type) => type === 'delta')).toBe(true);
    expect(types.length).toBeGreaterThan(3); // the text comes in more than one piece
    const [started, done] = [events[0], events.at(-1)];
    const label = `scripted:${GEN_SCRIPT} (scripted model)`;
    expect(started).toMatchObject({ v: 1, type: 'started', model: label, modelSource: 'main' });
    expect(done).toMatchObject({ v: 1, type: 'done', model: label, modelSource: 'main' });
    const deltas = events.filter(
      (event): event is Extract<DaemonWorkspaceGenerationEvent, { type: 'delta' }> =>
        event.type === 'delta',
    );
    expect(deltas.map((delta) => delta.seq)).toEqual(deltas.map((_, index) => index));
    const requestIds = new Set(
      events.map((event) => ('requestId' in event ? event.requestId : undefined)),
    );
    expect(requestIds.size).toBe(1);
    expect(deltas.map((delta) => delta.text).join('')).toBe(
      'Reviews pull requests for security problems and says which lines are risky. Asked: Write a description for a security reviewer',
    );
  });

  it('refuses an unusable default model before the stream: DaemonHttpError 422 invalid_config', async () => {
    const daemon = await startDaemon({ configYaml: SCRIPTED_DEFAULT });
    writeScript(daemon, 'turns: []\n'); // a script needs at least one turn
    const collect = async () => {
      const events: DaemonWorkspaceGenerationEvent[] = [];
      for await (const event of daemon.client().generateWorkspaceContent('anything')) {
        events.push(event);
      }
      return events;
    };
    const error = await sdkError(collect());
    expect(error.status).toBe(422);
    expect(codeOf(error)).toBe('invalid_config');
    expect(error.message).toContain('POST /workspace/generate');
  });

  it('ends the stream with an error event the SDK yields when the provider fails mid-generation', async () => {
    const provider = await startFakeChatProvider(() => ({
      status: 500,
      json: { error: { message: 'the provider is down' } },
    }));
    cleanups.push(() => provider.close());
    const daemon = await startDaemon({
      configYaml: providerConfig(provider.baseUrl),
    });
    const client = daemon.client();
    const events: DaemonWorkspaceGenerationEvent[] = [];
    for await (const event of client.generateWorkspaceContent('Describe a reviewer')) {
      events.push(event);
    }
    expect(events.map((event) => event.type)).toEqual(['started', 'error']);
    expect(events[1]).toMatchObject({ v: 1, type: 'error', code: 'model_error' });
    expect(provider.requests.length).toBeGreaterThan(0);

    // The whole-agent route answers the same failure as an HTTP error the SDK throws.
    const failed = await sdkError(client.generateWorkspaceAgent('A reviewer'));
    expect(failed.status).toBe(503);
    expect(codeOf(failed)).toBe('unavailable');
  });

  it('generates a whole agent with generateWorkspaceAgent, which createWorkspaceAgent then saves', async () => {
    const daemon = await startDaemon({ configYaml: SCRIPTED_DEFAULT });
    writeScript(daemon, 'turns:\n  - text: "  Checks changelogs for missing entries.  "\n');
    const client = daemon.client();
    const generated: DaemonGeneratedAgentContent = await client.generateWorkspaceAgent(
      'Checks changelogs for missing entries',
    );
    expect(generated).toMatchObject({
      description: 'Checks changelogs for missing entries.',
      systemPrompt: 'Checks changelogs for missing entries.',
    });
    expect(generated.name).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(generated.name).toContain('changelogs');
    // The SDK sent `{description}`: qwen-code's body, which deputy takes as it is.
    expect(daemon.exchanges.at(-1)).toMatchObject({
      method: 'POST',
      path: '/workspace/agents/generate',
      status: 200,
    });

    const saved = await client.createWorkspaceAgent({
      name: generated.name,
      description: generated.description,
      systemPrompt: generated.systemPrompt,
      scope: 'workspace',
    });
    expect(saved.agent).toMatchObject({ name: generated.name, level: 'project' });
    expect(readFileSync(projectFile(daemon, generated.name), 'utf8')).toBe(
      `---\nname: ${generated.name}\ndescription: Checks changelogs for missing entries.\n---\nChecks changelogs for missing entries.`,
    );
  });
});

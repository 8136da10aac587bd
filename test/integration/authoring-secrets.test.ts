/**
 * No planted secret leaves deputy through the authoring API. Random
 * secrets are planted in `.subagents/config.yaml` (MCP env and headers, literal and `${VAR}`, an
 * OAuth client secret, a provider key behind `apiKeyEnv`, a password in a provider's base URL,
 * the bearer tokens) and in an agent's inline MCP servers (env, headers, `oauth.clientSecret`)
 * created over HTTP. Then every authoring route runs on the real API over loopback (list,
 * detail, create, the GET -> edit -> POST round trip, PATCH, duplicate, revisions, restore,
 * delete), the catalogs, `/health`, both generation routes on a scripted default model, and a
 * delegation of that agent on the real dev server with its event stream and an approved card.
 *
 * Everything that left is scanned, plainly and in base64: every answer and SSE event, every
 * line the API logged, everything the process wrote to stdout and stderr (the worker runs in
 * it), and the full workflow history. The negative controls prove the scan finds what it looks
 * for: the agent files and config on disk hold the secrets, and the channels carried the run.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delegationWorkflowId } from '../../src/shared/delegation.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createDelegations } from '../../src/temporal/delegations/facade.js';
import { createHarness, type Harness } from './support/harness.js';
import {
  captureOutput,
  historyText,
  leakedIn,
  readEventStream,
  resolvedSnapshot,
} from './support/leak-scan.js';

/** Random, and shaped like no known token format: only redaction by structure or value hides them. */
const secret = (label: string): string => `${label}-${randomBytes(9).toString('hex')}`;
const CONFIG_SECRETS = {
  mcpEnvLiteral: secret('as-env-literal'),
  mcpEnvReferenced: secret('as-env-referenced'),
  mcpHeaderLiteral: secret('as-header-literal'),
  mcpHeaderReferenced: secret('as-header-referenced'),
  oauthReferenced: secret('as-oauth-referenced'),
  providerKey: secret('as-provider-key'),
  baseUrlPassword: secret('as-baseurl-password'),
  adminToken: secret('as-admin-token'),
};
const AGENT_SECRETS = {
  inlineEnv: secret('as-inline-env'),
  inlineHeader: secret('as-inline-header'),
  inlineOauth: secret('as-inline-oauth'),
};
const ALL = [...Object.values(CONFIG_SECRETS), ...Object.values(AGENT_SECRETS)];
const suffix = randomUUID().slice(0, 8).toUpperCase();
const VARIABLES = {
  mcpEnvReferenced: `AS_ENV_${suffix}`,
  mcpHeaderReferenced: `AS_HEADER_${suffix}`,
  oauthReferenced: `AS_OAUTH_${suffix}`,
  providerKey: `AS_KEY_${suffix}`,
  adminToken: `AS_TOKEN_${suffix}`,
};

const CONFIG_YAML = `
models:
  default: scripted:scripts/gen.yaml
  catalog:
    remote/model:
      provider: openai
      model: remote-model
      baseUrl: http://deputy:${CONFIG_SECRETS.baseUrlPassword}@127.0.0.1:9/v1
      apiKeyEnv: ${VARIABLES.providerKey}
mcpServers:
  vault:
    transport: stdio
    command: vault-mcp
    env:
      VAULT_TOKEN: ${CONFIG_SECRETS.mcpEnvLiteral}
      VAULT_SECRET: \${${VARIABLES.mcpEnvReferenced}}
  remote:
    transport: http
    endpoint: http://127.0.0.1:9/mcp
    headers:
      Authorization: Bearer ${CONFIG_SECRETS.mcpHeaderLiteral}
      X-Api-Key: \${${VARIABLES.mcpHeaderReferenced}}
    oauth:
      clientId: deputy
      clientSecret: \${${VARIABLES.oauthReferenced}}
auth:
  tokens:
    ${VARIABLES.adminToken}: { user: alice, roles: [admin] }
`;

/** The agent as an editor creates it: configured servers by name, inline ones with secrets. */
const KEEPER = {
  name: 'keeper',
  description: 'Keeps notes; holds MCP credentials of its own',
  systemPrompt: 'You keep notes. Repeat what you read.\n',
  scope: 'workspace',
  model: 'scripted:scripts/keeper.yaml',
  tools: ['read', 'write'],
  approvalMode: 'confirm',
  mcpServers: {
    vault: {},
    remote: {},
    tracker: {
      type: 'http',
      url: 'https://tracker.example/mcp',
      headers: { Authorization: `Bearer ${AGENT_SECRETS.inlineHeader}` },
      oauth: { clientId: 'keeper', clientSecret: AGENT_SECRETS.inlineOauth },
    },
    local: { command: 'npx', args: ['local-mcp'], env: { TOKEN: AGENT_SECRETS.inlineEnv } },
  },
};

const FILES = {
  '.subagents/config.yaml': CONFIG_YAML,
  'scripts/gen.yaml': 'turns:\n  - text: "Generated for: ${task}"\n',
  'scripts/keeper.yaml': `turns:
  - text: "Reading the notes."
    toolCalls: [{ name: read, arguments: { path: notes.txt } }]
  - text: "The notes say: \${lastToolResult}"
    toolCalls: [{ name: write, arguments: { path: out.txt, content: "\${lastToolResult}" } }]
  - text: "Done with \${task}."
`,
  // What the agent reads and repeats: the configured values (the masker knows them).
  'scripts/mirror.yaml': `turns:
  - text: "Reading my file."
    toolCalls: [{ name: read, arguments: { path: .subagents/agents/mirror.md } }]
  - text: "My file says: \${lastToolResult}"
`,
  'notes.txt': `${Object.values(CONFIG_SECRETS)
    .filter((value) => value !== CONFIG_SECRETS.baseUrlPassword)
    .join('\n')}\nAuthorization: Bearer ${CONFIG_SECRETS.mcpHeaderLiteral}\n`,
};

let harness: Harness;
let api: ApiServer;
const apiLog: string[] = [];
/** Every answer body and event stream, as received. */
const answers: string[] = [];
let output: ReturnType<typeof captureOutput>;

beforeAll(async () => {
  output = captureOutput();
  for (const [key, name] of Object.entries(VARIABLES)) {
    process.env[name] = CONFIG_SECRETS[key as keyof typeof VARIABLES];
  }
  harness = await createHarness(FILES);
  api = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    {
      delegations: createDelegations(harness.client, {
        namespace: harness.config.temporal.namespace,
        taskQueue: harness.taskQueue,
      }),
      // The same registry the worker resolves from: an agent created over HTTP runs at once.
      definitions: harness.registry,
      events: { pollMs: 100 },
      logger: {
        error: (message, error) =>
          apiLog.push(`${message} ${error instanceof Error ? error.stack : String(error)}`),
        warn: (message) => apiLog.push(message),
        info: (message) => apiLog.push(message),
      },
    },
  );
});

afterAll(async () => {
  output?.restore();
  await api?.close();
  await harness?.close();
  for (const name of Object.values(VARIABLES)) delete process.env[name];
});

type Json = Record<string, unknown>;

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${CONFIG_SECRETS.adminToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  if ((response.headers.get('content-type') ?? '').includes('text/event-stream')) {
    const raw = await readEventStream(response);
    answers.push(raw);
    return { status: response.status, body: {} as Json, raw };
  }
  const text = await response.text();
  answers.push(text);
  return {
    status: response.status,
    body: (text === '' ? {} : JSON.parse(text)) as Json,
    raw: text,
  };
}

const agentFile = (name: string) => join(harness.workspace, '.subagents', 'agents', `${name}.md`);

describe('planted secrets and the authoring API', () => {
  it('appear in no answer, event, log line or workflow payload, through every route', async () => {
    // The catalogs and health first: what a fresh editor loads.
    expect((await call('GET', '/health')).status).toBe(200);
    expect((await call('GET', '/workspace/agents')).status).toBe(200);
    const tools = await call('GET', '/workspace/tools');
    expect(tools.status).toBe(200);
    const models = await call('GET', '/workspace/models');
    expect(models.status).toBe(200);
    expect(models.raw).toContain('remote/model');

    // Create with inline secrets; the answer redacts them.
    const created = await call('POST', '/workspace/agents', KEEPER);
    expect(created.status, created.raw).toBe(201);
    expect(created.raw).toContain('__redacted__');

    // The editor's round trip: GET the detail, change one field, send everything back.
    const detail = await call('GET', '/workspace/agents/keeper');
    expect(detail.status).toBe(200);
    const shown = detail.body as {
      mcpServers: Record<string, Json>;
      description: string;
      systemPrompt: string;
      tools: string[];
    };
    expect(shown.mcpServers.tracker).toMatchObject({
      headers: { Authorization: '__redacted__' },
      oauth: { clientSecret: '__redacted__' },
    });
    expect(shown.mcpServers.local).toMatchObject({ env: { TOKEN: '__redacted__' } });
    expect(shown.mcpServers.vault).toEqual({});
    const saved = await call('POST', '/workspace/agents/keeper', {
      description: `${shown.description} (edited)`,
      systemPrompt: shown.systemPrompt,
      tools: shown.tools,
      mcpServers: shown.mcpServers,
    });
    expect(saved.status, saved.raw).toBe(200);
    const patched = await call('PATCH', '/workspace/agents/keeper', { maxTurns: 6 });
    expect(patched.status, patched.raw).toBe(200);
    // The negative control of the whole scan: the file holds every inline secret, so a leak of
    // it anywhere would be found by the same `leakedIn`.
    expect(leakedIn(readFileSync(agentFile('keeper'), 'utf8'), ALL)).toEqual(
      Object.values(AGENT_SECRETS),
    );
    const configText = readFileSync(join(harness.workspace, '.subagents', 'config.yaml'), 'utf8');
    expect(leakedIn(configText, ALL)).toEqual([
      CONFIG_SECRETS.mcpEnvLiteral,
      CONFIG_SECRETS.mcpHeaderLiteral,
      CONFIG_SECRETS.baseUrlPassword,
    ]);

    // Duplicate, revisions, restore, delete.
    const copy = await call('POST', '/workspace/agents/keeper/duplicate', {
      name: 'keeper-copy',
      scope: 'workspace',
    });
    expect(copy.status, copy.raw).toBe(201);
    expect(leakedIn(readFileSync(agentFile('keeper-copy'), 'utf8'), ALL)).toEqual(
      Object.values(AGENT_SECRETS),
    );
    const revisions = await call('GET', '/workspace/agents/keeper/revisions');
    const ids = (revisions.body.revisions as Array<{ id: string }>).map((revision) => revision.id);
    expect(ids.length).toBeGreaterThanOrEqual(2);
    const restored = await call('POST', `/workspace/agents/keeper/revisions/${ids.at(-1)}/restore`);
    expect(restored.status, restored.raw).toBe(200);
    expect((restored.body.agent as Json).description).toBe(KEEPER.description);
    expect((await call('DELETE', '/workspace/agents/keeper-copy')).status).toBe(204);
    // A deleted agent keeps its last revision: listed, and no secret in the listing.
    const kept = await call('GET', '/workspace/agents/keeper-copy/revisions');
    expect(kept.status).toBe(200);
    expect(kept.body.revisions).toHaveLength(1);
    expect((await call('GET', '/workspace/agents')).status).toBe(200);

    // Generation on the scripted default model, with configured secrets typed into the prompt.
    const typed = `an agent that uses ${CONFIG_SECRETS.mcpEnvLiteral} and ${CONFIG_SECRETS.providerKey}`;
    const stream = await call('POST', '/workspace/generate', {
      prompt: typed,
      kind: 'description',
    });
    expect(stream.status).toBe(200);
    expect(stream.raw).toContain('event: done');
    expect(stream.raw).toContain('__redacted__');
    const generated = await call('POST', '/workspace/agents/generate', { prompt: typed });
    expect(generated.status, generated.raw).toBe(200);

    // A delegation of the agent, followed on its event stream; its write card approved.
    const session = `authoring-secrets-${randomUUID().slice(0, 8)}`;
    const started = await call('POST', '/delegations', {
      agent: 'keeper',
      task: 'Copy the notes',
      session,
    });
    expect(started.status, started.raw).toBe(201);
    const id = started.body.delegationId as string;
    const events = await fetch(`${api.url}/delegations/${id}/events`, {
      headers: { authorization: `Bearer ${CONFIG_SECRETS.adminToken}` },
    });
    const types: string[] = [];
    answers.push(
      await readEventStream(events, async (data, type) => {
        types.push(type);
        const card = (data as { card?: { id: string } }).card;
        if (type === 'card-opened' && card !== undefined) {
          expect((await call('GET', `/sessions/${session}/cards`)).status).toBe(200);
          expect((await call('POST', `/cards/${card.id}`, { decision: 'approve' })).status).toBe(
            200,
          );
        }
      }),
    );
    expect(types).toEqual(expect.arrayContaining(['started', 'card-opened', 'card-decided']));
    expect(types.at(-1)).toBe('finished');
    const state = await call('GET', `/delegations/${id}`);
    expect(state.body.status).toBe('completed');
    await call('GET', `/delegations?session=${session}`);

    const workflowId = delegationWorkflowId(session, id);
    const history = await historyText(harness.client, workflowId);
    const snapshot = await resolvedSnapshot(harness.client, workflowId);
    expect((snapshot.mcpServers as Array<{ name: string }>).map((server) => server.name)).toEqual([
      'vault',
      'remote',
      'tracker',
      'local',
    ]);

    const answerText = answers.join('\n');
    // The claim: not one planted secret, plain or base64, in anything that left.
    expect({
      answers: leakedIn(answerText, ALL),
      history: leakedIn(history, ALL),
      apiLog: leakedIn(apiLog.join('\n'), ALL),
      output: leakedIn(output.text(), ALL),
    }).toEqual({ answers: [], history: [], apiLog: [], output: [] });

    // Each channel carried the run, so an empty scan cannot pass for a clean one.
    expect(answerText).toContain('card-opened');
    expect(answerText).toContain('"mcpServerNames":["vault","remote","tracker","local"]');
    expect(history).toMatch(/The notes say: +1\\t__redacted__/);
    expect(history).toContain('keeper');
    expect(apiLog.join('\n')).toContain('mcpServers.vault.env.VAULT_TOKEN holds a literal secret');
    // The approved write got the masked text the card showed.
    const written = readFileSync(join(harness.workspace, 'out.txt'), 'utf8');
    expect(written).toContain('__redacted__');
    expect(leakedIn(written, ALL)).toEqual([]);
  });

  it('masks the inline MCP secrets of an agent that reads its own definition file', async () => {
    // Reads of `.subagents/agents/` are allowed, so an agent can repeat what its file holds: the
    // masker knows the secrets written in every definition's inline servers, not only config's.
    const own = {
      inlineEnv: secret('as-own-env'),
      inlineOauth: secret('as-own-oauth'),
    };
    const created = await call('POST', '/workspace/agents', {
      name: 'mirror',
      description: 'Reads its own definition back',
      systemPrompt: 'You read your own file.\n',
      scope: 'workspace',
      model: 'scripted:scripts/mirror.yaml',
      tools: ['read'],
      mcpServers: {
        private: {
          type: 'http',
          url: 'https://private.example/mcp',
          oauth: { clientId: 'mirror', clientSecret: own.inlineOauth },
        },
        helper: { command: 'npx', args: ['helper-mcp'], env: { API_TOKEN: own.inlineEnv } },
      },
    });
    expect(created.status, created.raw).toBe(201);
    expect(leakedIn(readFileSync(agentFile('mirror'), 'utf8'), Object.values(own))).toEqual(
      Object.values(own),
    );
    const session = `mirror-${randomUUID().slice(0, 8)}`;
    const started = await call('POST', '/delegations?wait=true', {
      agent: 'mirror',
      task: 'Show your file',
      session,
    });
    expect(started.status, started.raw).toBe(201);
    expect((started.body.result as Json).status).toBe('completed');
    const history = await historyText(
      harness.client,
      delegationWorkflowId(session, started.body.delegationId as string),
    );
    // The read really returned the file (its servers' names are in it), with the secrets cut.
    expect(history).toContain('helper-mcp');
    expect(history).toContain('__redacted__');
    expect({
      answers: leakedIn(answers.join('\n'), Object.values(own)),
      history: leakedIn(history, Object.values(own)),
      apiLog: leakedIn(apiLog.join('\n'), Object.values(own)),
      output: leakedIn(output.text(), Object.values(own)),
    }).toEqual({ answers: [], history: [], apiLog: [], output: [] });
  });
});

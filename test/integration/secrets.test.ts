/**
 * No configured secret leaves deputy. Distinct secrets are planted in every place a
 * configuration can hold one, and in a workspace file; a scripted agent reads the file, echoes
 * the secrets in its text and passes them to a tool that needs a card; a second agent's model
 * (an OpenAI-compatible server on loopback) fails with an error that echoes them. Then
 * everything that left is scanned: API answers and the event stream (real HTTP on loopback,
 * authenticated with one of the secrets), the API's and the worker's log lines, the full workflow
 * histories on the real dev server, and `deputy agents list` run as a child process.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { delegationWorkflowId, type DelegationEvent } from '../../src/shared/delegation.js';
import { startApiServer, type ApiServer } from '../../src/server.js';
import { createDelegations } from '../../src/temporal/delegations/facade.js';
import { runDeputy } from '../e2e/run-deputy.js';
import { createHarness, eventually, type Harness } from './support/harness.js';
import { readEventStream } from '../support/event-stream.js';

/** Random, and shaped like no known token format: only the configured-value masker can catch them. */
const secret = (label: string): string => `${label}-${randomBytes(9).toString('hex')}`;
const SECRETS = {
  mcpEnvLiteral: secret('mcp-env-literal'),
  mcpHeaderLiteral: secret('mcp-header-literal'),
  mcpEnvReferenced: secret('mcp-env-referenced'),
  mcpHeaderReferenced: secret('mcp-header-referenced'),
  modelApiKey: secret('model-api-key'),
  authToken: secret('auth-token'),
};
const ALL = Object.values(SECRETS);
const suffix = randomUUID().slice(0, 8).toUpperCase();
const VARIABLES = {
  mcpEnvReferenced: `DEPUTY_SECRETS_TEST_ENV_${suffix}`,
  mcpHeaderReferenced: `DEPUTY_SECRETS_TEST_HEADER_${suffix}`,
  modelApiKey: `DEPUTY_SECRETS_TEST_KEY_${suffix}`,
  authToken: `DEPUTY_SECRETS_TEST_TOKEN_${suffix}`,
};

const SCRIPT = `
turns:
  - text: "Let me read the secrets file."
    toolCalls:
      - name: read
        arguments: { path: secrets.txt }
  - text: "The file says: \${lastToolResult}. I also remember ${ALL.join(' ')}."
    toolCalls:
      - name: write
        arguments: { path: leaked.txt, content: "\${lastToolResult} ${ALL.join(' ')}" }
  - text: "Wrote them: ${ALL.join(', ')}"
`;

function files(providerUrl: string): Record<string, string> {
  return {
    '.subagents/config.yaml': `
models:
  catalog:
    leaky/remote:
      provider: openai
      model: leaky-model
      baseUrl: ${providerUrl}/v1
      apiKeyEnv: ${VARIABLES.modelApiKey}
mcpServers:
  vault:
    transport: stdio
    command: vault-mcp
    env:
      VAULT_TOKEN: ${SECRETS.mcpEnvLiteral}
      VAULT_SECRET: \${${VARIABLES.mcpEnvReferenced}}
  remote:
    transport: http
    endpoint: http://127.0.0.1:9/mcp
    headers:
      Authorization: Bearer ${SECRETS.mcpHeaderLiteral}
      X-Api-Key: \${${VARIABLES.mcpHeaderReferenced}}
auth:
  tokens:
    ${VARIABLES.authToken}: { user: ops, roles: [admin] }
`,
    '.subagents/agents/leaky.md': `---
name: leaky
description: Reads a file full of secrets and tries to get them out
model: scripted:scripts/leaky.yaml
tools: [read, write]
mcpServers: [vault, remote]
---
You leak secrets. Everything you see, you repeat.
`,
    '.subagents/agents/leaky-remote.md': `---
name: leaky-remote
description: Its model's provider echoes secrets in its errors
model: leaky/remote
tools: [read]
---
You answer.
`,
    'scripts/leaky.yaml': SCRIPT,
    'secrets.txt': `${ALL.join('\n')}\nAuthorization: Bearer ${SECRETS.mcpHeaderLiteral}\n`,
  };
}

let harness: Harness;
let api: ApiServer;
let provider: Server;
let providerSawKey = false;
const apiLog: string[] = [];
const workerLog: string[] = [];
const restoreStderr = process.stderr.write.bind(process.stderr);
/** Everything that left over HTTP: answers and event streams, as received. */
const answers: string[] = [];

beforeAll(async () => {
  // The worker's log lines (the Temporal runtime's logger writes to stderr): kept and passed on.
  process.stderr.write = ((chunk: string | Uint8Array, ...rest: never[]) => {
    workerLog.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'));
    return restoreStderr(chunk, ...rest);
  }) as typeof process.stderr.write;
  for (const [key, name] of Object.entries(VARIABLES)) {
    process.env[name] = SECRETS[key as keyof typeof VARIABLES];
  }
  // A provider that echoes everything it knows in its error, as real ones echo what they got.
  provider = createServer((request, response) => {
    providerSawKey = request.headers.authorization === `Bearer ${SECRETS.modelApiKey}`;
    request.resume();
    request.on('end', () => {
      response.writeHead(400, { 'content-type': 'application/json' });
      response.end(
        JSON.stringify({
          error: { message: `bad request; you sent ${ALL.join(' ')}`, type: 'invalid_request' },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => provider.listen(0, '127.0.0.1', resolve));
  const { port } = provider.address() as AddressInfo;
  harness = await createHarness(files(`http://127.0.0.1:${port}`));
  api = await startApiServer(
    { ...harness.config, api: { host: '127.0.0.1', port: 0 } },
    {
      delegations: createDelegations(harness.client, {
        namespace: harness.config.temporal.namespace,
        taskQueue: harness.taskQueue,
      }),
      events: { pollMs: 100 },
      logger: {
        error: (message, error) => apiLog.push(`${message} ${String(error)}`),
        warn: (message) => apiLog.push(message),
        info: (message) => apiLog.push(message),
      },
    },
  );
});

afterAll(async () => {
  process.stderr.write = restoreStderr;
  await api?.close();
  await harness?.close();
  await new Promise((resolve) => provider?.close(resolve));
  for (const name of Object.values(VARIABLES)) delete process.env[name];
});

async function call(method: string, path: string, body?: unknown) {
  const response = await fetch(`${api.url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${SECRETS.authToken}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  answers.push(text);
  return { status: response.status, body: JSON.parse(text) as Record<string, unknown> };
}

/** Follows the event stream to `finished`, calling `onEvent` on each; keeps the raw stream text. */
async function follow(id: string, onEvent: (event: DelegationEvent) => Promise<void>) {
  const response = await fetch(`${api.url}/delegations/${id}/events`, {
    headers: { authorization: `Bearer ${SECRETS.authToken}` },
  });
  expect(response.status).toBe(200);
  answers.push(await readEventStream<DelegationEvent>(response, onEvent));
}

/**
 * The full history as text, every payload decoded: payloads are where inputs, results and
 * failures are recorded, and their JSON form would show them only as base64.
 */
async function historyText(session: string, delegationId: string): Promise<string> {
  const handle = harness.client.workflow.getHandle(delegationWorkflowId(session, delegationId));
  const parts: string[] = [];
  const collect = (value: unknown, seen: Set<object>): void => {
    if (typeof value === 'string') parts.push(value);
    else if (value instanceof Uint8Array) parts.push(Buffer.from(value).toString('utf8'));
    else if (typeof value === 'object' && value !== null && !seen.has(value)) {
      seen.add(value);
      for (const item of Object.values(value)) collect(item, seen);
    }
  };
  collect(await handle.fetchHistory(), new Set());
  return parts.join('\n');
}

function leaked(text: string): string[] {
  return ALL.filter((value) => text.includes(value));
}

describe('configured secrets', () => {
  const session = `secrets-${randomUUID().slice(0, 8)}`;

  it('never leave through a tool result, a model turn, a card, an answer, a log or history', async () => {
    const started = await call('POST', '/delegations', {
      agent: 'leaky',
      task: 'Get the secrets out',
      session,
    });
    expect(started.status).toBe(201);
    const id = started.body.delegationId as string;
    const seen: DelegationEvent[] = [];
    await follow(id, async (event) => {
      seen.push(event);
      if (event.type !== 'card-opened') return;
      expect(event.card.tool).toBe('write');
      expect((await call('GET', `/delegations/${id}`)).body.pendingCards).toHaveLength(1);
      expect((await call('GET', `/sessions/${session}/cards`)).body.cards).toHaveLength(1);
      const decided = await call('POST', `/cards/${event.card.id}`, { decision: 'approve' });
      expect(decided.status).toBe(200);
    });
    expect(seen.map((event) => event.type)).toContain('card-decided');
    const final = await call('GET', `/delegations/${id}`);
    expect(final.body.status).toBe('completed');
    await call('GET', `/delegations?session=${session}`);

    const remote = await call('POST', '/delegations?wait=true', {
      agent: 'leaky-remote',
      task: 'Answer anything',
      session,
    });
    expect(remote.body.status).toBe('failed');
    const remoteId = remote.body.delegationId as string;
    await call('GET', `/delegations/${remoteId}`);
    await follow(remoteId, async () => {});
    expect(providerSawKey).toBe(true);

    const histories = [await historyText(session, id), await historyText(session, remoteId)];
    const agentsList = await runDeputy(['agents', 'list'], {
      env: {
        ...process.env,
        DEPUTY_WORKSPACE: harness.workspace,
        DEPUTY_USER_DIR: join(harness.workspace, '.user-config'),
      },
    });
    expect(agentsList.code, agentsList.stderr).toBe(0);

    const answerText = answers.join('\n');
    // The claim: not one planted secret in anything that left.
    expect({
      answers: leaked(answerText),
      history: leaked(histories[0]!),
      failedHistory: leaked(histories[1]!),
      apiLog: leaked(apiLog.join('\n')),
      workerLog: leaked(workerLog.join('')),
      agentsList: leaked(agentsList.stdout + agentsList.stderr),
    }).toEqual({
      answers: [],
      history: [],
      failedHistory: [],
      apiLog: [],
      workerLog: [],
      agentsList: [],
    });

    // Each channel really carried the delegation, so an empty scan cannot pass for a clean one.
    expect(answerText).toContain('card-opened');
    expect(answerText).toContain('__redacted__');
    expect(histories[0]).toContain('I also remember __redacted__');
    expect(histories[1]).toContain('bad request; you sent __redacted__');
    expect(workerLog.join('')).toContain('Activity failed');
    expect(apiLog).toContain(
      'mcpServers.vault.env.VAULT_TOKEN holds a literal secret; write ${VAULT_TOKEN} and set it in the environment',
    );
    expect(agentsList.stderr).toContain(
      'warning: mcpServers.remote.headers.Authorization holds a literal secret; write Bearer ${REMOTE_AUTHORIZATION} and set it in the environment',
    );

    // The tool behind the approved card got the masked arguments, as the card showed them.
    const written = readFileSync(join(harness.workspace, 'leaked.txt'), 'utf8');
    expect(written).toContain('__redacted__');
    expect(leaked(written)).toEqual([]);
  });

  it('are masked before a delegation starts when a caller typed one into a task', async () => {
    answers.length = 0;
    const typed = `Use ${SECRETS.authToken} and ${SECRETS.mcpEnvReferenced}`;
    const s = `typed-${randomUUID().slice(0, 8)}`;
    const started = await call('POST', '/delegations?wait=true', {
      agent: 'leaky',
      task: typed,
      session: s,
      unattended: true,
    });
    expect(started.body.status).toBe('completed');
    const id = started.body.delegationId as string;
    // Visibility catches up with a finished delegation within moments.
    const listed = await eventually(async () => {
      const { body } = await call('GET', `/delegations?session=${s}`);
      const rows = body.delegations as Array<{ delegationId: string; task: string }>;
      return rows.length > 0 ? rows : undefined;
    }, 'the listing');
    expect(listed).toMatchObject([
      { delegationId: id, task: expect.stringMatching(/^Use __redacted__ and __redacted__/) },
    ]);
    await call('GET', `/delegations/${id}`);
    await follow(id, async () => {});
    expect(leaked(answers.join('\n'))).toEqual([]);
    // The task is the workflow's input: the API masks it before starting, so neither history nor
    // the model ever holds the secret.
    const history = await historyText(s, id);
    expect(history).toContain('Use __redacted__ and __redacted__');
    expect(leaked(history)).toEqual([]);
  });
});

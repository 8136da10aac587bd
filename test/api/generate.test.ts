/**
 * `POST /workspace/generate` (SSE) and `POST /workspace/agents/generate` (compat), on the
 * workspace's default model: the scripted model in-process, and OpenAI-compatible endpoints on
 * loopback (fake-chat-provider.ts) where the test needs to see what the provider was sent, a
 * provider failure, or a provider request that the client's disconnect must close.
 */
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { createAuth } from '../../src/api/http/auth.js';
import type { Logger } from '../../src/api/http/errors.js';
import {
  GenerationEventSchema,
  MAX_PROMPT_BYTES,
  type GenerationEvent,
} from '../../src/api/generate/schemas.js';
import { loadConfig } from '../../src/config/load.js';
import { startApiServer } from '../../src/server.js';
import { eventually } from '../support/eventually.js';
import { useCleanups } from '../support/cleanups.js';
import {
  completion,
  providerConfig,
  startFakeChatProvider,
  type ChatRequestBody,
} from './fake-chat-provider.js';
import { jsonPost } from './make-app.js';
import { stubDelegations } from './stub-delegations.js';

const cleanups = useCleanups();
afterEach(() => {
  vi.unstubAllEnvs();
});

const SCRIPT_TEXT = 'You review ${task} one file at a time and report each problem with its line.';
const SCRIPT = `turns:\n  - text: ${JSON.stringify(SCRIPT_TEXT)}\n`;

/** A workspace whose `.subagents/config.yaml` is `configYaml`, with `scripts/gen.yaml`. */
function workspace(configYaml: string, script = SCRIPT): string {
  const root = mkdtempSync(join(tmpdir(), 'deputy-generate-'));
  mkdirSync(join(root, '.subagents'));
  mkdirSync(join(root, 'scripts'));
  writeFileSync(join(root, '.subagents', 'config.yaml'), configYaml);
  writeFileSync(join(root, 'scripts', 'gen.yaml'), script);
  return root;
}

const SCRIPTED = 'models:\n  default: scripted:scripts/gen.yaml\n';

const TOKENS = {
  GEN_ADMIN_TOKEN: 'tok-gen-admin-8d7c6b',
  GEN_READER_TOKEN: 'tok-gen-reader-5a4b3c',
};
const AUTH = {
  auth: {
    tokens: {
      GEN_ADMIN_TOKEN: { user: 'alice', roles: ['admin'] },
      GEN_READER_TOKEN: { user: 'rita', roles: [] },
    },
  },
};

function quietLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    error: (message, error) => lines.push(`error ${message} ${String(error)}`),
    warn: (message) => lines.push(`warn ${message}`),
    info: (message) => lines.push(`info ${message}`),
  };
}

function appFor(root: string, options: { auth?: boolean } = {}) {
  const logger = quietLogger();
  const app = createApp({
    delegations: stubDelegations().delegations,
    config: loadConfig({ workspace: root }, {}),
    auth: createAuth(options.auth === true ? AUTH : {}, TOKENS),
    logger,
  });
  return { app, logger };
}

interface SseEvent {
  event: string;
  data: GenerationEvent;
}

/** The stream's events, each checked against the documented envelope. */
function parseEvents(body: string): SseEvent[] {
  return body
    .split('\n\n')
    .filter((frame) => frame.trim() !== '' && !frame.startsWith(':'))
    .map((frame) => {
      const lines = frame.split('\n');
      const event = lines.find((line) => line.startsWith('event: '))?.slice(7) ?? '';
      const data = lines
        .filter((line) => line.startsWith('data: '))
        .map((line) => line.slice(6))
        .join('\n');
      return { event, data: GenerationEventSchema.parse(JSON.parse(data)) };
    });
}

function joinedText(events: SseEvent[]): string {
  return events.map(({ data }) => (data.type === 'delta' ? data.text : '')).join('');
}

describe('POST /workspace/generate', () => {
  it('streams the default model answer as started, deltas in order, done', async () => {
    const { app } = appFor(workspace(SCRIPTED));
    const response = await app.request(
      '/workspace/generate',
      jsonPost({ prompt: '  pull requests  ', kind: 'systemPrompt' }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('text/event-stream');
    const events = parseEvents(await response.text());

    const types = events.map(({ data }) => data.type);
    expect(types[0]).toBe('started');
    expect(types.at(-1)).toBe('done');
    expect(types.slice(1, -1).every((type) => type === 'delta')).toBe(true);
    expect(types.length).toBeGreaterThan(3); // the answer comes in several pieces
    for (const { event, data } of events) expect(event).toBe(data.type);
    expect(new Set(events.map(({ data }) => data.requestId)).size).toBe(1);
    const deltas = events.flatMap(({ data }) => (data.type === 'delta' ? [data.seq] : []));
    expect(deltas).toEqual(deltas.map((_, index) => index));

    // The prompt is trimmed, and the scripted model is labelled as one.
    expect(joinedText(events)).toBe(SCRIPT_TEXT.replace('${task}', 'pull requests'));
    expect(events[0]?.data).toMatchObject({
      kind: 'systemPrompt',
      modelSource: 'main',
      model: 'scripted:scripts/gen.yaml (scripted model)',
    });
  });

  it('answers a prompt without a kind as plain text (what qwen-code SDK clients send)', async () => {
    const { app } = appFor(workspace(SCRIPTED));
    const response = await app.request('/workspace/generate', jsonPost({ prompt: 'hello' }));
    const events = parseEvents(await response.text());
    expect(events[0]?.data).toMatchObject({ type: 'started', kind: 'text' });
    expect(joinedText(events)).toBe(SCRIPT_TEXT.replace('${task}', 'hello'));
  });

  it('sends the kind instruction, the prompt and no tools to the provider', async () => {
    const provider = await startFakeChatProvider(() => completion('Reviews pull requests.'));
    cleanups.push(() => provider.close());
    const { app } = appFor(workspace(providerConfig(provider.baseUrl)));
    const answers: Record<string, string> = {};
    for (const kind of ['description', 'systemPrompt'] as const) {
      const response = await app.request(
        '/workspace/generate',
        jsonPost({ prompt: 'reviews pull requests', kind }),
      );
      answers[kind] = joinedText(parseEvents(await response.text()));
    }
    expect(answers).toEqual({
      description: 'Reviews pull requests.',
      systemPrompt: 'Reviews pull requests.',
    });
    const [description, systemPrompt] = provider.requests as [ChatRequestBody, ChatRequestBody];
    expect(description.messages[0]?.content).toMatch(/description of a subagent/);
    expect(systemPrompt.messages[0]?.content).toMatch(/system prompt of a subagent/);
    for (const request of provider.requests) {
      expect(request.messages.slice(1)).toEqual([
        { role: 'user', content: 'reviews pull requests' },
      ]);
      expect(request.tools).toBeUndefined();
    }
  });

  it.each([
    ['a blank prompt', { prompt: '   ', kind: 'description' }, 'prompt'],
    ['no prompt', { kind: 'description' }, 'prompt'],
    ['an unknown kind', { prompt: 'x', kind: 'name' }, 'kind'],
    ['an unknown key', { prompt: 'x', model: 'other' }, null],
    ['a prompt over 16 KiB', { prompt: 'é'.repeat(MAX_PROMPT_BYTES / 2 + 1) }, 'prompt'],
  ])('refuses %s with 422 before any model call', async (_what, body, path) => {
    const { app } = appFor(workspace(SCRIPTED));
    const response = await app.request('/workspace/generate', jsonPost(body));
    expect(response.status).toBe(422);
    const answer = (await response.json()) as { error: string; issues: { path: string }[] };
    expect(answer.error).toBe('invalid_request');
    // Where an unknown key's issue points is the error mapper's business, not this route's.
    if (path !== null) expect(answer.issues.map((issue) => issue.path)).toContain(path);
  });

  it('names the size and the limit of a prompt that is too long', async () => {
    const { app } = appFor(workspace(SCRIPTED));
    const response = await app.request(
      '/workspace/generate',
      jsonPost({ prompt: 'x'.repeat(MAX_PROMPT_BYTES + 1) }),
    );
    expect(JSON.stringify(await response.json())).toContain(
      `the prompt is ${MAX_PROMPT_BYTES + 1} bytes; the limit is ${MAX_PROMPT_BYTES} bytes`,
    );
  });

  it('is 422 invalid_config, not a stream, when the default model cannot be built', async () => {
    const { app } = appFor(workspace('models:\n  default: openai/missing\n'));
    const response = await app.request('/workspace/generate', jsonPost({ prompt: 'x' }));
    expect(response.status).toBe(422);
    expect(response.headers.get('content-type')).toContain('application/json');
    const answer = (await response.json()) as { error: string; message: string };
    expect(answer.error).toBe('invalid_config');
    expect(answer.message).toContain("the workspace's default model cannot be used");
    expect(answer.message).toContain("model 'openai/missing'");
  });

  it('ends with an error event when the provider fails, its key nowhere in the stream', async () => {
    const key = 'sk-gen-test-4f3e2d1c0b9a8f7e6d5c';
    vi.stubEnv('GEN_TEST_KEY', key);
    const provider = await startFakeChatProvider(() => ({
      status: 401,
      json: { error: { message: `Incorrect API key provided: ${key}`, type: 'invalid_request' } },
    }));
    cleanups.push(() => provider.close());
    const { app, logger } = appFor(
      workspace(providerConfig(provider.baseUrl, '      apiKeyEnv: GEN_TEST_KEY')),
    );
    const response = await app.request('/workspace/generate', jsonPost({ prompt: 'x' }));
    expect(response.status).toBe(200);
    const body = await response.text();
    const events = parseEvents(body);
    expect(events.map(({ data }) => data.type)).toEqual(['started', 'error']);
    expect(events[1]?.data).toMatchObject({ code: 'model_error' });
    expect(events[1]?.data).toHaveProperty('message', expect.stringContaining('HTTP 401'));
    expect(body).not.toContain(key);
    expect(logger.lines.join('\n')).not.toContain(key);
  });

  it('sends an invalid_config error event when the API key variable is not set', async () => {
    const provider = await startFakeChatProvider(() => completion('unused'));
    cleanups.push(() => provider.close());
    const { app } = appFor(
      workspace(providerConfig(provider.baseUrl, '      apiKeyEnv: GEN_UNSET_KEY')),
    );
    const events = parseEvents(
      await (await app.request('/workspace/generate', jsonPost({ prompt: 'x' }))).text(),
    );
    expect(events.at(-1)?.data).toMatchObject({ type: 'error', code: 'invalid_config' });
    expect(events.at(-1)?.data).toHaveProperty(
      'message',
      expect.stringContaining('GEN_UNSET_KEY is not set'),
    );
    expect(provider.requests).toHaveLength(0);
  });

  it('masks configured secrets in the prompt it sends and the text it streams', async () => {
    const secret = 'gen-configured-secret-0a9b8c7d';
    vi.stubEnv('GEN_SECRET_KEY', secret);
    const config = [
      SCRIPTED,
      '  catalog:',
      '    other/model: { provider: openai, model: m, apiKeyEnv: GEN_SECRET_KEY }',
      '',
    ].join('\n');
    const { app } = appFor(workspace(config, `turns:\n  - text: "said ${secret} and \${task}"\n`));
    const response = await app.request(
      '/workspace/generate',
      jsonPost({ prompt: `use ${secret}`, kind: 'description' }),
    );
    const body = await response.text();
    expect(body).not.toContain(secret);
    expect(joinedText(parseEvents(body))).toBe('said __redacted__ and use __redacted__');
  });

  describe('with auth on', () => {
    it('needs the admin role', async () => {
      const { app } = appFor(workspace(SCRIPTED), { auth: true });
      const post = (headers: Record<string, string>) =>
        app.request('/workspace/generate', jsonPost({ prompt: 'x' }, headers));
      expect((await post({})).status).toBe(401);
      const reader = await post({ Authorization: `Bearer ${TOKENS.GEN_READER_TOKEN}` });
      expect(reader.status).toBe(403);
      expect(await reader.json()).toMatchObject({
        error: 'forbidden',
        message: "generating text needs the 'admin' role",
      });
      const admin = await post({ Authorization: `Bearer ${TOKENS.GEN_ADMIN_TOKEN}` });
      expect(admin.status).toBe(200);
      expect(parseEvents(await admin.text()).at(-1)?.data.type).toBe('done');
    });
  });
});

describe('POST /workspace/agents/generate (compat)', () => {
  it('answers name, description and system prompt from two model calls', async () => {
    const provider = await startFakeChatProvider((body) =>
      completion(
        /description of a subagent/.test(body.messages[0]?.content ?? '')
          ? 'Reviews pull requests for security problems.\n'
          : 'You review pull requests.',
      ),
    );
    cleanups.push(() => provider.close());
    const { app } = appFor(workspace(providerConfig(provider.baseUrl)));
    const response = await app.request(
      '/workspace/agents/generate',
      jsonPost({ prompt: 'An agent that reviews pull requests for security issues' }),
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      name: 'reviews-pull-requests-security',
      description: 'Reviews pull requests for security problems.',
      systemPrompt: 'You review pull requests.',
      model: 'fake/model',
    });
    expect(provider.requests).toHaveLength(2);
  });

  it("takes qwen-code's {description} too, and labels the scripted model", async () => {
    const { app } = appFor(workspace(SCRIPTED));
    const response = await app.request(
      '/workspace/agents/generate',
      jsonPost({ description: 'Ein Prüfer für Änderungen' }),
    );
    const answer = (await response.json()) as Record<string, string>;
    expect(answer.name).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(answer.name!.length).toBeLessThanOrEqual(64);
    expect(answer.description).toBe(SCRIPT_TEXT.replace('${task}', 'Ein Prüfer für Änderungen'));
    expect(answer.model).toBe('scripted:scripts/gen.yaml (scripted model)');
  });

  it.each([
    ['neither prompt nor description', {}],
    ['both', { prompt: 'a', description: 'b' }],
    ['a blank prompt', { prompt: ' ' }],
  ])('refuses %s with 422', async (_what, body) => {
    const { app } = appFor(workspace(SCRIPTED));
    const response = await app.request('/workspace/agents/generate', jsonPost(body));
    expect(response.status).toBe(422);
  });

  it('is 503 with the redacted provider message when a model call fails', async () => {
    const provider = await startFakeChatProvider(() => ({
      status: 500,
      json: { error: { message: 'the model is overloaded' } },
    }));
    cleanups.push(() => provider.close());
    const { app } = appFor(workspace(providerConfig(provider.baseUrl)));
    const response = await app.request('/workspace/agents/generate', jsonPost({ prompt: 'x' }));
    expect(response.status).toBe(503);
    expect(((await response.json()) as { message: string }).message).toContain('HTTP 500');
  });

  it('needs the admin role with auth on', async () => {
    const { app } = appFor(workspace(SCRIPTED), { auth: true });
    const response = await app.request(
      '/workspace/agents/generate',
      jsonPost({ prompt: 'x' }, { Authorization: `Bearer ${TOKENS.GEN_READER_TOKEN}` }),
    );
    expect(response.status).toBe(403);
  });
});

describe('a client that disconnects (real HTTP on loopback)', () => {
  it('cancels the model call: the provider request is closed', async () => {
    const provider = await startFakeChatProvider(() => 'hang');
    cleanups.push(() => provider.close());
    const root = workspace(providerConfig(provider.baseUrl));
    const logger = quietLogger();
    const server = await startApiServer(loadConfig({ workspace: root, port: 0 }, {}), {
      delegations: stubDelegations().delegations,
      logger,
    });
    cleanups.push(() => server.close());

    const client = new AbortController();
    const response = await fetch(`${server.url}/workspace/generate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ prompt: 'never answered', kind: 'description' }),
      signal: client.signal,
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first).toContain('event: started');
    await eventually(
      async () => (provider.requests.length === 1 ? true : undefined),
      'the model call to reach the provider',
      10_000,
    );
    expect(provider.abandoned()).toBe(0);

    client.abort();
    // Without the cancellation the SDK would hold the provider request for its 10-minute timeout.
    await eventually(
      async () => (provider.abandoned() === 1 ? true : undefined),
      'the provider request to be closed',
      10_000,
    );
    await eventually(
      async () => (logger.lines.some((line) => line.includes('cancelled')) ? true : undefined),
      'the cancellation to be logged',
      10_000,
    );
  });
});

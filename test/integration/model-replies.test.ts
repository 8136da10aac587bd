/**
 * A delegation against a model that answers the way real ones do, on the real dev
 * server: the model is an OpenAI-compatible (or Anthropic-format) HTTP server on loopback that
 * answers each request with what the test queued. Tool calls deputy cannot run are told to the
 * model and the delegation goes on; provider failures are retried by the model-call activity,
 * visible in the delegation's state while they are, bounded, then a failure naming the provider
 * and the status; a context overflow and a tool call cut at max_tokens fail once, plainly.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateLines } from '../../src/cli/format.js';
import { stateQuery } from '../../src/shared/workflow-contract/messages.js';
import type { DelegationState } from '../../src/shared/delegation.js';
import { startLoopbackServer, type LoopbackServer } from '../models/loopback-server.js';
import {
  anthropicMessage,
  chatCompletion,
  LLAMA_CPP_OVERFLOW,
} from '../models/provider-replies.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

let provider: LoopbackServer;
let harness: Harness;

function files(origin: string): Record<string, string> {
  const agent = (name: string, model: string, tools: string) =>
    `---\nname: ${name}\ndescription: reads files\nmodel: ${model}\ntools: [${tools}]\n---\nYou read files.\n`;
  return {
    '.subagents/config.yaml': `
models:
  catalog:
    local/qwen: { provider: openai, model: qwen2.5-coder, baseUrl: ${origin}/v1, maxTokens: 64 }
    local/texty:
      { provider: openai, model: qwen2.5-coder, baseUrl: ${origin}/v1, toolCallsInContent: true }
    local/messages: { provider: anthropic, model: qwen2.5-coder, baseUrl: ${origin} }
`,
    '.subagents/agents/reader.md': agent('reader', 'local/qwen', 'read, write'),
    '.subagents/agents/texter.md': agent('texter', 'local/texty', 'read'),
    '.subagents/agents/messenger.md': agent('messenger', 'local/messages', 'read'),
    'README.md': 'deputy keeps 7 otters.\n',
  };
}

beforeAll(async () => {
  provider = await startLoopbackServer();
  harness = await createHarness(files(provider.origin));
});

afterAll(async () => {
  await harness?.close();
  await provider?.close();
});

function completion(message: Record<string, unknown>, finishReason = 'stop') {
  return { status: 200, body: chatCompletion(message, finishReason) };
}

const toolCall = (id: string, name: string, args: string) => ({
  id,
  type: 'function',
  function: { name, arguments: args },
});

const busy = { status: 503, body: { error: { message: 'upstream busy', type: 'server_error' } } };

/** Starts `agent` with a fresh request log; returns its handle and delegation id. */
async function start(agent: string, task: string) {
  provider.requests.length = 0;
  const handle = await harness.start(agent, task);
  return { handle, delegationId: handle.workflowId.split('/').at(-1)! };
}

/** The tool results the model was sent in request `index`. */
function toolResults(index: number): string[] {
  const body = provider.requests[index]?.body as { messages: Array<Record<string, unknown>> };
  return body.messages
    .filter((message) => message.role === 'tool')
    .map((message) => String(message.content));
}

async function failedState(handle: Awaited<ReturnType<typeof start>>['handle']) {
  await expect(handle.result()).rejects.toThrow();
  const state: DelegationState = await handle.query(stateQuery);
  expect(state.status).toBe('failed');
  return state;
}

describe('tool calls deputy cannot run', () => {
  it('are answered for the model, no card opens, nothing runs, and the delegation goes on', async () => {
    provider.respond(
      completion({
        content: null,
        tool_calls: [
          toolCall('c1', 'delete_everything', '{}'),
          toolCall('c2', 'read', '{"path": "README.md"'),
          toolCall('c3', 'read', '{"path": "README.md", "limit": "1"}'),
          toolCall('c4', 'write', '{"path": "notes.md", "content": "x", "mode": "append"}'),
        ],
      }),
      completion({ content: 'I could not read it.' }),
    );
    const { handle } = await start('reader', 'What does README.md say?');
    const result = await handle.result();
    expect(result).toMatchObject({ status: 'completed', text: 'I could not read it.' });
    expect(toolResults(1)).toEqual([
      "[tool 'delete_everything' denied] You don't have a tool named 'delete_everything'. Your tools: read, write.",
      `[tool 'read' failed] its arguments are not a JSON object, so it was not run: {"path": "README.md". Call it again with its arguments as one JSON object.`,
      `[tool 'read' failed] its arguments do not fit its parameters: 'limit' must be an integer, not the string "1". Call it again with these parameters: path (string, required), offset (integer), limit (integer).`,
      "[tool 'write' failed] its arguments do not fit its parameters: 'mode' is not one of its parameters. Call it again with these parameters: path (string, required), content (string, required).",
    ]);
    // Only the undeclared tool is a denial; the malformed calls never reached policy or a card.
    expect(result.deniedCalls?.map((call) => call.tool)).toEqual(['delete_everything']);
    const state = await handle.query(stateQuery);
    expect([...state.pendingCards, ...state.decidedCards]).toEqual([]);
    expect(existsSync(join(harness.workspace, 'notes.md'))).toBe(false);
  });
});

describe('provider failures', () => {
  it('a 5xx is retried with backoff, visible in the state meanwhile, then the run goes on', async () => {
    provider.respond(busy, busy, completion({ content: 'deputy keeps 7 otters.' }));
    const { handle, delegationId } = await start('reader', 'What does README.md say?');
    const detail = await eventually(async () => {
      const state = await harness.delegations.get(delegationId);
      return state.modelRetry ? state : undefined;
    }, 'the model retry in the state');
    expect(detail.modelRetry).toMatchObject({ maximumAttempts: 4 });
    expect(detail.modelRetry?.lastFailure).toMatch(
      /^model local\/qwen: HTTP 503 from http:\/\/127\.0\.0\.1:\d+\/v1: 503 upstream busy \(attempt [12] of 4; trying again in [24] s\)$/,
    );
    expect(stateLines(detail).join('\n')).toMatch(
      /model call: retrying, attempt [23] of 4 [^\n]*\n {4}last failure: model local\/qwen: HTTP 503/,
    );
    expect((await handle.result()).text).toBe('deputy keeps 7 otters.');
    expect(provider.requests).toHaveLength(3);
    const [first, second, third] = provider.requests.map((request) => request.receivedAt);
    // Temporal's backoff from MODEL_CALL: 2 s, then 4 s.
    expect(second! - first!).toBeGreaterThanOrEqual(1_900);
    expect(third! - second!).toBeGreaterThanOrEqual(3_900);
    expect((await harness.delegations.get(delegationId)).modelRetry).toBeNull();
  });

  it('a 5xx that lasts fails after 4 attempts, naming the provider and the status', async () => {
    provider.respond(busy, busy, busy, busy);
    const { handle } = await start('reader', 'What does README.md say?');
    const state = await failedState(handle);
    expect(state.result?.notice).toMatch(
      /^Delegation failed: model local\/qwen: HTTP 503 from http:\/\/127\.0\.0\.1:\d+\/v1: 503 upstream busy \(attempt 4 of 4; no attempts left\)$/,
    );
    expect(provider.requests).toHaveLength(4);
  });

  it("a 429's retry-after decides when the next attempt comes", async () => {
    provider.respond(
      {
        status: 429,
        headers: { 'retry-after': '5' },
        body: { error: { message: 'rate limit reached', type: 'rate_limit_error' } },
      },
      completion({ content: 'deputy keeps 7 otters.' }),
    );
    const { handle } = await start('reader', 'What does README.md say?');
    expect((await handle.result()).status).toBe('completed');
    const [first, second] = provider.requests.map((request) => request.receivedAt);
    // Not the policy's 2 s: the provider's 5.
    expect(second! - first!).toBeGreaterThanOrEqual(4_900);
  });

  it('a context overflow fails at once, naming the limit, without a retry', async () => {
    provider.respond({ status: 400, body: LLAMA_CPP_OVERFLOW });
    const { handle } = await start('reader', 'What does README.md say?');
    const state = await failedState(handle);
    expect(state.result?.notice).toContain(
      "no longer fits the model's context window of 4096 tokens (it needs 5120)",
    );
    expect(provider.requests).toHaveLength(1);
  });

  it('a tool call cut at max_tokens fails at once, and nothing runs', async () => {
    provider.respond(
      completion(
        {
          content: null,
          tool_calls: [toolCall('c1', 'write', '{"path": "notes.md", "content": "# Not')],
        },
        'length',
      ),
    );
    const { handle } = await start('reader', 'Write notes.md');
    const state = await failedState(handle);
    expect(state.result?.notice).toBe(
      'Delegation failed: model local/qwen: the answer was cut at its output limit (maxTokens 64) ' +
        "while it was asking for tools; nothing was run. Raise maxTokens in the model's catalog " +
        'entry (models.catalog)',
    );
    expect(provider.requests).toHaveLength(1);
    expect(existsSync(join(harness.workspace, 'notes.md'))).toBe(false);
  });
});

describe('local endpoints', () => {
  it('toolCallsInContent: a call written as JSON text runs, and its result reaches the model', async () => {
    provider.respond(
      completion({ content: '```json\n{"name": "read", "arguments": {"path": "README.md"}}\n```' }),
      completion({ content: 'deputy keeps 7 otters.' }),
    );
    const { handle } = await start('texter', 'What does README.md say?');
    expect((await handle.result()).text).toBe('deputy keeps 7 otters.');
    expect(toolResults(1)).toEqual([expect.stringContaining('deputy keeps 7 otters.')]);
  });

  it('provider anthropic with a baseUrl runs without ANTHROPIC_API_KEY', async () => {
    const saved = process.env.ANTHROPIC_API_KEY;
    delete process.env.ANTHROPIC_API_KEY;
    try {
      provider.respond({
        status: 200,
        body: anthropicMessage([{ type: 'text', text: 'deputy keeps 7 otters.' }]),
      });
      const { handle } = await start('messenger', 'What does README.md say?');
      expect(await handle.result()).toMatchObject({
        status: 'completed',
        text: 'deputy keeps 7 otters.',
      });
      expect(provider.requests[0]?.url).toBe('/v1/messages');
    } finally {
      if (saved !== undefined) process.env.ANTHROPIC_API_KEY = saved;
    }
  });
});

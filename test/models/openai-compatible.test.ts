import { describe, expect, it } from 'vitest';
import { createOpenAiCompatibleModel } from '../../src/models/openai-compatible.js';
import {
  expectAbortRejectsWithReason,
  expectCallError,
  expectRetryableOnce,
  fixture,
  refusedOrigin,
  useLoopbackServer,
} from './loopback-server.js';
import { sampleRequest } from './sample-request.js';

const API_KEY = 'sk-test-0123456789abcdef';

describe('OpenAI-compatible adapter over real HTTP', () => {
  const server = useLoopbackServer();

  function adapter(options: { withKey: boolean } = { withKey: true }) {
    return createOpenAiCompatibleModel({
      model: 'gpt-4o-mini',
      baseUrl: `${server().origin}/v1`,
      ...(options.withKey ? { apiKey: () => API_KEY } : {}),
      label: 'openai/gpt-4o-mini',
    });
  }

  it('sends system, transcript and tools in chat-completions form', async () => {
    server().respond({ status: 200, body: fixture('openai/tool-calls.json') });
    await adapter().complete(sampleRequest, {});

    expect(server().requests).toHaveLength(1);
    const [sent] = server().requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/v1/chat/completions');
    expect(sent?.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(sent?.body).toEqual({
      model: 'gpt-4o-mini',
      messages: [
        { role: 'system', content: 'You are a careful reviewer.' },
        { role: 'user', content: 'Find the TODOs in the project.' },
        {
          role: 'assistant',
          content: 'Let me look.',
          tool_calls: [
            {
              id: 'call_a',
              type: 'function',
              function: { name: 'read', arguments: '{"path":"README.md"}' },
            },
            {
              id: 'call_b',
              type: 'function',
              function: { name: 'grep', arguments: '{"pattern":"TODO","path":"src"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '# deputy\nTODO: docs' },
        {
          role: 'tool',
          tool_call_id: 'call_b',
          content: "[tool 'grep' failed] src: no such directory",
        },
        { role: 'user', content: 'Also check the tests.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            {
              id: 'call_c',
              type: 'function',
              function: { name: 'grep', arguments: '{"pattern":"TODO","path":"test"}' },
            },
          ],
        },
        { role: 'tool', tool_call_id: 'call_c', content: 'test/a.test.ts:3' },
      ],
      tools: [
        {
          type: 'function',
          function: {
            name: 'read',
            description: 'Read a file.',
            parameters: {
              type: 'object',
              properties: { path: { type: 'string' } },
              required: ['path'],
              additionalProperties: false,
            },
          },
        },
        {
          type: 'function',
          function: {
            name: 'grep',
            description: 'Search files for a pattern.',
            parameters: {
              type: 'object',
              properties: { pattern: { type: 'string' }, path: { type: 'string' } },
              required: ['pattern'],
            },
          },
        },
      ],
    });
  });

  it('parses text and tool calls from the response', async () => {
    server().respond({ status: 200, body: fixture('openai/tool-calls.json') });
    const response = await adapter().complete(sampleRequest, {});
    expect(response).toEqual({
      text: 'Let me look at both files.',
      toolCalls: [
        { id: 'call_Qm7dX2a9LrT4', name: 'read', arguments: { path: 'README.md' } },
        { id: 'call_Vb3nK8s1PzW6', name: 'grep', arguments: { pattern: 'TODO', path: 'src' } },
      ],
      modelLabel: 'openai/gpt-4o-mini',
      finishReason: 'tool_calls',
      responseModel: 'gpt-4o-mini-2024-07-18',
      usage: { inputTokens: 212, outputTokens: 48, cachedInputTokens: 0 },
    });
  });

  it('reports cached prompt tokens, and no usage at all when the server sends none', async () => {
    const cached = fixture('openai/tool-calls.json') as Record<string, unknown>;
    cached.usage = {
      prompt_tokens: 212,
      completion_tokens: 48,
      total_tokens: 260,
      prompt_tokens_details: { cached_tokens: 128 },
    };
    server().respond({ status: 200, body: cached });
    expect((await adapter().complete(sampleRequest, {})).usage).toEqual({
      inputTokens: 212,
      outputTokens: 48,
      cachedInputTokens: 128,
    });
    // Local servers (Ollama, llama.cpp) may leave usage out: none reported, not zero.
    const bare = fixture('openai/tool-calls.json') as Record<string, unknown>;
    delete bare.usage;
    server().respond({ status: 200, body: bare });
    expect(await adapter().complete(sampleRequest, {})).not.toHaveProperty('usage');
  });

  it('sends no tools array for a tool-less request and no key from the environment', async () => {
    const previous = process.env.OPENAI_API_KEY;
    process.env.OPENAI_API_KEY = 'sk-from-environment-must-not-be-used';
    try {
      server().respond({ status: 200, body: fixture('openai/text.json') });
      const response = await adapter({ withKey: false }).complete(
        { system: '', transcript: [{ role: 'user', content: 'hi' }], tools: [] },
        {},
      );
      expect(response).toEqual({
        text: 'The README has 3 TODOs; all are in src/cli.',
        toolCalls: [],
        modelLabel: 'openai/gpt-4o-mini',
        finishReason: 'stop',
        responseModel: 'llama3.1:8b',
        usage: { inputTokens: 301, outputTokens: 17, cachedInputTokens: 0 },
      });
      const [sent] = server().requests;
      expect(sent?.body).toEqual({
        model: 'gpt-4o-mini',
        messages: [{ role: 'user', content: 'hi' }],
      });
      expect(sent?.headers.authorization).toBe('Bearer no-api-key');
    } finally {
      if (previous === undefined) {
        delete process.env.OPENAI_API_KEY;
      } else {
        process.env.OPENAI_API_KEY = previous;
      }
    }
  });

  it('maps 500 and 429 to retryable errors, once (no SDK retries)', async () => {
    for (const status of [500, 429]) {
      const error = await expectRetryableOnce(server(), adapter(), {
        status,
        body: fixture('openai/error-500.json'),
      });
      expect(error.message).toContain(`openai/gpt-4o-mini: HTTP ${status}`);
    }
  });

  it('maps 401 to a non-retryable error that never contains the key', async () => {
    server().respond({ status: 401, body: fixture('openai/error-401.json') });
    const error = await expectCallError(adapter());
    expect(error.retryable).toBe(false);
    expect(error.status).toBe(401);
    expect(error.message).toContain('Incorrect API key provided: [redacted]');
    expect(error.message).not.toContain(API_KEY);
    expect(String(error.stack)).not.toContain(API_KEY);
    expect(error.cause).toBeUndefined();
  });

  it('maps 400 and 404 to non-retryable errors', async () => {
    for (const status of [400, 404]) {
      server().respond({
        status,
        body: { error: { message: 'nope', type: 'invalid_request_error' } },
      });
      const error = await expectCallError(adapter());
      expect(error.retryable).toBe(false);
    }
  });

  it('maps a refused connection to a retryable error', async () => {
    const origin = await refusedOrigin();
    const unreachable = createOpenAiCompatibleModel({
      model: 'llama3.1',
      baseUrl: `${origin}/v1`,
      label: 'ollama/llama3.1',
    });
    const error = await expectCallError(unreachable);
    expect(error.retryable).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.message).toContain('ollama/llama3.1: request failed');
  });

  it('passes the abort signal and rejects with its reason', async () => {
    server().respond({ status: 200, body: fixture('openai/text.json'), delayMs: 5_000 });
    await expectAbortRejectsWithReason(adapter());
  });
});

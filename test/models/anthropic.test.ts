import { describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../../src/models/anthropic.js';
import {
  expectAbortRejectsWithReason,
  expectCallError,
  expectRetryableOnce,
  fixture,
  refusedOrigin,
  useLoopbackServer,
} from './loopback-server.js';
import { sampleRequest } from './sample-request.js';

const API_KEY = 'sk-ant-test-0123456789abcdef';

describe('Anthropic adapter over real HTTP', () => {
  const server = useLoopbackServer();

  function adapter(maxTokens?: number) {
    return createAnthropicModel({
      model: 'claude-sonnet-4-5',
      baseUrl: server().origin,
      apiKey: () => API_KEY,
      label: 'anthropic/claude-sonnet-4-5',
      ...(maxTokens === undefined ? {} : { maxTokens }),
    });
  }

  it('sends system, grouped tool results and tools in Messages form', async () => {
    server().respond({ status: 200, body: fixture('anthropic/tool-use.json') });
    await adapter().complete(sampleRequest, {});

    expect(server().requests).toHaveLength(1);
    const [sent] = server().requests;
    expect(sent?.method).toBe('POST');
    expect(sent?.url).toBe('/v1/messages');
    const headerValues = Object.values(sent?.headers ?? {}).flat();
    expect(headerValues.some((value) => value?.includes(API_KEY))).toBe(true);
    expect(sent?.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 4096,
      system: 'You are a careful reviewer.',
      messages: [
        { role: 'user', content: 'Find the TODOs in the project.' },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Let me look.' },
            { type: 'tool_use', id: 'call_a', name: 'read', input: { path: 'README.md' } },
            {
              type: 'tool_use',
              id: 'call_b',
              name: 'grep',
              input: { pattern: 'TODO', path: 'src' },
            },
          ],
        },
        {
          // Both results of the parallel calls, then the user's follow-up, in one user turn.
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'call_a', content: '# deputy\nTODO: docs' },
            {
              type: 'tool_result',
              tool_use_id: 'call_b',
              content: "[tool 'grep' failed] src: no such directory",
              is_error: true,
            },
            { type: 'text', text: 'Also check the tests.' },
          ],
        },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'call_c',
              name: 'grep',
              input: { pattern: 'TODO', path: 'test' },
            },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'call_c', content: 'test/a.test.ts:3' }],
        },
      ],
      tools: [
        {
          name: 'read',
          description: 'Read a file.',
          input_schema: {
            type: 'object',
            properties: { path: { type: 'string' } },
            required: ['path'],
            additionalProperties: false,
          },
        },
        {
          name: 'grep',
          description: 'Search files for a pattern.',
          input_schema: {
            type: 'object',
            properties: { pattern: { type: 'string' }, path: { type: 'string' } },
            required: ['pattern'],
          },
        },
      ],
    });
  });

  it('parses text and tool_use blocks from the response', async () => {
    server().respond({ status: 200, body: fixture('anthropic/tool-use.json') });
    const response = await adapter().complete(sampleRequest, {});
    expect(response).toEqual({
      text: "I'll check the README and search for TODOs.",
      toolCalls: [
        { id: 'toolu_01A09q90qw90lq917835lq9', name: 'read', arguments: { path: 'README.md' } },
        {
          id: 'toolu_01B7sJk2mPq4Rt6Vw8Xy0Za',
          name: 'grep',
          arguments: { pattern: 'TODO', path: 'src' },
        },
      ],
      modelLabel: 'anthropic/claude-sonnet-4-5',
      // Why it stopped and who answered, as the provider said (spans carry them).
      finishReason: 'tool_use',
      responseModel: 'claude-sonnet-4-5-20250929',
      // The fixture's usage: input_tokens 472, output_tokens 91, no cache fields.
      usage: { inputTokens: 472, outputTokens: 91, cachedInputTokens: 0 },
    });
  });

  it('counts cache reads and writes into the input, and reads as cached', async () => {
    const body = fixture('anthropic/tool-use.json') as Record<string, unknown>;
    body.usage = {
      input_tokens: 20,
      output_tokens: 91,
      cache_read_input_tokens: 400,
      cache_creation_input_tokens: 52,
    };
    server().respond({ status: 200, body });
    const { usage } = await adapter().complete(sampleRequest, {});
    expect(usage).toEqual({ inputTokens: 472, outputTokens: 91, cachedInputTokens: 400 });
  });

  it('honours maxTokens and omits system and tools when empty', async () => {
    server().respond({ status: 200, body: fixture('anthropic/text.json') });
    const response = await adapter(64_000).complete(
      { system: '', transcript: [{ role: 'user', content: 'hi' }], tools: [] },
      {},
    );
    expect(response.text).toBe('The README has 3 TODOs; all are in src/cli.');
    expect(response.toolCalls).toEqual([]);
    expect(server().requests[0]?.body).toEqual({
      model: 'claude-sonnet-4-5',
      max_tokens: 64_000,
      messages: [{ role: 'user', content: 'hi' }],
    });
  });

  it('maps 529 (overloaded) and 500 to retryable errors, once', async () => {
    for (const status of [529, 500]) {
      await expectRetryableOnce(server(), adapter(), {
        status,
        body: fixture('anthropic/error-529.json'),
      });
    }
  });

  it('maps 401 to a non-retryable error that never contains the key', async () => {
    server().respond({ status: 401, body: fixture('anthropic/error-401.json') });
    const error = await expectCallError(adapter());
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('anthropic/claude-sonnet-4-5: HTTP 401');
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toContain(API_KEY);
    expect(String(error.stack)).not.toContain(API_KEY);
  });

  it('maps a refused connection to a retryable error', async () => {
    const origin = await refusedOrigin();
    const unreachable = createAnthropicModel({
      model: 'claude-sonnet-4-5',
      baseUrl: origin,
      apiKey: () => API_KEY,
    });
    const error = await expectCallError(unreachable);
    expect(error.retryable).toBe(true);
  });

  it('passes the abort signal and rejects with its reason', async () => {
    server().respond({ status: 200, body: fixture('anthropic/text.json'), delayMs: 5_000 });
    await expectAbortRejectsWithReason(adapter());
  });
});

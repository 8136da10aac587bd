/**
 * What a user reads when the provider fails, for both adapters, against a real HTTP
 * server on loopback that answers like the failure: a 5xx, a 429 with `retry-after`, no answer in
 * time, a dropped connection, a context overflow. Transient failures come back retryable (the
 * model-call activity's retry policy retries them, never the SDK: one request each), naming the
 * endpoint and the status; an overflow is not retryable and names the limit.
 */
import { describe, expect, it } from 'vitest';
import { createAnthropicModel } from '../../src/models/anthropic.js';
import type { ModelAdapter } from '../../src/models/model-adapter.js';
import { createOpenAiCompatibleModel } from '../../src/models/openai-compatible.js';
import { expectCallError, useLoopbackServer } from './loopback-server.js';
import { LLAMA_CPP_OVERFLOW } from './provider-replies.js';

const API_KEY = 'sk-test-failures-0123456789';

interface Provider {
  name: string;
  /** The endpoint messages name, from the server's origin. */
  endpoint(origin: string): string;
  adapter(origin: string, timeoutMs?: number): ModelAdapter;
  /** The provider's own error body around a message. */
  errorBody(message: string, type: string): unknown;
}

const providers: Provider[] = [
  {
    name: 'OpenAI-compatible',
    endpoint: (origin) => `${origin}/v1`,
    adapter: (origin, timeoutMs) =>
      createOpenAiCompatibleModel({
        model: 'qwen2.5-coder',
        baseUrl: `${origin}/v1`,
        apiKey: () => API_KEY,
        label: 'local/qwen',
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      }),
    errorBody: (message, type) => ({ error: { message, type } }),
  },
  {
    name: 'Anthropic',
    endpoint: (origin) => origin,
    adapter: (origin, timeoutMs) =>
      createAnthropicModel({
        model: 'claude-sonnet-4-6',
        baseUrl: origin,
        apiKey: () => API_KEY,
        label: 'anthropic/sonnet',
        ...(timeoutMs === undefined ? {} : { timeoutMs }),
      }),
    errorBody: (message, type) => ({ type: 'error', error: { type, message } }),
  },
];

describe.each(providers)('$name adapter: provider failures over real HTTP', (provider) => {
  const server = useLoopbackServer();
  const adapter = (timeoutMs?: number) => provider.adapter(server().origin, timeoutMs);
  const endpoint = () => provider.endpoint(server().origin);

  it('a 5xx is retryable and names the endpoint and the status', async () => {
    server().respond({ status: 503, body: provider.errorBody('upstream busy', 'server_error') });
    const error = await expectCallError(adapter());
    expect(error.retryable).toBe(true);
    expect(error.status).toBe(503);
    expect(error.message).toMatch(
      new RegExp(`^model \\S+: HTTP 503 from ${escape(endpoint())}: .*upstream busy`),
    );
    expect(server().requests).toHaveLength(1);
  });

  it("a 429 carries the provider's retry-after, in seconds or milliseconds, capped", async () => {
    const cases: Array<[Record<string, string>, number, string]> = [
      [{ 'retry-after': '7' }, 7_000, '7 s'],
      [{ 'retry-after-ms': '1500', 'retry-after': '9' }, 1_500, '1.5 s'],
      [{ 'retry-after': '3600' }, 120_000, '2 min'],
    ];
    for (const [headers, wait, shown] of cases) {
      server().respond({
        status: 429,
        headers,
        body: provider.errorBody('rate limit reached', 'rate_limit_error'),
      });
      const error = await expectCallError(adapter());
      expect(error.retryable).toBe(true);
      expect(error.retryAfterMs).toBe(wait);
      expect(error.message).toContain(
        `HTTP 429 from ${endpoint()} (it asks to wait ${shown}): 429`,
      );
    }
    expect(server().requests).toHaveLength(cases.length);
  });

  it('no answer in time is retryable and says how long it waited, for which endpoint', async () => {
    server().respond({ status: 200, body: {}, delayMs: 3_000 });
    const error = await expectCallError(adapter(200));
    expect(error.retryable).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.message).toContain(
      `request failed: no answer from ${endpoint()} within 0.2 s (the entry's timeoutSeconds)`,
    );
  });

  it('a dropped connection is retryable and says what the socket said', async () => {
    server().respond({ status: 200, body: {}, reset: true });
    const error = await expectCallError(adapter());
    expect(error.retryable).toBe(true);
    expect(error.status).toBeUndefined();
    expect(error.message).toMatch(
      new RegExp(
        `request failed: connection to ${escape(endpoint())} failed \\((.*closed|.*ECONNRESET)`,
      ),
    );
  });

  it('a context overflow is not retryable, names the limit, and never carries the key', async () => {
    server().respond({
      status: 400,
      body: provider.errorBody(
        `prompt is too long: 210000 tokens > 200000 maximum (key ${API_KEY})`,
        'invalid_request_error',
      ),
    });
    const error = await expectCallError(adapter());
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(
      `HTTP 400 from ${endpoint()}: the conversation no longer fits the model's context window of 200000 tokens (it needs 210000)`,
    );
    expect(error.message).toContain('[redacted]');
    expect(error.message).not.toContain(API_KEY);
    expect(server().requests).toHaveLength(1);
  });
});

describe('context overflow as OpenAI-compatible servers word it', () => {
  const server = useLoopbackServer();
  const overflows: Array<[string, unknown, string]> = [
    [
      "llama.cpp's server",
      LLAMA_CPP_OVERFLOW,
      'context window of 4096 tokens (it needs 5120); deputy does not trim a transcript, so retrying cannot help',
    ],
    [
      'OpenAI and vLLM',
      {
        error: {
          message:
            "This model's maximum context length is 8192 tokens. However, your messages resulted in 9000 tokens. Please reduce the length of the messages.",
          type: 'invalid_request_error',
          param: 'messages',
          code: 'context_length_exceeded',
        },
      },
      'context window of 8192 tokens (it needs 9000)',
    ],
  ];

  it.each(overflows)('%s: one request, not retryable, the limit named', async (_, body, says) => {
    server().respond({ status: 400, body });
    const error = await expectCallError(
      createOpenAiCompatibleModel({
        model: 'qwen2.5-coder',
        baseUrl: `${server().origin}/v1`,
        label: 'local/qwen',
      }),
    );
    expect(error.retryable).toBe(false);
    expect(error.message).toContain(says);
    expect(server().requests).toHaveLength(1);
  });

  it('an ordinary 400 stays an ordinary failure', async () => {
    server().respond({
      status: 400,
      body: { error: { message: "'messages' must not be empty", type: 'invalid_request_error' } },
    });
    const error = await expectCallError(
      createOpenAiCompatibleModel({ model: 'm', baseUrl: `${server().origin}/v1`, label: 'l' }),
    );
    expect(error.retryable).toBe(false);
    expect(error.message).not.toContain('context window');
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * Answers real models give, served by a real HTTP server on loopback and read through
 * the catalog as deputy reads them: arguments that are not JSON, an answer cut at `max_tokens`,
 * tool calls written as JSON text by a small local model, and an Anthropic-format local server
 * with no key.
 */
import { describe, expect, it } from 'vitest';
import type { ModelEntry } from '../../src/config/schema.js';
import { ModelCallError } from '../../src/models/model-adapter.js';
import { createModelAdapter } from '../../src/models/select-model.js';
import type { ModelRequest, ModelResponse } from '../../src/shared/model-contract.js';
import { fixture, useLoopbackServer } from './loopback-server.js';
import { anthropicMessage, chatCompletion } from './provider-replies.js';
import { readTool, sampleRequest } from './sample-request.js';

const ask: ModelRequest = {
  system: 'You read files.',
  transcript: [{ role: 'user', content: 'What does README.md say?' }],
  tools: sampleRequest.tools,
};

/** An adapter for one catalog entry, as the model-call activity builds it. */
function catalogModel(entry: ModelEntry, env: NodeJS.ProcessEnv = {}) {
  return createModelAdapter({
    handle: 'local/model',
    agentName: 'reader',
    level: 'project',
    baseDirectory: '/nowhere',
    env,
    config: {
      workspace: '/nowhere',
      projectRoot: '/nowhere',
      models: {
        default: 'local/model',
        catalog: { 'local/model': entry },
        aliases: {},
        overrides: {},
      },
    },
  });
}

async function callError(pending: Promise<ModelResponse>): Promise<ModelCallError> {
  const error = await pending.catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

describe('tool calls whose arguments cannot be read', () => {
  const server = useLoopbackServer();

  it('OpenAI wire: not JSON comes back as an invalid call for the model, not a failure', async () => {
    server().respond({ status: 200, body: fixture('openai/invalid-arguments.json') });
    const model = catalogModel({
      provider: 'openai',
      model: 'qwen',
      baseUrl: `${server().origin}/v1`,
    });
    const response = await model.complete(ask, {});
    expect(response.toolCalls).toEqual([{ id: 'call_0', name: 'write', arguments: {} }]);
    expect(response.invalidCalls).toEqual({
      call_0:
        'its arguments are not a JSON object, so it was not run: {"path": "a.txt", "content": . ' +
        'Call it again with its arguments as one JSON object.',
    });
  });

  it('Anthropic wire: an input that is not an object is an invalid call too', async () => {
    server().respond({
      status: 200,
      body: anthropicMessage(
        [{ type: 'tool_use', id: 'toolu_1', name: 'read', input: 'README.md' }],
        'tool_use',
      ),
    });
    const model = catalogModel({ provider: 'anthropic', model: 'qwen', baseUrl: server().origin });
    const response = await model.complete(ask, {});
    expect(response.toolCalls).toEqual([{ id: 'toolu_1', name: 'read', arguments: {} }]);
    expect(response.invalidCalls?.toolu_1).toMatch(/^its arguments are not a JSON object/);
  });
});

describe('an answer cut at max_tokens', () => {
  const server = useLoopbackServer();
  const openai = () =>
    catalogModel({
      provider: 'openai',
      model: 'qwen',
      baseUrl: `${server().origin}/v1`,
      maxTokens: 64,
    });
  const anthropic = () =>
    catalogModel({ provider: 'anthropic', model: 'qwen', baseUrl: server().origin, maxTokens: 64 });

  it('sends the entry’s maxTokens', async () => {
    server().respond({ status: 200, body: fixture('openai/text.json') });
    await openai().complete(ask, {});
    expect((server().requests[0]?.body as { max_tokens?: number }).max_tokens).toBe(64);
  });

  it('OpenAI wire: a cut tool call fails plainly, not retried, and nothing runs', async () => {
    server().respond({
      status: 200,
      body: chatCompletion(
        {
          content: null,
          tool_calls: [
            {
              id: 'call_0',
              type: 'function',
              function: { name: 'write', arguments: '{"path": "notes.md", "content": "# Not' },
            },
          ],
        },
        'length',
      ),
    });
    const error = await callError(openai().complete(ask, {}));
    expect(error.retryable).toBe(false);
    expect(error.message).toBe(
      'model local/model: the answer was cut at its output limit (maxTokens 64) while it was ' +
        "asking for tools; nothing was run. Raise maxTokens in the model's catalog entry " +
        '(models.catalog)',
    );
  });

  it('Anthropic wire: a tool_use cut at max_tokens fails the same way, even if it parses', async () => {
    server().respond({
      status: 200,
      body: anthropicMessage(
        [{ type: 'tool_use', id: 'toolu_1', name: 'write', input: { path: 'notes.md' } }],
        'max_tokens',
      ),
    });
    const error = await callError(anthropic().complete(ask, {}));
    expect(error.retryable).toBe(false);
    expect(error.message).toContain('cut at its output limit (maxTokens 64)');
  });

  it('a cut text answer says so at its end, on both wires', async () => {
    const note =
      "\n\n[deputy: this answer was cut at its output limit (maxTokens 64); raise maxTokens in the model's catalog entry for longer answers]";
    server().respond({
      status: 200,
      body: chatCompletion({ content: 'The README says deputy is' }, 'length'),
    });
    expect((await openai().complete(ask, {})).text).toBe(`The README says deputy is${note}`);
    server().respond({
      status: 200,
      body: anthropicMessage([{ type: 'text', text: 'The README says' }], 'max_tokens'),
    });
    expect((await anthropic().complete(ask, {})).text).toBe(`The README says${note}`);
  });
});

describe('tool calls written as JSON text (toolCallsInContent)', () => {
  const server = useLoopbackServer();
  const entry = (toolCallsInContent?: boolean): ModelEntry => ({
    provider: 'openai',
    model: 'qwen',
    baseUrl: `${server().origin}/v1`,
    ...(toolCallsInContent === undefined ? {} : { toolCallsInContent }),
  });
  const answering = async (content: string, toolCallsInContent?: boolean) => {
    server().respond({ status: 200, body: chatCompletion({ content }, 'stop') });
    return catalogModel(entry(toolCallsInContent)).complete(ask, {});
  };

  it('reads a fenced JSON call as a tool call when the entry opts in', async () => {
    const content = '```json\n{"name": "read", "arguments": {"path": "README.md"}}\n```';
    const response = await answering(content, true);
    expect(response.text).toBe('');
    expect(response.toolCalls).toEqual([
      {
        id: expect.stringMatching(/^call_[0-9a-f]{12}$/),
        name: 'read',
        arguments: { path: 'README.md' },
      },
    ]);
    // Off by default: the same answer is text.
    const plain = await answering(content);
    expect(plain).toMatchObject({ text: content, toolCalls: [] });
  });

  it('reads bare calls, arrays, string arguments and <tool_call> tags with text around', async () => {
    const bare = await answering('{"name": "read", "parameters": {"path": "a.md"}}', true);
    expect(bare.toolCalls.map((call) => call.arguments)).toEqual([{ path: 'a.md' }]);
    const list = await answering(
      '[{"name": "read", "arguments": "{\\"path\\": \\"a.md\\"}"}, {"name": "grep", "arguments": {"pattern": "TODO"}}]',
      true,
    );
    expect(list.toolCalls.map(({ name, arguments: args }) => ({ name, args }))).toEqual([
      { name: 'read', args: { path: 'a.md' } },
      { name: 'grep', args: { pattern: 'TODO' } },
    ]);
    expect(new Set(list.toolCalls.map((call) => call.id)).size).toBe(2);
    const tagged = await answering(
      'Let me look.\n<tool_call>\n{"name": "read", "arguments": {"path": "a.md"}}\n</tool_call>',
      true,
    );
    expect(tagged.text).toBe('Let me look.');
    expect(tagged.toolCalls.map((call) => call.name)).toEqual(['read']);
  });

  it('leaves text alone when a name is not one of the tools or the JSON is only part of it', async () => {
    for (const content of [
      '{"name": "delete_everything", "arguments": {}}',
      'Here is the call: {"name": "read", "arguments": {"path": "a.md"}}',
      '{"name": "read", "arguments": {"path": ',
    ]) {
      const response = await answering(content, true);
      expect(response).toMatchObject({ text: content, toolCalls: [] });
    }
  });

  it('sends the calls back in the next request as real tool calls', async () => {
    const response = await answering('{"name": "read", "arguments": {"path": "a.md"}}', true);
    const [call] = response.toolCalls;
    server().respond({ status: 200, body: fixture('openai/text.json') });
    await catalogModel(entry(true)).complete(
      {
        ...ask,
        transcript: [
          ...ask.transcript,
          { role: 'assistant', content: response.text, toolCalls: response.toolCalls },
          {
            role: 'tool',
            toolCallId: call!.id,
            toolName: readTool.name,
            content: '1: hi',
            isError: false,
          },
        ],
      },
      {},
    );
    const sent = server().requests.at(-1)?.body as { messages: unknown[] };
    expect(sent.messages.slice(-2)).toEqual([
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: call!.id,
            type: 'function',
            function: { name: 'read', arguments: '{"path":"a.md"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: call!.id, content: '1: hi' },
    ]);
  });
});

describe('provider anthropic with a baseUrl (a local or proxy endpoint)', () => {
  const server = useLoopbackServer();

  it('works without an API key, and sends none from the environment', async () => {
    const providerKey = 'sk-ant-real-key-must-stay-home';
    server().respond({ status: 200, body: fixture('anthropic/text.json') });
    const model = catalogModel(
      { provider: 'anthropic', model: 'qwen2.5-coder', baseUrl: server().origin },
      { ANTHROPIC_API_KEY: providerKey },
    );
    const response = await model.complete(ask, {});
    expect(response.text).toBe('The README has 3 TODOs; all are in src/cli.');
    const [sent] = server().requests;
    expect(sent?.url).toBe('/v1/messages');
    expect(JSON.stringify(sent?.headers)).not.toContain(providerKey);
  });

  it('still sends the key its apiKeyEnv names', async () => {
    server().respond({ status: 200, body: fixture('anthropic/text.json') });
    const model = catalogModel(
      {
        provider: 'anthropic',
        model: 'claude-sonnet-4-6',
        baseUrl: server().origin,
        apiKeyEnv: 'PROXY_KEY',
      },
      { PROXY_KEY: 'proxy-key-0123456789' },
    );
    await model.complete(ask, {});
    expect(JSON.stringify(server().requests[0]?.headers)).toContain('proxy-key-0123456789');
  });
});

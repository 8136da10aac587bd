/**
 * A message that arrives while the model is giving what would be its final answer, on
 * the real dev server: the model is an OpenAI-compatible server on loopback that holds its first
 * answer (a text, no tool call) while the test sends the message. The delegation does not finish
 * on that answer: it delivers the message and calls the model once more, whose request ends with
 * the message as the user's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLoopbackServer, type LoopbackServer } from '../models/loopback-server.js';
import { chatCompletion } from '../models/provider-replies.js';
import { createHarness, eventually, type Harness } from './support/harness.js';

let provider: LoopbackServer;
let harness: Harness;

beforeAll(async () => {
  provider = await startLoopbackServer();
  harness = await createHarness({
    '.subagents/config.yaml': `
models:
  catalog:
    local/slow: { provider: openai, model: qwen2.5-coder, baseUrl: ${provider.origin}/v1 }
`,
    '.subagents/agents/answerer.md':
      '---\nname: answerer\ndescription: answers in one go\nmodel: local/slow\ntools: [read]\n---\nAnswer.\n',
  });
}, 60_000);

afterAll(async () => {
  await harness?.close();
  await provider?.close();
});

describe('a message racing the final answer', () => {
  it('gets one more round instead of being dropped', async () => {
    provider.respond(
      { status: 200, body: chatCompletion({ content: 'All done.' }), delayMs: 3_000 },
      { status: 200, body: chatCompletion({ content: 'Also noted the late note.' }) },
    );
    const handle = await harness.start('answerer', 'Answer me');
    const delegationId = handle.workflowId.split('/').at(-1)!;
    await eventually(
      async () => (provider.requests.length === 1 ? true : undefined),
      'the first model request',
      60_000,
    );
    // The first answer is held back by the provider: the message lands while the call runs.
    const queued = await harness.delegations.send(delegationId, { text: 'late note', from: null });
    expect(queued).toMatchObject({ seq: 1, deliveredAt: null });

    expect(await handle.result()).toMatchObject({
      status: 'completed',
      text: 'Also noted the late note.',
      roundsUsed: 2,
    });
    expect(provider.requests).toHaveLength(2);
    const messages = (provider.requests[1]!.body as { messages: Array<Record<string, unknown>> })
      .messages;
    expect(messages.slice(-2)).toMatchObject([
      { role: 'assistant', content: 'All done.' },
      { role: 'user', content: 'late note' },
    ]);
    const state = await harness.delegations.get(delegationId);
    expect(state.messages).toMatchObject([{ seq: 1, deliveredBeforeRound: 2 }]);
  }, 90_000);
});

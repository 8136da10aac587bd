/**
 * An OpenAI-compatible chat-completions endpoint on loopback, for tests that need a provider
 * deputy really talks HTTP to: it records each request body, answers what the test says (or
 * never answers), and counts requests whose connection the client closed before an answer.
 */
import { once } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The parts of a chat-completions request body the tests look at. */
export interface ChatRequestBody {
  model: string;
  messages: Array<{ role: string; content: string }>;
  tools?: unknown[];
}

/** How to answer one request: a status and a JSON body, or `hang` to never answer. */
export type ChatAnswer = { status: number; json: unknown } | 'hang';

export interface FakeChatProvider {
  /** Base URL including `/v1`, for `models.catalog.<handle>.baseUrl`. */
  baseUrl: string;
  requests: ChatRequestBody[];
  /** Requests whose connection closed before they were answered. */
  abandoned(): number;
  close(): Promise<void>;
}

/** A chat completion whose first choice says `content`. */
export function completion(content: string): ChatAnswer {
  return {
    status: 200,
    json: {
      id: 'chatcmpl-test',
      object: 'chat.completion',
      created: 0,
      model: 'fake-model',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content },
          finish_reason: 'stop',
          logprobs: null,
        },
      ],
    },
  };
}

export async function startFakeChatProvider(
  answer: (body: ChatRequestBody) => ChatAnswer,
): Promise<FakeChatProvider> {
  const requests: ChatRequestBody[] = [];
  let abandoned = 0;
  const server = createServer((request, response) => {
    void readBody(request).then((text) => {
      const body = JSON.parse(text) as ChatRequestBody;
      requests.push(body);
      response.on('close', () => {
        if (!response.writableFinished) abandoned += 1;
      });
      const reply = answer(body);
      if (reply === 'hang') return;
      response.writeHead(reply.status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(reply.json));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    abandoned: () => abandoned,
    close: async () => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Config text for a default model that is an OpenAI-compatible endpoint at `baseUrl`. */
export function providerConfig(baseUrl: string, extra = ''): string {
  return [
    'models:',
    '  default: fake/model',
    '  catalog:',
    '    fake/model:',
    '      provider: openai',
    '      model: fake-model',
    `      baseUrl: ${baseUrl}`,
    extra,
  ].join('\n');
}

/**
 * A real HTTP server on 127.0.0.1 that records what the provider SDKs send and answers with
 * recorded provider responses, so the adapters are tested through their real SDK and network
 * stack, not through mocks of the SDK.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, expect } from 'vitest';
import { ModelCallError } from '../../src/models/model-adapter.js';
import type { ModelAdapter } from '../../src/models/model-adapter.js';
import { sampleRequest } from './sample-request.js';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
  /** When the whole request had arrived (Date.now()), to measure the waits between retries. */
  receivedAt: number;
}

export interface CannedResponse {
  status: number;
  body: unknown;
  /** Wait this long before answering (to test aborts and timeouts). */
  delayMs?: number;
  /** Extra response headers, e.g. `retry-after`. */
  headers?: Record<string, string>;
  /** Drop the connection instead of answering (a reset, as a crashed proxy does). */
  reset?: boolean;
}

export interface LoopbackServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  requests: RecordedRequest[];
  /** Queues answers; each request takes the next one. */
  respond(...responses: CannedResponse[]): void;
  close(): Promise<void>;
}

export function fixture(relativePath: string): unknown {
  return JSON.parse(
    readFileSync(new URL(`../fixtures/models/${relativePath}`, import.meta.url), 'utf8'),
  );
}

export async function startLoopbackServer(): Promise<LoopbackServer> {
  const requests: RecordedRequest[] = [];
  const queue: CannedResponse[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: text === '' ? undefined : JSON.parse(text),
        receivedAt: Date.now(),
      });
      const answer = queue.shift() ?? { status: 599, body: { error: 'no canned response' } };
      const send = () => {
        if (answer.reset === true) {
          request.socket.destroy();
          return;
        }
        response.writeHead(answer.status, {
          'content-type': 'application/json',
          ...answer.headers,
        });
        response.end(JSON.stringify(answer.body));
      };
      if (answer.delayMs === undefined) {
        send();
      } else {
        setTimeout(send, answer.delayMs).unref();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    requests,
    respond: (...responses) => queue.push(...responses),
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}

/**
 * One loopback server for the enclosing suite (or file): started before its tests, closed after
 * them, its recorded requests cleared after each test. Returns a getter for the server.
 */
export function useLoopbackServer(): () => LoopbackServer {
  let server: LoopbackServer | undefined;
  beforeAll(async () => {
    server = await startLoopbackServer();
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    if (server) server.requests.length = 0;
  });
  return () => {
    if (server === undefined) throw new Error('the loopback server is used outside its suite');
    return server;
  };
}

/** `http://127.0.0.1:<port>` of a loopback port with nothing listening: connection refused. */
export async function refusedOrigin(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}

/** Sends the sample request and expects it to fail with a ModelCallError, which it returns. */
export async function expectCallError(model: ModelAdapter): Promise<ModelCallError> {
  const error = await model.complete(sampleRequest, {}).catch((caught: unknown) => caught);
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}

/**
 * Answers the next call with `answer` (an error status) and expects the call to fail as a retryable
 * ModelCallError of that status after exactly one request (no SDK retries). Returns the error.
 */
export async function expectRetryableOnce(
  server: LoopbackServer,
  model: ModelAdapter,
  answer: CannedResponse,
): Promise<ModelCallError> {
  server.requests.length = 0;
  server.respond(answer);
  const error = await expectCallError(model);
  expect(error.retryable).toBe(true);
  expect(error.status).toBe(answer.status);
  expect(server.requests).toHaveLength(1);
  return error;
}

/** Aborts a call in flight (the server must answer late) and expects it to reject with the reason. */
export async function expectAbortRejectsWithReason(model: ModelAdapter): Promise<void> {
  const controller = new AbortController();
  const reason = new Error('activity cancelled');
  const pending = model.complete(sampleRequest, { signal: controller.signal });
  setTimeout(() => controller.abort(reason), 50);
  await expect(pending).rejects.toBe(reason);
}

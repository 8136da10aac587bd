/**
 * A real HTTP server on 127.0.0.1 that records what the provider SDKs send and answers with
 * recorded provider responses, so the adapters are tested through their real SDK and network
 * stack, not through mocks of the SDK.
 */
import { readFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

export interface CannedResponse {
  status: number;
  body: unknown;
  /** Wait this long before answering (to test aborts). */
  delayMs?: number;
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
      });
      const answer = queue.shift() ?? { status: 599, body: { error: 'no canned response' } };
      const send = () => {
        response.writeHead(answer.status, { 'content-type': 'application/json' });
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

/** A loopback port with nothing listening: connection refused. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * JSON over HTTP to a deputy API: bearer token, JSON bodies, and every refusal turned into a
 * DeputyClientError with the API's code. The only place the client touches `fetch`.
 */
import { DeputyClientError, type ClientIssue } from './client-error.js';

export interface HttpOptions {
  /** Base URL of the API, e.g. `http://127.0.0.1:4780`. */
  url: string;
  /** Bearer token, when the API has auth on. */
  token?: string;
  /** Default: the global fetch. */
  fetch?: typeof fetch;
}

export interface HttpTransport {
  json<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** Opens a Server-Sent Events answer; the caller reads `response.body`. */
  stream(path: string, headers: Record<string, string>, signal: AbortSignal): Promise<Response>;
}

export function httpTransport(options: HttpOptions): HttpTransport {
  const base = options.url.replace(/\/+$/, '');
  const doFetch = options.fetch ?? fetch;
  const auth: Record<string, string> =
    options.token === undefined ? {} : { authorization: `Bearer ${options.token}` };

  async function send(path: string, init: RequestInit): Promise<Response> {
    try {
      return await doFetch(`${base}${path}`, init);
    } catch (error) {
      if (init.signal?.aborted) throw error;
      throw new DeputyClientError(
        `deputy API at ${base} did not answer: ${error instanceof Error ? error.message : String(error)}`,
        'unreachable',
        0,
        [],
        { cause: error },
      );
    }
  }

  return {
    async json<T>(method: string, path: string, body?: unknown) {
      const response = await send(path, {
        method,
        headers: {
          ...auth,
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const text = await response.text();
      const parsed: unknown = text === '' ? {} : JSON.parse(text);
      if (!response.ok) throw refusal(response.status, parsed);
      return { status: response.status, body: parsed as T };
    },
    async stream(path, headers, signal) {
      const response = await send(path, {
        method: 'GET',
        headers: { ...auth, accept: 'text/event-stream', ...headers },
        signal,
      });
      if (!response.ok) {
        const text = await response.text();
        throw refusal(response.status, text === '' ? {} : (JSON.parse(text) as unknown));
      }
      return response;
    },
  };
}

function refusal(status: number, body: unknown): DeputyClientError {
  const answer = (body ?? {}) as {
    code?: string;
    error?: string;
    message?: string;
    issues?: ClientIssue[];
  };
  const code = answer.code ?? answer.error ?? `http_${status}`;
  return new DeputyClientError(
    answer.message ?? `HTTP ${status} (${code})`,
    code,
    status,
    answer.issues ?? [],
  );
}

/**
 * The CLI's fast way in: the running API of this data directory, over its local socket
 * (src/local-socket.ts). `deputy cards`, `approve` and `deny` ask it first, an HTTP request that
 * loads no Temporal SDK; when no API runs there (no socket, a stale one) or it serves another
 * Temporal target than this command's environment names, they talk to Temporal themselves.
 *
 * DEPUTY_LOCAL_API=0 skips the socket.
 */
import { existsSync } from 'node:fs';
import { request } from 'node:http';
import type { Command } from 'commander';
import { DeputyClientError } from '../client/client-error.js';
import { createDeputyClient, type DeputyClient } from '../client/deputy-client.js';
import { DeputyError, HTTP_STATUS, type DeputyErrorKind } from '../errors.js';
import { LOCAL_TARGET_HEADERS } from '../local-operator.js';
import {
  dataDirectory,
  localApiSocketPath,
  workspaceDirectory,
} from '../paths/workspace-directories.js';
import { globalOptions } from './context.js';

/** Answers that mean "not this way": go to Temporal directly instead. */
const FALL_BACK = new Set(['unreachable', 'misdirected_request']);

/**
 * `viaApi` on the local API when one answers, else `direct`. An answer from the API, a refusal
 * included, is final: the refusal becomes the DeputyError the direct path would have thrown.
 */
export async function preferLocalApi<T>(
  command: Command,
  viaApi: (api: DeputyClient) => Promise<T>,
  direct: () => Promise<T>,
): Promise<T> {
  const api = localApi(command);
  if (api !== null) {
    try {
      return await viaApi(api);
    } catch (error) {
      if (!(error instanceof DeputyClientError)) throw error;
      if (!FALL_BACK.has(error.code)) throw asDeputyError(error);
    }
  }
  return direct();
}

function localApi(command: Command): DeputyClient | null {
  if (process.env.DEPUTY_LOCAL_API === '0' || process.platform === 'win32') return null;
  const global = globalOptions(command);
  const path = localApiSocketPath(dataDirectory(workspaceDirectory(global), global));
  if (!existsSync(path)) return null;
  // The Temporal target this command would use, where its environment names one (api/http/local-caller.ts).
  const target: Record<string, string> = {};
  for (const [header, variable] of Object.entries(LOCAL_TARGET_HEADERS)) {
    const value = process.env[variable];
    if (value !== undefined && value !== '') target[header] = value;
  }
  return createDeputyClient({ url: 'http://localhost', fetch: socketFetch(path, target) });
}

/**
 * `fetch` over a Unix socket with node:http (the global fetch cannot reach one without loading
 * undici). Enough for the client's JSON requests: the whole answer is read before it resolves.
 */
function socketFetch(socketPath: string, extraHeaders: Record<string, string>): typeof fetch {
  return (input, init = {}) =>
    new Promise<Response>((resolve, reject) => {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const outgoing = request(
        {
          socketPath,
          path: url.pathname + url.search,
          method: init.method ?? 'GET',
          headers: { ...extraHeaders, ...(init.headers as Record<string, string> | undefined) },
        },
        (incoming) => {
          const chunks: Buffer[] = [];
          incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
          incoming.on('error', reject);
          incoming.on('end', () => {
            const headers = new Headers();
            for (const [name, value] of Object.entries(incoming.headers)) {
              if (typeof value === 'string') headers.set(name, value);
            }
            const status = incoming.statusCode ?? 502;
            const body = NULL_BODY_STATUSES.has(status) ? null : Buffer.concat(chunks);
            resolve(new Response(body, { status, headers }));
          });
        },
      );
      outgoing.on('error', reject);
      if (typeof init.body === 'string') outgoing.write(init.body);
      outgoing.end();
    });
}

/** Statuses a Response may not carry a body with. */
const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

/** The API's refusal as the error the direct path throws, so exit codes and messages agree. */
function asDeputyError(error: DeputyClientError): Error {
  const kind = KIND_BY_STATUS.get(error.status);
  if (kind === undefined) return new Error(error.message);
  return new DeputyError(kind, error.message, { issues: error.issues });
}

/** HTTP_STATUS read backwards; of two kinds on one status (403) the first listed stands. */
const KIND_BY_STATUS = new Map<number, DeputyErrorKind>();
for (const [kind, status] of Object.entries(HTTP_STATUS) as Array<[DeputyErrorKind, number]>) {
  if (!KIND_BY_STATUS.has(status)) KIND_BY_STATUS.set(status, kind);
}

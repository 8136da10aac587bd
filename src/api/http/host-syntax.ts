/**
 * A `Host` header no URL can hold (`127.0.0.300`, a port past 65535, `user@host`, an unclosed
 * `[`) is the client's mistake, answered 400 with a problem body before the request reaches the
 * app. Left to the HTTP adapter, some of them fail deep inside Hono when it first builds the
 * request's URL (a 500 and a stack in the log) and the rest get an empty 400.
 */
import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';
import { clip } from '../../shared/clip.js';
import { hostNameOf } from './host-guard.js';

/** Why `authority` is no usable Host header, or null when it is one. */
export function hostSyntaxProblem(authority: string | undefined): string | null {
  const shown = `'${clip(authority ?? '', 100)}'`;
  const name = authority === undefined ? null : hostNameOf(authority);
  if (name === null) return `the Host header ${shown} is not a host name with an optional port`;
  let parsed: URL;
  try {
    parsed = new URL(`http://${authority!.trim()}/`);
  } catch {
    return `the Host header ${shown} is not a valid host (an address part past 255, or a port past 65535?)`;
  }
  // `127.1` or `0x7f.0.0.1` are loopback to a URL parser but not as written: not one name for two.
  if (parsed.hostname !== name) {
    return `the Host header ${shown} is not written in its canonical form (${parsed.hostname})`;
  }
  return null;
}

/** Answers the request 400 when its Host header is malformed; true when it did. */
function refusedHost(request: IncomingMessage, response: ServerResponse): boolean {
  // Node lets a repeated Host through as one value joined by ", ", which hostNameOf refuses.
  const problem = hostSyntaxProblem(request.headers.host);
  if (problem === null) return false;
  const body = JSON.stringify({ error: 'invalid_host', code: 'invalid_host', message: problem });
  response.writeHead(400, {
    'Content-Type': 'application/json; charset=UTF-8',
    'Content-Length': Buffer.byteLength(body),
    Connection: 'close',
  });
  response.end(body);
  // Whatever body the request carries is not read: it has nowhere to go.
  request.resume();
  return true;
}

/**
 * `node:http`'s createServer, with malformed Host headers answered before the listener runs.
 * Typed as createServer for the adapters' `createServer` option, which always passes the
 * server options first and the listener second.
 */
export const createServerRefusingMalformedHosts = ((
  options: ServerOptions,
  listener?: RequestListener,
): Server =>
  createServer(options, (request, response) => {
    if (refusedHost(request, response)) return;
    listener?.(request, response);
  })) as typeof createServer;

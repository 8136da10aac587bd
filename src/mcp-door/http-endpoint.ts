/**
 * The MCP door over Streamable HTTP, for the API's `/mcp` route: one door per MCP
 * session, bound to the caller who opened it. The API's own guards run first (Host and Origin,
 * the bearer token, body limits); a request naming a session another caller opened is answered
 * as if the session did not exist. Sessions are connection state only (which cards were put to
 * the host): every task and card lives in Temporal, so a session lost to an API restart costs the
 * host a new `initialize`, never a delegation.
 */
import { randomUUID } from 'node:crypto';
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js';
import type { Caller } from '../shared/caller.js';
import { createMcpDoor, type McpDoor, type McpDoorDeps } from './door.js';

/** A session nobody used for this long is closed (its host re-initializes when it comes back). */
const IDLE_MS = 30 * 60 * 1000;
/** Open sessions at most; past it a new `initialize` is refused with 503 until one closes. */
const MAX_SESSIONS = 1000;

export interface McpHttpEndpoint {
  /** Answers one request to `/mcp` for `caller`; `body` is the parsed JSON of a POST. */
  handle(request: Request, caller: Caller, body?: unknown): Promise<Response>;
  /** Open sessions (for tests and `/health`-like views). */
  sessions(): number;
  close(): Promise<void>;
}

interface Session {
  transport: WebStandardStreamableHTTPServerTransport;
  door: McpDoor;
  caller: Caller;
  lastSeen: number;
}

export function createMcpHttpEndpoint(
  deps: McpDoorDeps,
  options: { idleMs?: number; maxSessions?: number } = {},
): McpHttpEndpoint {
  const idleMs = options.idleMs ?? IDLE_MS;
  const maxSessions = options.maxSessions ?? MAX_SESSIONS;
  const sessions = new Map<string, Session>();

  const drop = async (id: string): Promise<void> => {
    const session = sessions.get(id);
    if (session === undefined) return;
    sessions.delete(id);
    await session.door.close().catch(() => undefined);
  };

  const reaper = setInterval(
    () => {
      const cutoff = Date.now() - idleMs;
      for (const [id, session] of sessions) if (session.lastSeen < cutoff) void drop(id);
    },
    Math.min(idleMs, 60_000),
  );
  reaper.unref();

  async function open(request: Request, caller: Caller, body: unknown): Promise<Response> {
    if (!isInitialize(body)) {
      return rpcError(
        400,
        -32000,
        'no MCP session: send initialize first (without Mcp-Session-Id)',
      );
    }
    if (sessions.size >= maxSessions) {
      return rpcError(503, -32000, `too many open MCP sessions (${maxSessions}); try again later`);
    }
    const door = createMcpDoor(deps, caller);
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => randomUUID(),
      onsessioninitialized: (id) => {
        sessions.set(id, { transport, door, caller, lastSeen: Date.now() });
      },
      onsessionclosed: (id) => drop(id),
    });
    await door.server.connect(transport);
    return transport.handleRequest(request, { parsedBody: body });
  }

  return {
    async handle(request, caller, body) {
      const id = request.headers.get('mcp-session-id');
      if (id === null) return open(request, caller, body);
      const session = sessions.get(id);
      // Someone else's session is no session of this caller's: the same answer as an unknown one.
      if (session === undefined || !sameCaller(session.caller, caller)) {
        return rpcError(404, -32001, 'MCP session not found: initialize a new one');
      }
      session.lastSeen = Date.now();
      return session.transport.handleRequest(
        request,
        body === undefined ? {} : { parsedBody: body },
      );
    },
    sessions: () => sessions.size,
    async close() {
      clearInterval(reaper);
      await Promise.all([...sessions.keys()].map(drop));
    },
  };
}

function sameCaller(a: Caller, b: Caller): boolean {
  return a.id === b.id && a.roles.join('\n') === b.roles.join('\n');
}

function isInitialize(body: unknown): boolean {
  const messages = Array.isArray(body) ? body : [body];
  return messages.some(
    (message) =>
      typeof message === 'object' &&
      message !== null &&
      (message as { method?: unknown }).method === 'initialize',
  );
}

function rpcError(status: number, code: number, message: string): Response {
  return new Response(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }), {
    status,
    headers: { 'content-type': 'application/json' },
  });
}

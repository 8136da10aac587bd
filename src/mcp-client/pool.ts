/**
 * One live MCP client per server per process, shared by every delegation the worker
 * runs. A client connects in the background (asking for one never delays a worker's start; a
 * few handshakes at a time, connect-queue.ts, unless someone waits for one), and when it cannot
 * connect or its transport closes (the server died, the network dropped) it tries again after an
 * exponential backoff with jitter (reconnect-backoff.ts), until the pool is closed. Protocol and
 * transports are the MCP SDK's; this module only keeps the clients alive and says how each one
 * is doing.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import {
  ErrorCode,
  McpError,
  ToolListChangedNotificationSchema,
  type CallToolResult,
  type Tool,
} from '@modelcontextprotocol/sdk/types.js';
import { resolveSecretReferences } from '../config/secret-references.js';
import { createConnectQueue, type ConnectQueue, type QueuedAttempt } from './connect-queue.js';
import { DEFAULT_RECONNECT, reconnectDelayMs, type ReconnectPolicy } from './reconnect-backoff.js';
import { specKey, type McpServerSpec } from './server-spec.js';
import { StdioGroupClientTransport } from './stdio-group-transport.js';

export type McpServerStatus = 'connecting' | 'connected' | 'failed';

export interface PooledServer {
  readonly name: string;
  readonly spec: McpServerSpec;
  status(): McpServerStatus;
  /** Why the last attempt failed or the connection ended; null while none has. */
  lastError(): string | null;
  /** The server's tools as last listed; null until it has connected once. */
  tools(): Tool[] | null;
  /** Pid of a stdio server's process while connected (tests count processes with it). */
  pid(): number | null;
  /** The connected client, waiting up to `timeoutMs` for a connection in progress. */
  connected(timeoutMs: number): Promise<Client>;
  call(
    tool: string,
    args: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<CallToolResult>;
}

export interface McpPoolOptions {
  /**
   * The wait before the first retry after a failed attempt or a lost connection, ms
   * (`mcpReconnectSeconds`); each further retry waits twice as long, up to `maxReconnectMs`, and
   * a good connection starts over. Default 250.
   */
  reconnectMs?: number;
  /** The longest wait between two attempts, ms (at least `reconnectMs`). Default 30000. */
  maxReconnectMs?: number;
  /** Handshakes nobody waits for (ahead of use, retries) running at once. Default 4. */
  maxConnecting?: number;
  /** Where `${NAME}` references and the bearer token are read. Default `process.env`. */
  env?: NodeJS.ProcessEnv;
  /** The runtime's own token, sent only to http servers with `auth: bearer`. */
  bearerToken?: () => string | undefined;
  /** Working directory of stdio servers (the workspace). */
  cwd?: string;
  /** Told about connections made and lost (secret-free messages). */
  log?: (message: string) => void;
}

export interface McpPool {
  /** The pooled server for `spec`, created (and connecting) on first use. */
  server(spec: McpServerSpec): PooledServer;
  /** Every server asked for so far. */
  list(): PooledServer[];
  /**
   * Disconnects the servers not in `specs` (an edit removed or changed them): nothing can reach
   * them any more, since every lookup goes through the configuration and definitions as they are.
   */
  retain(specs: readonly McpServerSpec[]): Promise<void>;
  /** Disconnects everything; no reconnect afterwards. */
  close(): Promise<void>;
}

/** The server has no live connection to call through (down, still connecting, or stopped). */
export class McpNotConnectedError extends Error {
  override readonly name = 'McpNotConnectedError';
}

/** 2^31-1 ms: the longest timer Node keeps; a `toolTimeoutSeconds: 0` call waits this long. */
export const NO_TIMEOUT_MS = 2_147_483_647;

export function createMcpPool(options: McpPoolOptions = {}): McpPool {
  const servers = new Map<string, ManagedServer>();
  let closed = false;
  const queue = createConnectQueue(options.maxConnecting ?? 4);
  const policy: ReconnectPolicy = {
    firstMs: options.reconnectMs ?? DEFAULT_RECONNECT.firstMs,
    maxMs: options.maxReconnectMs ?? DEFAULT_RECONNECT.maxMs,
  };
  return {
    server(spec) {
      const key = specKey(spec);
      let server = servers.get(key);
      if (server === undefined) {
        server = new ManagedServer(spec, { ...options, queue, policy }, () => closed);
        servers.set(key, server);
        server.start();
      }
      return server;
    },
    list: () => [...servers.values()],
    async retain(specs) {
      const kept = new Set(specs.map(specKey));
      const dropped = [...servers.entries()].filter(([key]) => !kept.has(key));
      for (const [key] of dropped) servers.delete(key);
      await Promise.all(
        dropped.map(([, server]) => server.stop('no longer configured or declared')),
      );
    },
    async close() {
      closed = true;
      await Promise.all([...servers.values()].map((server) => server.stop()));
    },
  };
}

class ManagedServer implements PooledServer {
  readonly name: string;
  #status: McpServerStatus = 'connecting';
  #error: string | null = null;
  #tools: Tool[] | null = null;
  #client: Client | null = null;
  #transport: Transport | null = null;
  #retry: NodeJS.Timeout | null = null;
  /** When the scheduled retry is due (epoch ms); null while none is. */
  #retryDueAt: number | null = null;
  /** Retries since the last good connection: the backoff's step. */
  #retries = 0;
  /** The next attempt while it waits for its turn in the queue. */
  #queued: QueuedAttempt | null = null;
  #waiters: Array<() => void> = [];
  #connecting: Client | null = null;
  /** Stopped for good (the pool closed, or the server is named nowhere any more). */
  #stopped = false;
  /** Connection attempts begun so far: a call waits for the attempt due when it came. */
  #attempts = 0;

  constructor(
    readonly spec: McpServerSpec,
    private readonly options: McpPoolOptions & { queue: ConnectQueue; policy: ReconnectPolicy },
    private readonly closed: () => boolean,
  ) {
    this.name = spec.name;
  }

  status = (): McpServerStatus => this.#status;
  lastError = (): string | null => this.#error;
  tools = (): Tool[] | null => this.#tools;
  pid = (): number | null =>
    this.#transport instanceof StdioGroupClientTransport ? this.#transport.pid : null;

  /** Queues the first attempt; a caller that waits (connected()) starts it at once. */
  start(): void {
    this.#enqueue();
  }

  #enqueue(): void {
    const queued = this.options.queue.enqueue(async () => {
      if (this.#queued === queued) this.#queued = null;
      await this.#connect();
    });
    this.#queued = queued;
    // A call already waits for this retry: it does not queue behind work nobody waits for.
    if (this.#waiters.length > 0) queued.now();
  }

  async #connect(): Promise<void> {
    if (this.closed() || this.#stopped) return;
    this.#attempts += 1;
    this.#status = 'connecting';
    const client = new Client({ name: 'deputy', version: '0.1.0' });
    // Kept while the handshake runs, so stop() can end a server that never answers it.
    this.#connecting = client;
    let transport: Transport;
    try {
      transport = this.#transportFor();
      await client.connect(transport);
      const tools = await listAllTools(client);
      if (this.closed() || this.#stopped) {
        await client.close();
        return;
      }
      this.#client = client;
      this.#transport = transport;
      this.#tools = tools;
      this.#status = 'connected';
      this.#error = null;
      this.#retries = 0;
      this.options.log?.(
        `MCP server '${this.name}' connected over ${this.spec.transport} (${tools.length} tools)`,
      );
      // Set after connecting: a close while connecting is the failure handled below. On the
      // client, not the transport: the client's own transport handler is what rejects the calls
      // in flight (ConnectionClosed); replacing it left a call to a crashed server hanging.
      client.onclose = () => this.#lost('the connection closed (the server stopped?)');
      client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        this.#tools = await listAllTools(client).catch(() => this.#tools);
      });
    } catch (error) {
      await client.close().catch(() => undefined);
      if (!this.#stopped) this.#fail(describe(error));
      return;
    } finally {
      this.#connecting = null;
      this.#wake();
    }
  }

  #lost(reason: string): void {
    if (this.#status !== 'connected') return;
    this.#client = null;
    this.#transport = null;
    this.#fail(reason);
  }

  #fail(reason: string): void {
    this.#status = 'failed';
    this.#error = reason;
    this.#wake();
    if (this.closed() || this.#stopped) return;
    this.#retries += 1;
    const delay = reconnectDelayMs(this.#retries, this.options.policy);
    this.options.log?.(
      `MCP server '${this.name}' is not connected: ${reason}; retrying in ${formatDelay(delay)}`,
    );
    this.#retryDueAt = Date.now() + delay;
    this.#retry = setTimeout(() => {
      this.#retry = null;
      this.#retryDueAt = null;
      this.#enqueue();
    }, delay);
    // A pending reconnect never keeps the process alive on its own.
    this.#retry.unref();
  }

  #wake(): void {
    for (const wake of this.#waiters.splice(0)) wake();
  }

  #transportFor(): Transport {
    const { spec } = this;
    const env = this.options.env ?? process.env;
    const field = `mcpServers.${spec.name}`;
    if (spec.transport === 'stdio') {
      if (spec.command === undefined) throw new Error('a stdio server needs a command');
      // In a process group that dies with this process, however it ends (as bash commands do).
      return new StdioGroupClientTransport({
        command: spec.command,
        args: spec.args,
        env: resolveSecretReferences(spec.env, `${field}.env`, env),
        // Its stderr is its own business; inherited, it would interleave with deputy's output.
        stderr: 'ignore',
        ...(this.options.cwd === undefined ? {} : { cwd: this.options.cwd }),
      });
    }
    if (spec.endpoint === undefined) throw new Error('an http server needs an endpoint');
    const headers = resolveSecretReferences(spec.headers, `${field}.headers`, env);
    if (spec.auth === 'bearer') {
      const token = this.options.bearerToken?.();
      if (token === undefined || token === '') {
        throw new Error(
          'auth: bearer is set but the runtime has no token (set the variable mcpBearerTokenEnv names)',
        );
      }
      headers.Authorization = `Bearer ${token}`;
    }
    return new StreamableHTTPClientTransport(new URL(spec.endpoint), {
      requestInit: { headers },
    });
  }

  async connected(timeoutMs: number): Promise<Client> {
    const deadline = Date.now() + timeoutMs;
    // Lost and waiting to reconnect: wait (within the deadline) for the attempt already
    // scheduled rather than fail at once, so the call right after a server died works once the
    // server is back. Give up when that attempt (or the one in progress) has failed, or at once
    // when the backoff puts it past the deadline (a server down for a while).
    const awaited = this.#attempts + (this.#status === 'failed' ? 1 : 0);
    while (this.#client === null || this.#status !== 'connected') {
      // Someone waits for this one: it does not take its turn behind attempts nobody waits for.
      this.#queued?.now();
      const left = deadline - Date.now();
      const gaveUp =
        this.#status === 'failed' &&
        (this.#attempts >= awaited || (this.#retryDueAt ?? 0) > deadline);
      if (this.closed() || left <= 0 || gaveUp) {
        throw new McpNotConnectedError(
          this.#status === 'failed'
            ? `MCP server '${this.name}' is not connected: ${this.#error ?? 'unknown error'} (retrying in the background)`
            : `MCP server '${this.name}' is still connecting`,
        );
      }
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.#client;
  }

  async call(
    tool: string,
    args: Record<string, unknown>,
    options: { timeoutMs: number; signal?: AbortSignal },
  ): Promise<CallToolResult> {
    const client = await this.connected(Math.min(options.timeoutMs, 10_000));
    try {
      const result = await client.callTool({ name: tool, arguments: args }, undefined, {
        timeout: options.timeoutMs,
        ...(options.signal === undefined ? {} : { signal: options.signal }),
      });
      return result as CallToolResult;
    } catch (error) {
      // A protocol answer (a timeout, bad arguments) leaves the connection as it was. Anything
      // else means it is gone: an http server that died fails the fetch and never closes the
      // transport, so it is reconnected from here.
      if (!(error instanceof McpError) || error.code === (ErrorCode.ConnectionClosed as number)) {
        if (this.#client === client) {
          this.#lost(describe(error));
          void client.close().catch(() => undefined);
        }
      }
      throw error;
    }
  }

  async stop(reason = 'the pool was closed'): Promise<void> {
    this.#stopped = true;
    if (this.#retry !== null) clearTimeout(this.#retry);
    this.#queued?.cancel();
    this.#queued = null;
    const clients = [this.#client, this.#connecting];
    this.#client = null;
    this.#transport = null;
    this.#status = 'failed';
    this.#error = reason;
    this.#wake();
    // A client still in its handshake is closed too: its server process must not outlive us.
    await Promise.all(clients.map((client) => client?.close().catch(() => undefined)));
  }
}

/** Every page of the server's tool list. */
async function listAllTools(client: Client): Promise<Tool[]> {
  const tools: Tool[] = [];
  let cursor: string | undefined;
  do {
    const page = await client.listTools(cursor === undefined ? {} : { cursor });
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return tools;
}

/** `250 ms`, `1.5 s`, `30 s`: for the log line that says when the next attempt is. */
function formatDelay(ms: number): string {
  return ms < 1000 ? `${ms} ms` : `${Number((ms / 1000).toFixed(1))} s`;
}

function describe(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split('\n')[0]!.slice(0, 300);
}
